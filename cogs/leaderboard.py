"""/leaderboard and /stats: the standings the store keeps, with restart-safe page buttons."""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import UnoBot
from bot.store import LeaderboardPage, LeaderboardRow, PlayerStats, StoreBusyError
from bot.store.models import Scope, SortKey, VariantFilter
from bot.ui.respond import Interaction, button_view, reply, safe_name

log = logging.getLogger(__name__)

PAGE_SIZE = 10
# Under Discord's 3 s answer window: a read still waiting on a busy database gets a polite
# "try again" instead of an expired interaction.
READ_DEADLINE = 2.5
NAME_WIDTH = 14  # keeps a row within about 42 characters, for phones
BUSY_TEXT = "The scoreboard is busy right now; please try again in a moment."
FAILED_TEXT = "Sorry, the standings could not be shown; please try again."
START_HINT = "Start a game with `/uno flip start` or `/uno classic start`."
# No board has this many pages; a larger number in a page button's id is forged.
MAX_PAGE = 1_000_000
OTHER_SERVER_TEXT = "That leaderboard belongs to another server; use /leaderboard in this server."

ScopeChoice = Literal["server", "global"]
VariantChoice = Literal["flip", "classic", "all"]

# One letter per option value in the page buttons' custom_id.
SCOPE_CODES: dict[Scope, str] = {"guild": "s", "global": "g"}
VARIANT_CODES: dict[VariantFilter, str] = {"flip": "f", "classic": "c", "all": "a"}
SORT_CODES: dict[SortKey, str] = {"points": "p", "matches_won": "m", "rounds_won": "r"}

VARIANT_NAMES: dict[VariantFilter, str] = {"flip": "UNO Flip", "classic": "Classic UNO", "all": ""}
SORT_NAMES: dict[SortKey, str] = {
    "points": "points",
    "matches_won": "matches won",
    "rounds_won": "rounds won",
}
SORT_UNITS: dict[SortKey, str] = {
    "points": "point",
    "matches_won": "match won",
    "rounds_won": "round won",
}
SORT_KEYS: dict[str, SortKey] = {key: key for key in SORT_NAMES}
SORT_CHOICES = [app_commands.Choice(name=name, value=key) for key, name in SORT_NAMES.items()]


def _decode(codes: dict[Any, str], letter: str) -> Any:
    return next(value for value, code in codes.items() if code == letter)


def option_refusal(**chosen: str) -> str | None:
    """Why a chosen option is not one the command offers (a modified client can send any
    string), or None when every one is."""
    allowed = {
        "scope": get_args(ScopeChoice),
        "variant": tuple(VARIANT_CODES),
        "sort": tuple(SORT_KEYS),
    }
    for option, value in chosen.items():
        if value not in allowed[option]:
            return f"`{option}` must be one of: {', '.join(allowed[option])}."
    return None


def plural(count: int, noun: str) -> str:
    """``count`` and a singular noun, plural unless the count is one ("1 point", "3 rounds won")."""
    head, _, tail = noun.partition(" ")
    word = head if count == 1 else f"{head}es" if head.endswith("ch") else f"{head}s"
    return f"{count:,} {word}{' ' + tail if tail else ''}"


@dataclass(frozen=True)
class BoardQuery:
    """Which leaderboard page to show; round-trips through a page button's custom_id."""

    scope: Scope
    variant: VariantFilter
    sort: SortKey
    page: int
    guild_id: int  # the server the board belongs to; 0 for the global board

    def custom_id(self, page: int) -> str:
        """The custom_id of a button that shows ``page`` of this board."""
        return (
            f"lb:{SCOPE_CODES[self.scope]}:{VARIANT_CODES[self.variant]}"
            f":{SORT_CODES[self.sort]}:{page}:{self.guild_id}"
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> BoardQuery:
        """The query a page button's custom_id describes."""
        return cls(
            scope=_decode(SCOPE_CODES, match["scope"]),
            variant=_decode(VARIANT_CODES, match["variant"]),
            sort=_decode(SORT_CODES, match["sort"]),
            page=int(match["page"]),
            guild_id=int(match["guild"]),
        )


class LeaderboardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lb:(?P<scope>[gs]):(?P<variant>[fca]):(?P<sort>[pmr]):(?P<page>\d+):(?P<guild>\d+)",
):
    """◀ or ▶ on a leaderboard: anyone may page, also on messages from before a restart."""

    def __init__(self, query: BoardQuery, label: str, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                custom_id=query.custom_id(query.page),
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
        return cls(BoardQuery.from_match(match), label="")

    async def callback(self, interaction: Interaction) -> None:
        """Show the button's page in place, with the clicker's own rank under the table."""
        bot: UnoBot = interaction.client
        query = self.query
        if query.scope == "guild" and query.guild_id != interaction.guild_id:
            await reply(interaction, OTHER_SERVER_TEXT)
            return
        if not 1 <= query.page <= MAX_PAGE:
            await reply(interaction, "That page does not exist; run /leaderboard again.")
            return
        try:
            embed, view = await board_message(bot, interaction, query)
        except Exception as error:  # every click gets an answer; the message stays as it was
            await reply(interaction, failure_text(error))
            return
        await interaction.response.edit_message(embed=embed, view=view)


def failure_text(error: BaseException) -> str:
    """The short line a user sees when a command or click fails (the cause is logged)."""
    original = getattr(error, "original", error)
    if isinstance(original, StoreBusyError | TimeoutError):
        log.warning("standings read gave up: %r", original)
        return BUSY_TEXT
    log.error("standings command failed", exc_info=error)
    return FAILED_TEXT


def board_table(rows: list[LeaderboardRow], viewer_id: int) -> str:
    """The page as a monospace table; the viewer's own line is marked with ▸."""
    lines = [f"  {'#':>3}  {'Player':<{NAME_WIDTH}} {'Pts':>6} {'MW':>3} {'RW':>4} {'GP':>4}"]
    for row in rows:
        name = row.name.replace("`", "'")
        if len(name) > NAME_WIDTH:
            name = name[: NAME_WIDTH - 1] + "…"
        mark = "▸" if row.player_id == viewer_id else " "
        lines.append(
            f"{mark} {row.rank:>3}  {name:<{NAME_WIDTH}} {row.points:>6} {row.matches_won:>3}"
            f" {row.rounds_won:>4} {row.games_played:>4}"
        )
    return "```\n" + "\n".join(lines) + "\n```"


def own_rank_line(
    board: LeaderboardPage, mine: LeaderboardRow | None, viewer: discord.abc.User
) -> str:
    """Where the viewer stands on the whole board, whatever page is shown."""
    name = safe_name(viewer.display_name)
    if mine is None:
        return f"📍 {name} has no scored rounds on this board yet."
    value = getattr(mine, board.sort)
    return (
        f"📍 {name} is **#{mine.rank}** of {board.total_players:,}"
        f" with {plural(value, SORT_UNITS[board.sort])}."
    )


def board_embed(
    board: LeaderboardPage,
    mine: LeaderboardRow | None,
    viewer: discord.abc.User,
    where: str,
) -> discord.Embed:
    """The public leaderboard embed: title, table, the viewer's rank line, page footer."""
    variant = VARIANT_NAMES[board.variant]
    title = f"🏆 {where} leaderboard" + (f" · {variant}" if variant else "")
    embed = discord.Embed(title=title, colour=discord.Colour.gold())
    if not board.rows:
        games = f"{variant} rounds" if variant else "rounds"
        here = "on this server" if board.scope == "guild" else "anywhere"
        embed.description = f"No {games} have been scored {here} yet. {START_HINT}"
        return embed
    embed.description = "\n".join(
        [
            f"Sorted by **{SORT_NAMES[board.sort]}**",
            board_table(board.rows, viewer.id),
            own_rank_line(board, mine, viewer),
        ]
    )
    embed.set_footer(
        text=f"Page {board.page}/{board.total_pages} · {plural(board.total_players, 'player')}"
        " · Pts points, MW matches won, RW rounds won, GP games played"
    )
    return embed


def board_view(query: BoardQuery, board: LeaderboardPage) -> discord.ui.View | None:
    """◀ ▶ buttons for a board of more than one page (none otherwise)."""
    if board.total_pages <= 1:
        return None
    back = replace(query, page=board.page - 1)
    forward = replace(query, page=board.page + 1)
    return button_view(
        [
            LeaderboardButton(back, "◀", disabled=board.page <= 1),
            LeaderboardButton(forward, "▶", disabled=board.page >= board.total_pages),
        ]
    )


async def board_message(
    bot: UnoBot, interaction: Interaction, query: BoardQuery
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
        )
        mine = await standings.rank_of(
            interaction.user.id,
            scope=query.scope,
            guild_id=guild_id,
            variant=query.variant,
            sort=query.sort,
        )
    if query.scope == "global":
        where = "Global"
    else:
        guild = bot.get_guild(query.guild_id)
        where = safe_name(guild.name) if guild is not None else "Server"
    shown = replace(query, page=board.page)  # the store clamps past-the-end pages
    return board_embed(board, mine, interaction.user, where), board_view(shown, board)


def stats_embed(
    stats: PlayerStats, user: discord.abc.User, rank: LeaderboardRow | None, where: str
) -> discord.Embed:
    """A player's record: games, wins, points, per-round average, best round, favourite."""
    title = f"📊 {safe_name(user.display_name)} · {safe_name(where)}"
    embed = discord.Embed(title=title, colour=discord.Colour.blue())
    embed.set_thumbnail(url=user.display_avatar.url)
    won_share = f" of {stats.rounds_played:,}" if stats.rounds_played else ""
    favourite = VARIANT_NAMES[stats.favourite_variant] if stats.favourite_variant else "—"
    for name, value in (
        ("Games played", f"{stats.games_played:,}"),
        ("Matches won", f"{stats.matches_won:,}"),
        ("Rounds won", f"{stats.rounds_won:,}{won_share}"),
        ("Total points", f"{stats.total_points:,}"),
        ("Points per round", f"{stats.points_per_round:,.1f}"),
        ("Best round", plural(stats.best_round, "point")),
        ("Favourite variant", favourite),
        ("Rank by points", f"#{rank.rank}" if rank is not None else "—"),
    ):
        embed.add_field(name=name, value=value, inline=True)
    return embed


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
    @app_commands.describe(
        scope="This server (default) or every server",
        variant="UNO Flip, classic UNO or both (default)",
        sort="What to rank by (default: points)",
    )
    @app_commands.choices(sort=SORT_CHOICES)
    async def leaderboard(
        self,
        interaction: Interaction,
        scope: ScopeChoice = "server",
        variant: VariantChoice = "all",
        sort: str = "points",
    ) -> None:
        """Post the first page publicly, with the caller's own rank under the table."""
        refusal = option_refusal(scope=scope, variant=variant, sort=sort)
        if refusal is not None:
            await reply(interaction, refusal)
            return
        guild_id = interaction.guild_id if scope == "server" else 0
        if guild_id is None:
            await reply(interaction, "There is no server here; use `scope: global`.")
            return
        query = BoardQuery(
            scope="guild" if guild_id else "global",
            variant=variant,
            sort=SORT_KEYS[sort],
            page=1,
            guild_id=guild_id,
        )
        embed, view = await board_message(self.bot, interaction, query)
        await interaction.response.send_message(embed=embed, view=view or discord.utils.MISSING)

    @app_commands.command(name="stats", description="A player's UNO record (only you see it)")
    @app_commands.describe(
        user="Whose stats (default: yours)",
        scope="This server (default) or every server",
        public="Post them in the channel instead of only to you",
    )
    async def stats(
        self,
        interaction: Interaction,
        user: discord.User | None = None,
        scope: ScopeChoice = "server",
        public: bool = False,
    ) -> None:
        """Show games, wins, points, points per round, best round and favourite variant."""
        refusal = option_refusal(scope=scope)
        if refusal is not None:
            await reply(interaction, refusal)
            return
        target = user or interaction.user
        guild_id = interaction.guild_id if scope == "server" else None
        where = "All servers"
        if guild_id is not None:
            where = interaction.guild.name if interaction.guild is not None else "This server"
        yours = target.id == interaction.user.id
        if target.bot:
            name = safe_name(target.display_name)
            await reply(interaction, f"{name} is a bot; bots don't keep score.")
            return
        async with asyncio.timeout(READ_DEADLINE):
            stats = await self.bot.store.standings.stats(target.id, guild_id)
            rank = await self.bot.store.standings.rank_of(
                target.id, scope="global" if guild_id is None else "guild", guild_id=guild_id
            )
        ephemeral = not public
        if stats.rounds_played == 0:
            who = "You haven't" if yours else f"{safe_name(target.display_name)} hasn't"
            here = "on this server" if guild_id is not None else "anywhere"
            text = f"{who} finished a round {here} yet. {START_HINT}"
            await interaction.response.send_message(text, ephemeral=ephemeral)
            return
        await interaction.response.send_message(
            embed=stats_embed(stats, target, rank, where), ephemeral=ephemeral
        )

    async def cog_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Answer every failed command with a short ephemeral line and log the cause."""
        await reply(interaction, failure_text(error))


async def setup(bot: UnoBot) -> None:
    """Extension entry point."""
    await bot.add_cog(LeaderboardCog(bot))
