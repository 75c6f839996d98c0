"""/uno history and /uno replay: a server's finished matches, and any round played again.

Both answer privately. A history page lists the newest matches first (◀ ▶ page, a button per
match opens it); a match shows its standings and rounds (a button per round opens its replay);
a replay shows one step at a time (⏮ ◀ ▶ ⏭), rebuilt by running the engine over the stored
moves. Every button is a restart-safe DynamicItem, parsed once by ``bot/ui/history.py``, and
answers only on its own kind of message (``bot/ui/kinds.py``).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import ValidationError

from bot.client import UnoBot
from bot.engine import RuleSet, public_view
from bot.engine.replay import RULES_VERSION, ReplayError, replay_round
from bot.store.repositories.history import HistoryPage, HistoryRound, MatchHistory
from bot.table import TableState
from bot.ui import words
from bot.ui.history import (
    HISTORY_PAGE_ID,
    MATCH_ID,
    REPLAY_ID,
    REPLAY_LOG_LINES,
    HistoryPageClick,
    MatchClick,
    ReplayClick,
    ReplayTable,
    narrated,
    replay_embed,
)
from bot.ui.i18n import Lang, t
from bot.ui.kinds import HISTORY_COLOUR, MATCH_COLOUR, KindChecked, MessageKind
from bot.ui.pictures import PICTURE_URL, LastPicture, picture_file
from bot.ui.render import add_field, within_limits
from bot.ui.respond import Interaction, button_view, reply, safe_name

from .leaderboard import READ_DEADLINE, failure_text, reader_language

PAGE_SIZE = 10
MATCH_BUTTONS_PER_ROW = 5
MOST_ROUND_BUTTONS = 20  # four rows of five; a longer match is replayed with /uno replay


class Refused(Exception):
    """A request answered with one short private line (a message key and its parameters)."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def _when(moment: datetime, style: str) -> str:
    """A Discord timestamp, shown in each reader's own time zone and language."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def _shown(lang: Lang, name: str) -> str:
    """A kept name made safe; a forgotten player's (erased) as "a former player"."""
    return safe_name(name) if name else t(lang, "history.former_player")


def _names(lang: Lang, match: MatchHistory) -> dict[int, str]:
    return {p.player_id: _shown(lang, p.name) for p in match.players}


def _live_match(bot: UnoBot, interaction: Interaction, game_id: int) -> Replayable | None:
    """This server's running match with the store number ``game_id``, its finished rounds."""
    persistence = bot.sessions.persistence
    if persistence is None:
        return None
    for session in bot.sessions.by_channel.values():
        state = session.state
        if state.guild_id == interaction.guild_id and persistence.game_id(state.id) == game_id:
            return Replayable.live(game_id, state)
    return None


async def _replayable(bot: UnoBot, interaction: Interaction, game_id: int) -> Replayable:
    """A match to replay: kept in this server's history, or running here (its finished
    rounds only); Refused otherwise."""
    try:
        return Replayable.kept(await _own_match(bot, interaction, game_id))
    except Refused:
        live = _live_match(bot, interaction, game_id)
        if live is None:
            raise
        return live


async def _own_match(bot: UnoBot, interaction: Interaction, game_id: int) -> MatchHistory:
    """A match of this server's history, or Refused."""
    async with asyncio.timeout(READ_DEADLINE):
        match = await bot.store.history.match(game_id)
    if match is None or match.guild_id != interaction.guild_id:
        raise Refused("history.no_match", match=game_id)
    return match


# ---------------------------------------------------------------------- a page


def page_embed(lang: Lang, page: HistoryPage, title: str) -> discord.Embed:
    """A history page: one line per match, newest first."""
    embed = discord.Embed(title=title, colour=HISTORY_COLOUR)
    if not page.matches:
        embed.description = t(lang, "history.empty")
        return within_limits(embed)
    lines = []
    for match in page.matches:
        names = _names(lang, match)
        lines.append(
            t(
                lang,
                "history.line",
                match=match.game_id,
                date=_when(match.ended_at, "d"),
                variant=words.variant_name(lang, match.variant),
                winner=names.get(match.winner_id, "?"),
                players=", ".join(names.values()),
                rounds=match.round_count,
            )
        )
    embed.description = "\n".join(lines)
    embed.set_footer(text=t(lang, "history.footer", page=page.page, pages=page.total_pages))
    return within_limits(embed)


def page_buttons(query: HistoryPageClick, page: HistoryPage) -> discord.ui.View | None:
    """A button per match on the page, then ◀ ▶ when there is more than one page."""
    items: list[discord.ui.Item[Any]] = [
        MatchButton(MatchClick(match.game_id), f"#{match.game_id}", row=n // MATCH_BUTTONS_PER_ROW)
        for n, match in enumerate(page.matches)
    ]
    if page.total_pages > 1:
        back = HistoryPageClick(query.guild_id, query.player_id, page.page - 1)
        forward = HistoryPageClick(query.guild_id, query.player_id, page.page + 1)
        items += [
            HistoryPageButton(back, "◀", disabled=page.page <= 1),
            HistoryPageButton(forward, "▶", disabled=page.page >= page.total_pages),
        ]
    return button_view(items) if items else None


async def history_page(
    bot: UnoBot,
    interaction: Interaction,
    query: HistoryPageClick,
    lang: Lang,
    player_name: str | None = None,
) -> tuple[discord.Embed, discord.ui.View | None]:
    """Read and draw one page of the server's history."""
    async with asyncio.timeout(READ_DEADLINE):
        page = await bot.store.history.page(
            query.guild_id,
            player_id=query.player_id or None,
            page=query.page,
            page_size=PAGE_SIZE,
        )
    guild = interaction.guild
    where = safe_name(guild.name) if guild is not None else t(lang, "board.where.server")
    title = t(lang, "history.title", where=where)
    if query.player_id:
        # The name they had in their latest match; the option's user before they have one.
        kept = next((m.player(query.player_id) for m in page.matches), None)
        shown = _shown(lang, kept.name) if kept is not None else safe_name(player_name or "?")
        title = t(lang, "history.title.player", name=shown, where=where)
    shown_query = HistoryPageClick(query.guild_id, query.player_id, page.page)
    return page_embed(lang, page, title), page_buttons(shown_query, page)


# ---------------------------------------------------------------------- a match


def round_line(lang: Lang, names: dict[int, str], kept: HistoryRound) -> str:
    """A round: who went out, on what card, for how many points."""
    params = {"round": kept.round_no, "name": names.get(kept.winner_id, "?")}
    if kept.ending:
        return t(lang, "history.match.round", card=kept.ending, points=kept.points, **params)
    return t(lang, "history.match.round.no_card", points=kept.points, **params)


def match_message(lang: Lang, match: MatchHistory) -> tuple[discord.Embed, discord.ui.View | None]:
    """A match: when, the final standings and every round, with a replay button per round."""
    names = _names(lang, match)
    title = t(
        lang,
        "history.match.title",
        match=match.game_id,
        variant=words.variant_name(lang, match.variant),
    )
    embed = discord.Embed(title=title, colour=MATCH_COLOUR)
    embed.description = t(
        lang,
        "history.match.when",
        start=_when(match.started_at, "f"),
        end=_when(match.ended_at, "t"),
    )
    standings = sorted(match.players, key=lambda p: p.place)
    add_field(
        embed,
        t(lang, "history.match.standings"),
        "\n".join(f"{p.place}. {names[p.player_id]} — {p.points}" for p in standings),
    )
    add_field(
        embed,
        t(lang, "history.match.rounds"),
        "\n".join(round_line(lang, names, r) for r in match.rounds),
    )
    buttons = [
        ReplayButton(
            ReplayClick(match.game_id, kept.round_no),
            t(lang, "history.match.replay", round=kept.round_no),
            row=n // MATCH_BUTTONS_PER_ROW,
        )
        for n, kept in enumerate(match.rounds[:MOST_ROUND_BUTTONS])
    ]
    return within_limits(embed), (button_view(buttons) if buttons else None)


# ---------------------------------------------------------------------- a replay


@dataclass(frozen=True, slots=True)
class Replayable:
    """What a replay needs of a match: a kept one, or the finished rounds of a live one."""

    game_id: int
    rules_json: str
    rules_version: int
    seed: int
    players: tuple[str, ...]  # engine ids, as dealt
    names: dict[str, str]
    rounds: tuple[str | None, ...]  # each scored round's moves (None: not recorded)

    @classmethod
    def kept(cls, match: MatchHistory) -> Replayable:
        """A match of the history."""
        return cls(
            match.game_id,
            match.rules_json,
            match.rules_version,
            match.seed,
            tuple(p.engine_id for p in sorted(match.players, key=lambda p: p.seat)),
            {p.engine_id: p.name for p in match.players},
            tuple(kept.moves for kept in match.rounds),
        )

    @classmethod
    def live(cls, game_id: int, state: TableState) -> Replayable | None:
        """The rounds a running match has finished, or None without its move log."""
        game, moves = state.game, state.moves
        if game is None or moves is None:
            return None
        return cls(
            game_id,
            game.rules.model_dump_json(),
            RULES_VERSION,
            moves.seed,
            moves.players,
            {s.player_id: s.name for s in state.seats},
            tuple(moves.round_text(n) for n in range(1, len(game.history) + 1)),
        )


@dataclass(slots=True)
class ReplayStep:
    """A replay step as its message shows it; ``ending``, on the round's last step, the table
    whose hands the round-end picture counts."""

    embed: discord.Embed
    view: discord.ui.View
    ending: ReplayTable | None = None


def replay_message(lang: Lang, match: Replayable, round_no: int, step: int) -> ReplayStep:
    """Step ``step`` (clamped to the round) of a round's replay, with ⏮ ◀ ▶ ⏭; Refused when
    the round cannot be replayed faithfully."""
    if not 1 <= round_no <= len(match.rounds):
        raise Refused("replay.no_round", match=match.game_id, round=round_no)
    if match.rules_version != RULES_VERSION:
        raise Refused("replay.old_rules")
    texts = match.rounds[:round_no]
    if any(text is None for text in texts):
        raise Refused("replay.not_recorded")
    try:
        rules = RuleSet.model_validate_json(match.rules_json)
    except ValidationError:
        raise Refused("replay.old_rules") from None
    players = match.players
    names = {
        player: name or t(lang, "history.former_player") for player, name in match.names.items()
    }
    rounds = [text or "" for text in texts]
    try:
        total = sum(1 for _ in replay_round(players, rules, match.seed, rounds, round_no))
        step = min(max(0, step), total - 1)
        log: list[str] = []
        for number, (moved, game) in enumerate(
            replay_round(players, rules, match.seed, rounds, round_no)
        ):
            table = ReplayTable(str(match.game_id), rules, game, names)
            log += narrated(lang, table, moved.events)
            if number == step:
                table.log = log[-REPLAY_LOG_LINES:] or [t(lang, "replay.dealt")]
                embed = replay_embed(lang, table, match.game_id, round_no, step, total)
                ending = table if step == total - 1 else None
                break
    except ReplayError:
        raise Refused("replay.broken") from None
    last = total - 1
    targets = (("⏮", 0, "f"), ("◀", max(0, step - 1), "p"), ("▶", min(last, step + 1), "n"))
    buttons = [
        ReplayButton(
            ReplayClick(match.game_id, round_no, target, nav), label, disabled=target == step
        )
        for label, target, nav in (*targets, ("⏭", last, "l"))
    ]
    return ReplayStep(embed, button_view(buttons), ending)


async def round_end_file(
    bot: UnoBot, interaction: Interaction, lang: Lang, step: ReplayStep
) -> list[discord.File]:
    """On a round's last step, the round-end picture (every hand face up, each card's points)
    as the step's attachment, its embed showing it; none on other steps, with pictures off on
    this server, or when it could not be drawn (the step keeps its text)."""
    table = step.ending
    if table is None:
        return []
    server = bot.servers.peek(interaction.guild_id)
    options = server.table_options(table.rules.variant, {}, bot.settings)
    if not options.pictures:
        return []
    png = await bot.sessions.pictures.round_end_png(
        public_view(table.game),
        table.final_hands(),
        table.name,
        options.palette,
        LastPicture(),
        lang,
    )
    if png is None:
        return []
    step.embed.set_image(url=PICTURE_URL)
    return [picture_file(png)]


async def answer(interaction: Interaction, lang: Lang, work: Coroutine[Any, Any, None]) -> None:
    """Run ``work`` (a coroutine answering the interaction); a refusal or failure becomes one
    short private line."""
    try:
        await work
    except Refused as refused:
        await reply(interaction, t(lang, refused.key, **refused.params))
    except Exception as error:  # every click and command gets an answer
        await reply(interaction, failure_text(lang, error))


# ---------------------------------------------------------------------- the buttons


def _button(
    custom_id: str,
    label: str,
    style: discord.ButtonStyle,
    *,
    disabled: bool = False,
    row: int | None = None,
) -> discord.ui.Button[Any]:
    """The plain button a history DynamicItem wraps."""
    return discord.ui.Button(
        label=label, custom_id=custom_id, style=style, disabled=disabled, row=row
    )


# What a history button does once it knows the bot and the reader's language.
ClickWork = Callable[[UnoBot, Interaction, Lang], Coroutine[Any, Any, None]]


async def _answer_click(interaction: Interaction, work: ClickWork) -> None:
    """A history button's callback: ``work`` in the reader's language, its refusal or failure
    answered with one short private line."""
    bot: UnoBot = interaction.client
    lang = reader_language(bot, interaction)
    await answer(interaction, lang, work(bot, interaction, lang))


class HistoryPageButton(
    KindChecked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=HISTORY_PAGE_ID
):
    """◀ or ▶ on a history page."""

    def __init__(self, click: HistoryPageClick, label: str, disabled: bool = False) -> None:
        style = discord.ButtonStyle.secondary
        super().__init__(_button(click.custom_id, label, style, disabled=disabled, row=2))
        self.click = click

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HistoryPageButton:
        """Rebuild the button from a click on any history page."""
        return cls(HistoryPageClick.from_match(match), label="")

    def answers(self) -> MessageKind:
        """Paging answers on a history page only."""
        return MessageKind.HISTORY

    async def callback(self, interaction: Interaction) -> None:
        """Show the page in place."""
        await _answer_click(interaction, self._show_page)

    async def _show_page(self, bot: UnoBot, interaction: Interaction, lang: Lang) -> None:
        if self.click.guild_id != interaction.guild_id or self.click.page < 1:
            raise Refused("history.other_server")
        embed, view = await history_page(bot, interaction, self.click, lang)
        await interaction.response.edit_message(embed=embed, view=view)


class MatchButton(KindChecked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=MATCH_ID):
    """A match's number on a history page: opens the match."""

    def __init__(self, click: MatchClick, label: str, row: int | None = None) -> None:
        super().__init__(_button(click.custom_id, label, discord.ButtonStyle.primary, row=row))
        self.click = click

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MatchButton:
        """Rebuild the button from a click on any history page."""
        return cls(MatchClick.from_match(match), label="")

    def answers(self) -> MessageKind:
        """A match button answers on a history page only."""
        return MessageKind.HISTORY

    async def callback(self, interaction: Interaction) -> None:
        """Open the match privately."""
        await _answer_click(interaction, self._open_match)

    async def _open_match(self, bot: UnoBot, interaction: Interaction, lang: Lang) -> None:
        match = await _own_match(bot, interaction, self.click.game_id)
        embed, view = match_message(lang, match)
        await interaction.response.send_message(
            embed=embed, view=view or discord.utils.MISSING, ephemeral=True
        )


class ReplayButton(KindChecked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=REPLAY_ID):
    """A round's replay button on a match (opens it), or ⏮ ◀ ▶ ⏭ on a replay (steps)."""

    def __init__(
        self, click: ReplayClick, label: str, *, disabled: bool = False, row: int | None = None
    ) -> None:
        style = discord.ButtonStyle.secondary
        super().__init__(_button(click.custom_id, label, style, disabled=disabled, row=row))
        self.click = click

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayButton:
        """Rebuild the button from a click on a match or a replay."""
        return cls(ReplayClick.from_match(match), "")

    def answers(self) -> MessageKind:
        """An opening button answers on a match, a step on a replay."""
        return MessageKind.MATCH if self.click.opening else MessageKind.REPLAY

    async def callback(self, interaction: Interaction) -> None:
        """Open the replay privately, or show the step in place."""
        await _answer_click(interaction, self._show_step)

    async def _show_step(self, bot: UnoBot, interaction: Interaction, lang: Lang) -> None:
        click = self.click
        match = await _replayable(bot, interaction, click.game_id)
        step = replay_message(lang, match, click.round_no, click.step)
        files = await round_end_file(bot, interaction, lang, step)
        if click.opening:
            await interaction.response.send_message(
                embed=step.embed, view=step.view, files=files, ephemeral=True
            )
        else:
            # The round-end picture on the last step only: a step back drops it.
            await interaction.response.edit_message(
                embed=step.embed, view=step.view, attachments=files
            )


# ---------------------------------------------------------------------- the commands


@app_commands.command(name="history", description="This server's finished matches (only to you)")
@app_commands.describe(
    player="Only this member's matches", match="Show one match (its number, as #12 in the list)"
)
async def history_command(
    interaction: Interaction,
    player: discord.User | None = None,
    match: app_commands.Range[int, 1, 10**15] | None = None,
) -> None:
    """Show a page of the server's history, newest first, or one match."""
    bot: UnoBot = interaction.client
    lang = reader_language(bot, interaction)

    async def work() -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            raise Refused("history.no_server")
        if match is not None:
            embed, view = match_message(lang, await _own_match(bot, interaction, match))
        else:
            query = HistoryPageClick(guild_id, player.id if player is not None else 0, 1)
            name = player.display_name if player is not None else None
            embed, view = await history_page(bot, interaction, query, lang, name)
        await interaction.response.send_message(
            embed=embed, view=view or discord.utils.MISSING, ephemeral=True
        )

    await answer(interaction, lang, work())


@app_commands.command(name="replay", description="Replay a round of a finished match (only to you)")
@app_commands.describe(
    match="The match's number (see /uno history)", round="The round to replay (default: the first)"
)
async def replay_command(
    interaction: Interaction,
    match: app_commands.Range[int, 1, 10**15],
    round: app_commands.Range[int, 1, 9999] = 1,
) -> None:
    """Show the first step of a round's replay, privately."""
    bot: UnoBot = interaction.client
    lang = reader_language(bot, interaction)

    async def work() -> None:
        if interaction.guild_id is None:
            raise Refused("history.no_server")
        replayable = await _replayable(bot, interaction, match)
        step = replay_message(lang, replayable, round, 0)
        files = await round_end_file(bot, interaction, lang, step)
        await interaction.response.send_message(
            embed=step.embed, view=step.view, files=files, ephemeral=True
        )

    await answer(interaction, lang, work())


class HistoryCog(commands.Cog):
    """/uno history and /uno replay, added to the /uno group."""

    def __init__(self, bot: UnoBot) -> None:
        self.bot = bot

    def _group(self) -> app_commands.Group:
        group = self.bot.tree.get_command("uno")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("the /uno group must load before the history")
        return group

    async def cog_load(self) -> None:
        """Add the commands to /uno and register the buttons (old messages keep working)."""
        group = self._group()
        group.add_command(history_command)
        group.add_command(replay_command)
        self.bot.add_dynamic_items(HistoryPageButton, MatchButton, ReplayButton)

    async def cog_unload(self) -> None:
        """Take the commands and buttons away again (the commands went already if the /uno
        group was unloaded first, as it is when the bot closes)."""
        group = self.bot.tree.get_command("uno")
        if isinstance(group, app_commands.Group):
            group.remove_command("history")
            group.remove_command("replay")
        self.bot.remove_dynamic_items(HistoryPageButton, MatchButton, ReplayButton)


async def setup(bot: UnoBot) -> None:
    """Extension entry point."""
    await bot.add_cog(HistoryCog(bot))
