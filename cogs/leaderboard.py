"""/leaderboard and /stats: the standings the store keeps, with restart-safe page buttons."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import re
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import UnoBot, UnoInteraction
from bot.engine.variants import VARIANTS
from bot.store import LeaderboardPage, LeaderboardRow, PlayerStats, StoreBusyError
from bot.store.models import Scope, SortKey, VariantFilter
from bot.store.repositories.standings import BoardKey, board_key
from bot.ui import words
from bot.ui.i18n import Lang, format_number, t, tn, variant_choices
from bot.ui.kinds import LEADERBOARD_COLOUR, KindChecked, MessageKind
from bot.ui.render import within_limits
from bot.ui.respond import (
    ISOLATE_MARKS,
    Interaction,
    button_view,
    plain_name,
    reply,
    safe_name,
)

log = logging.getLogger(__name__)

PAGE_SIZE = 10
# Under Discord's 3 s answer window: a read still waiting on a busy database gets a polite
# "try again" instead of an expired interaction.
READ_DEADLINE = 2.5
NAME_WIDTH = 14  # keeps a row within about 42 characters, for phones
# No board has this many pages; a larger number in a page button's id is forged.
MAX_PAGE = 1_000_000

ScopeChoice = Literal["server", "global"]

# Every leaderboard's variant: each registered variant's own, and all of them together.
ALL_VARIANTS: VariantFilter = "all"
BOARD_VARIANTS: tuple[VariantFilter, ...] = (*VARIANTS, ALL_VARIANTS)
VARIANT_CHOICES = [*variant_choices(), app_commands.Choice(name="all", value=ALL_VARIANTS)]

# One letter per option value in the page buttons' custom_id; a variant is named by its key.
SCOPE_CODES: dict[Scope, str] = {"guild": "s", "global": "g"}
# Page buttons posted before every variant had a board named these by one letter; they
# still page.
LEGACY_VARIANT_CODES: dict[str, VariantFilter] = {"f": "flip", "c": "classic", "a": "all"}
VARIANT_PATTERN = "|".join(re.escape(code) for code in (*BOARD_VARIANTS, *LEGACY_VARIANT_CODES))
SORT_CODES: dict[SortKey, str] = {"points": "p", "matches_won": "m", "rounds_won": "r"}

# A page button names the row it pages from (its sort value, player id and rank) so the store
# reads the page by keyset. A modified client could send any key, and the key's rank would
# then be shown on a public message: the key is signed, and a key whose signature does not
# match gets a private refusal. The secret derives from the bot token, so the buttons of
# boards posted before a restart keep paging.
KEY_PATTERN = (
    r"(?::(?P<side>[ab])(?P<value>-?\d{1,12})\.(?P<player>\d{1,20})\.(?P<rank>\d{1,9})"
    r":(?P<signature>[A-Za-z0-9_-]{12}))?"
)
SIGNATURE_LENGTH = 12  # base64 characters: 72 bits
MAX_CUSTOM_ID = 100


def page_key_secret(bot: UnoBot) -> bytes:
    """The secret that signs page keys: derived from the bot token (never the token)."""
    token = bot.settings.discord_token.get_secret_value().encode()
    return hmac.new(token, b"unoflip leaderboard page keys", hashlib.sha256).digest()


def sign(secret: bytes, unsigned_id: str) -> str:
    """The signature of a page button's id (everything before it)."""
    digest = hmac.new(secret, unsigned_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:SIGNATURE_LENGTH]


# The choices' English names (the catalogs' ``choice.*`` say them in other languages).
SORT_NAMES: dict[SortKey, str] = {
    "points": "points",
    "matches_won": "matches won",
    "rounds_won": "rounds won",
}
SORT_KEYS: dict[str, SortKey] = {key: key for key in SORT_NAMES}
SORT_CHOICES = [app_commands.Choice(name=name, value=key) for key, name in SORT_NAMES.items()]


def default_sort(variant: VariantFilter) -> SortKey:
    """A board's sort when none is chosen: points, or matches won for a variant that keeps
    no points (UNO Junior), where every player's points are 0."""
    entry = VARIANTS.get(variant)
    return "matches_won" if entry is not None and not entry.scored else "points"


def _decode(codes: dict[Any, str], letter: str) -> Any:
    return next(value for value, code in codes.items() if code == letter)


def option_refusal(lang: Lang, **chosen: str | None) -> str | None:
    """Why a chosen option is not one the command offers (a modified client can send any
    string), in ``lang``, or None when every one is."""
    allowed = {
        "scope": get_args(ScopeChoice),
        "variant": BOARD_VARIANTS,
        "sort": tuple(SORT_KEYS),
    }
    for option, value in chosen.items():
        if value is not None and value not in allowed[option]:
            return t(lang, "options.one_of", option=option, allowed=", ".join(allowed[option]))
    return None


def server_language(bot: UnoBot, interaction: UnoInteraction) -> Lang:
    """The language of a public standings message: the server's."""
    return bot.sessions.server_language(interaction)


def reader_language(bot: UnoBot, interaction: UnoInteraction) -> Lang:
    """The language of a private answer: the bot's one rule (``SessionManager.reader``)."""
    return bot.sessions.reader(interaction)


@dataclass(frozen=True)
class BoardQuery:
    """Which leaderboard page to show; round-trips through a page button's custom_id.

    ``after`` (the last row of the page before) or ``before`` (the first row of the page
    after) reads the page by keyset; a button from before keys were signed has neither.
    """

    scope: Scope
    variant: VariantFilter
    sort: SortKey
    page: int
    guild_id: int  # the server the board belongs to; 0 for the global board
    after: BoardKey | None = None
    before: BoardKey | None = None

    def custom_id(self, secret: bytes) -> str:
        """The custom_id of a button that shows this page, its key signed with ``secret``."""
        unsigned = (
            f"lb:{SCOPE_CODES[self.scope]}:{self.variant}"
            f":{SORT_CODES[self.sort]}:{self.page}:{self.guild_id}"
        )
        side, key = ("a", self.after) if self.after is not None else ("b", self.before)
        if key is None:
            return unsigned
        keyed = f"{unsigned}:{side}{key.value}.{key.player_id}.{key.rank}"
        signed = f"{keyed}:{sign(secret, keyed)}"
        # Discord takes 100 characters; a longer id (huge ids and values) pages by number.
        return signed if len(signed) <= MAX_CUSTOM_ID else unsigned

    @classmethod
    def from_match(cls, match: re.Match[str], secret: bytes = b"") -> BoardQuery | None:
        """The query a page button's custom_id describes; None if its key's signature does
        not match (a forged key, or one signed with another token)."""
        query = cls(
            scope=_decode(SCOPE_CODES, match["scope"]),
            variant=LEGACY_VARIANT_CODES.get(match["variant"], match["variant"]),
            sort=_decode(SORT_CODES, match["sort"]),
            page=int(match["page"]),
            guild_id=int(match["guild"]),
        )
        if match["side"] is None:
            return query
        unsigned = match[0][: -SIGNATURE_LENGTH - 1]
        if not hmac.compare_digest(sign(secret, unsigned), match["signature"]):
            return None
        key = BoardKey(int(match["value"]), int(match["player"]), int(match["rank"]))
        return replace(query, after=key) if match["side"] == "a" else replace(query, before=key)


class LeaderboardButton(
    KindChecked,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        rf"lb:(?P<scope>[gs]):(?P<variant>{VARIANT_PATTERN}):(?P<sort>[pmr])"
        rf":(?P<page>\d+):(?P<guild>\d+){KEY_PATTERN}"
    ),
):
    """◀ or ▶ on a leaderboard: anyone may page, also on messages from before a restart.

    ``query`` is None for a button whose key's signature does not match.
    """

    def __init__(
        self,
        query: BoardQuery | None,
        label: str,
        secret: bytes,
        disabled: bool = False,
        clicked_id: str = "",
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                # A clicked button keeps the id it came with (a forged key has no query).
                custom_id=clicked_id or (query.custom_id(secret) if query else ""),
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
            )
        )
        self.query = query

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LeaderboardButton:
        """Rebuild the button from a click on any leaderboard message."""
        secret = page_key_secret(interaction.client)
        query = BoardQuery.from_match(match, secret)
        return cls(query, label="", secret=secret, clicked_id=match[0])

    def answers(self) -> MessageKind:
        """A page button answers on a leaderboard only."""
        return MessageKind.LEADERBOARD

    async def callback(self, interaction: Interaction) -> None:
        """Show the button's page in place, with the clicker's own rank under the table."""
        bot: UnoBot = interaction.client
        query = self.query
        lang = reader_language(bot, interaction)
        if query is None or not 1 <= query.page <= MAX_PAGE:
            await reply(interaction, t(lang, "board.no_page"))
            return
        if query.scope == "guild" and query.guild_id != interaction.guild_id:
            await reply(interaction, t(lang, "board.other_server"))
            return
        try:
            embed, view = await board_message(bot, interaction, query)
        except Exception as error:  # every click gets an answer; the message stays as it was
            await reply(interaction, failure_text(lang, error))
            return
        await interaction.response.edit_message(embed=embed, view=view)


def failure_text(lang: Lang, error: BaseException) -> str:
    """The short line a user sees when a command or click fails (the cause is logged)."""
    original = getattr(error, "original", error)
    if isinstance(original, StoreBusyError | TimeoutError):
        log.warning("standings read gave up: %r", original)
        return t(lang, "board.busy")
    log.error("standings command failed", exc_info=error)
    return t(lang, "board.failed")


def board_table(rows: list[LeaderboardRow], viewer_id: int, lang: Lang) -> str:
    """The page as a monospace table; the viewer's own line is marked with ▸."""
    player, points, mw, rw, gp = (
        t(lang, f"board.col.{column}")
        for column in ("player", "points", "matches_won", "rounds_won", "games_played")
    )
    lines = [f"  {'#':>3}  {player:<{NAME_WIDTH}} {points:>6} {mw:>3} {rw:>4} {gp:>4}"]
    for row in rows:
        name = plain_name(row.name.replace("`", "'"), NAME_WIDTH)
        # An isolated name's two isolate marks take no room in the column.
        width = NAME_WIDTH + len(name) - len(name.strip(ISOLATE_MARKS))
        mark = "▸" if row.player_id == viewer_id else " "
        lines.append(
            f"{mark} {row.rank:>3}  {name:<{width}} {row.points:>6} {row.matches_won:>3}"
            f" {row.rounds_won:>4} {row.games_played:>4}"
        )
    return "```\n" + "\n".join(lines) + "\n```"


def own_rank_line(
    board: LeaderboardPage, mine: LeaderboardRow | None, viewer: discord.abc.User, lang: Lang
) -> str:
    """Where the viewer stands on the whole board, whatever page is shown."""
    name = safe_name(viewer.display_name)
    if mine is None:
        return words.rank_line(lang, name, None, board.total_players, board.sort, 0)
    value = getattr(mine, board.sort)
    return words.rank_line(lang, name, mine.rank, board.total_players, board.sort, value)


def board_embed(
    board: LeaderboardPage,
    mine: LeaderboardRow | None,
    viewer: discord.abc.User,
    where: str,
    lang: Lang,
) -> discord.Embed:
    """The public leaderboard embed: title, table, the viewer's rank line, page footer."""
    title = words.board_title(lang, where, board.variant)
    embed = discord.Embed(title=title, colour=LEADERBOARD_COLOUR)
    if not board.rows:
        embed.description = words.board_empty(lang, board.scope == "guild", board.variant)
        return within_limits(embed)
    unscored = board.variant in VARIANTS and not VARIANTS[board.variant].scored
    shown = words.variant_name(lang, board.variant)
    note = [t(lang, "board.unscored", variant=shown)] if unscored else []
    embed.description = "\n".join(
        [
            *note,
            t(lang, "board.sorted_by", sort=t(lang, f"board.sort.{board.sort}")),
            board_table(board.rows, viewer.id, lang),
            own_rank_line(board, mine, viewer, lang),
        ]
    )
    footer = words.board_footer(lang, board.page, board.total_pages, board.total_players)
    embed.set_footer(text=footer)
    return within_limits(embed)


def board_view(query: BoardQuery, board: LeaderboardPage, secret: bytes) -> discord.ui.View | None:
    """◀ ▶ buttons for a board of more than one page (none otherwise), each keyed by the
    shown page's first or last row so the next page is read by keyset."""
    if board.total_pages <= 1 or not board.rows:
        return None
    page = replace(query, page=board.page, after=None, before=None)
    back = replace(page, page=board.page - 1, before=board_key(board.rows[0], board.sort))
    forward = replace(page, page=board.page + 1, after=board_key(board.rows[-1], board.sort))
    return button_view(
        [
            LeaderboardButton(back, "◀", secret, disabled=board.page <= 1),
            LeaderboardButton(forward, "▶", secret, disabled=board.page >= board.total_pages),
        ]
    )


async def board_message(
    bot: UnoBot, interaction: UnoInteraction, query: BoardQuery
) -> tuple[discord.Embed, discord.ui.View | None]:
    """Read the page and the viewer's rank (within the deadline) and render both."""
    guild_id = query.guild_id if query.scope == "guild" else None
    standings = bot.store.standings
    async with asyncio.timeout(READ_DEADLINE):
        board = await standings.leaderboard(
            scope=query.scope,
            guild_id=guild_id,
            variant=query.variant,
            sort=query.sort,
            page=query.page,
            page_size=PAGE_SIZE,
            after=query.after,
            before=query.before,
        )
        mine = await standings.rank_of(
            interaction.user.id,
            scope=query.scope,
            guild_id=guild_id,
            variant=query.variant,
            sort=query.sort,
        )
    lang = server_language(bot, interaction)
    if query.scope == "global":
        where = t(lang, "board.where.global")
    else:
        guild = bot.get_guild(query.guild_id)
        where = safe_name(guild.name) if guild is not None else t(lang, "board.where.server")
    view = board_view(query, board, page_key_secret(bot))
    return board_embed(board, mine, interaction.user, where, lang), view


def stats_embed(
    stats: PlayerStats,
    user: discord.abc.User,
    rank: LeaderboardRow | None,
    where: str,
    lang: Lang,
) -> discord.Embed:
    """A player's record: games, wins, points, per-round average, best round, favourite."""
    title = f"📊 {safe_name(user.display_name)} · {safe_name(where)}"
    embed = discord.Embed(title=title, colour=discord.Colour.blue())
    embed.set_thumbnail(url=user.display_avatar.url)
    won = format_number(lang, stats.rounds_won)
    if stats.rounds_played:
        won = t(lang, "stats.rounds_won.of", won=stats.rounds_won, played=stats.rounds_played)
    favourite = words.variant_name(lang, stats.favourite_variant or "") or "—"
    for key, value in (
        ("stats.games_played", format_number(lang, stats.games_played)),
        ("stats.matches_won", format_number(lang, stats.matches_won)),
        ("stats.rounds_won", won),
        ("stats.total_points", format_number(lang, stats.total_points)),
        ("stats.points_per_round", format_number(lang, stats.points_per_round, decimals=1)),
        ("stats.best_round", tn(lang, "board.unit.points", stats.best_round)),
        ("stats.favourite", favourite),
        ("stats.rank", f"#{rank.rank}" if rank is not None else "—"),
    ):
        embed.add_field(name=t(lang, key), value=value, inline=True)
    return within_limits(embed)


class LeaderboardCog(commands.Cog):
    """/leaderboard and /stats."""

    def __init__(self, bot: UnoBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Register the page buttons, so old leaderboards keep paging after a restart."""
        self.bot.add_dynamic_items(LeaderboardButton)

    async def cog_unload(self) -> None:
        """Stop routing the page buttons here."""
        self.bot.remove_dynamic_items(LeaderboardButton)

    @app_commands.command(name="leaderboard", description="Top UNO players, 10 per page")
    @app_commands.guild_only()
    @app_commands.describe(
        scope="This server (default) or every server",
        variant="One variant, or all of them (default)",
        sort="What to rank by (default: points, or matches won where no points are kept)",
    )
    @app_commands.choices(variant=VARIANT_CHOICES, sort=SORT_CHOICES)
    async def leaderboard(
        self,
        interaction: UnoInteraction,
        scope: ScopeChoice = "server",
        variant: str = ALL_VARIANTS,
        sort: str | None = None,
    ) -> None:
        """Post the first page publicly, with the caller's own rank under the table."""
        lang = reader_language(self.bot, interaction)
        refusal = option_refusal(lang, scope=scope, variant=variant, sort=sort)
        if refusal is not None:
            await reply(interaction, refusal)
            return
        guild_id = interaction.guild_id if scope == "server" else 0
        if guild_id is None:
            await reply(interaction, t(lang, "board.no_server"))
            return
        query = BoardQuery(
            scope="guild" if guild_id else "global",
            variant=variant,
            sort=default_sort(variant) if sort is None else SORT_KEYS[sort],
            page=1,
            guild_id=guild_id,
        )
        embed, view = await board_message(self.bot, interaction, query)
        await interaction.response.send_message(embed=embed, view=view or discord.utils.MISSING)

    @app_commands.command(name="stats", description="A player's UNO record (only you see it)")
    @app_commands.guild_only()
    @app_commands.describe(
        user="Whose stats (default: yours)",
        scope="This server (default) or every server",
        public="Post them in the channel instead of only to you",
    )
    async def stats(
        self,
        interaction: UnoInteraction,
        user: discord.User | None = None,
        scope: ScopeChoice = "server",
        public: bool = False,
    ) -> None:
        """Show games, wins, points, points per round, best round and favourite variant."""
        # Shown only to the caller: their language; posted in the channel: the server's.
        lang = (server_language if public else reader_language)(self.bot, interaction)
        refusal = option_refusal(lang, scope=scope)
        if refusal is not None:
            await reply(interaction, refusal)
            return
        target = user or interaction.user
        guild_id = interaction.guild_id if scope == "server" else None
        where = t(lang, "stats.where.all")
        if guild_id is not None:
            guild = interaction.guild
            where = guild.name if guild is not None else t(lang, "stats.where.server")
        yours = target.id == interaction.user.id
        if target.bot:
            name = safe_name(target.display_name)
            await reply(interaction, t(lang, "stats.bot", name=name))
            return
        async with asyncio.timeout(READ_DEADLINE):
            stats = await self.bot.store.standings.stats(target.id, guild_id)
            rank = await self.bot.store.standings.rank_of(
                target.id, scope="global" if guild_id is None else "guild", guild_id=guild_id
            )
        ephemeral = not public
        if stats.rounds_played == 0:
            name = safe_name(target.display_name)
            text = words.no_stats_text(lang, yours, name, guild_id is not None)
            await interaction.response.send_message(text, ephemeral=ephemeral)
            return
        await interaction.response.send_message(
            embed=stats_embed(stats, target, rank, where, lang), ephemeral=ephemeral
        )

    async def cog_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Answer every failed command with a short ephemeral line and log the cause."""
        await reply(interaction, failure_text(reader_language(self.bot, interaction), error))


async def setup(bot: UnoBot) -> None:
    """Extension entry point."""
    await bot.add_cog(LeaderboardCog(bot))
