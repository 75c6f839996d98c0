"""Leaderboards and player stats, read from the player_totals aggregate table."""

from __future__ import annotations

import asyncio
import logging
import time
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import NamedTuple

from bot.engine.variants import VARIANTS

from ..backend import Backend, Connection, Row
from ..models import (
    LeaderboardPage,
    LeaderboardRow,
    PlayerStats,
    Scope,
    SortKey,
    VariantFilter,
    is_computer,
)
from ._sql import GLOBAL_SCOPE, fetch_all, fetch_one, from_row
from .history import FORGET_SQL as HISTORY_FORGET_SQL

# Whitelisted column names: the sort key is interpolated into SQL.
_SORT_COLUMNS: dict[SortKey, str] = {
    "points": "points",
    "matches_won": "matches_won",
    "rounds_won": "rounds_won",
}

# The totals a player's stats read: each variant's, and "all" of them together.
_TOTALS_VARIANTS = (*VARIANTS, "all")
_TOTALS_MARKS = ", ".join("?" for _ in _TOTALS_VARIANTS)

_ROW_COLUMNS = (
    "t.player_id, p.display_name AS name, t.points, t.matches_won, t.rounds_won, t.games_played"
)


# A page's keys come from the covering sort index (player id and sort value only), and only
# the page's rows are then joined to their totals and names. {keys} picks the page's keys:
# by OFFSET into the board (a page by number), or by keyset from a row of the page next to it.
_PAGE_SQL = """
SELECT {row_columns}
FROM ({keys}) AS page
JOIN player_totals AS t
    ON t.scope = :scope AND t.variant = :variant AND t.player_id = page.player_id
JOIN players AS p ON p.id = t.player_id
ORDER BY t.{column} DESC, t.player_id
"""
_BY_OFFSET = """
SELECT player_id, {column} AS sort_value FROM player_totals
WHERE scope = :scope AND variant = :variant
ORDER BY {column} DESC, player_id LIMIT :size OFFSET :skip
"""
# A keyset page is two index seeks, each reading at most a page: the rest of the key's ties
# (same value, ids beyond the key's), then the values beyond it. However many players tie
# on the key's value (thousands share a low matches_won), neither reads them all.
_BY_KEY = """
SELECT player_id, sort_value FROM (
    SELECT * FROM (
        SELECT player_id, {column} AS sort_value FROM player_totals
        WHERE scope = :scope AND variant = :variant AND {column} = :value
            AND player_id {beyond} :player
        ORDER BY player_id {ids} LIMIT :size
    ) AS tied
    UNION ALL
    SELECT * FROM (
        SELECT player_id, {column} AS sort_value FROM player_totals
        WHERE scope = :scope AND variant = :variant AND {column} {past} :value
        ORDER BY {column} {values}, player_id {ids} LIMIT :size
    ) AS past
) AS both_sides
ORDER BY sort_value {values}, player_id {ids} LIMIT :size
"""
_AFTER = {"beyond": ">", "past": "<", "values": "DESC", "ids": "ASC"}
_BEFORE = {"beyond": "<", "past": ">", "values": "ASC", "ids": "DESC"}

# A row's competition rank is its position less the players tied with it who sort before it
# (lower ids): counting those reads its ties only, never the whole board ahead. Paging
# forward needs not even that: the key carries its row's rank.
_TIES_BEFORE = """
SELECT COUNT(*) AS ties FROM player_totals
WHERE scope = ? AND variant = ? AND {column} = ? AND player_id < ?
"""


log = logging.getLogger(__name__)

# rank_of on a board of at most this many players counts the players ahead (a few thousand
# index entries, about a millisecond); on a larger one it reads a rank table (_RankSteps).
EXACT_RANK_LIMIT = 5_000
# How old a board's rank table may grow before a refresh starts (in the background: the
# caller is answered from the older table meanwhile), and how many boards' tables are kept.
RANK_MAX_AGE = 60.0
RANK_BOARDS_KEPT = 256

_AHEAD_SQL = """
SELECT COUNT(*) AS ahead FROM player_totals
WHERE scope = ? AND variant = ? AND {column} > ?
"""
_VALUE_COUNTS_SQL = """
SELECT {column} AS value, COUNT(*) AS players FROM player_totals
WHERE scope = ? AND variant = ? GROUP BY {column} ORDER BY {column}
"""

_Board = tuple[int, str, str]  # scope, variant, sort column


@dataclass(frozen=True)
class _RankSteps:
    """One board's players per sort value, as read at ``read_at``: a rank is one bisection.

    ``above[i]`` is how many players had a value of ``values[i]`` or more (``above[n]`` is
    0), so the players ahead of any value v are ``above[bisect_right(values, v)]``.
    """

    values: list[int]
    above: list[int]
    read_at: float

    def ahead_of(self, value: int) -> int:
        """Players with a higher value than ``value``, as the table was read."""
        return self.above[bisect_right(self.values, value)]


class BoardKey(NamedTuple):
    """A row's place on a board: its sort value, player id (the ties' order) and rank."""

    value: int
    player_id: int
    rank: int


def board_key(row: LeaderboardRow, sort: SortKey) -> BoardKey:
    """The key of a leaderboard row, to read the page after or before its own."""
    return BoardKey(getattr(row, _SORT_COLUMNS[sort]), row.player_id, row.rank)


def _pages(total: int, size: int) -> int:
    return max(1, -(-total // size))


async def _board_size(connection: Connection, scope: int, variant: str) -> int:
    """Players on a board, from the count the triggers of migration 7 keep."""
    row = await fetch_one(
        connection,
        "SELECT players FROM board_sizes WHERE scope = ? AND variant = ?",
        (scope, variant),
    )
    return 0 if row is None else int(row["players"])


def _scope_key(scope: Scope, guild_id: int | None) -> int:
    if scope == "global":
        return GLOBAL_SCOPE
    if guild_id is None:
        raise ValueError("a server leaderboard needs a guild_id")
    return guild_id


def _rank_page(
    rows: Sequence[Row], column: str, offset: int, first_rank: int
) -> list[LeaderboardRow]:
    """Competition ranks down a page sorted by ``column``: ties share the first tied position."""
    ranked: list[LeaderboardRow] = []
    rank = first_rank
    for index, row in enumerate(rows):
        if index > 0 and row[column] != rows[index - 1][column]:
            rank = offset + index + 1
        ranked.append(from_row(LeaderboardRow, row, rank=rank))
    return ranked


class StandingsRepository:
    """Leaderboard pages, a player's rank and /stats."""

    def __init__(self, database: Backend) -> None:
        self._database = database
        # Boards larger than this rank from a periodically refreshed table (tests lower it).
        self.exact_rank_limit = EXACT_RANK_LIMIT
        self.rank_max_age = RANK_MAX_AGE
        self._rank_steps: OrderedDict[_Board, _RankSteps] = OrderedDict()
        self._refreshing: dict[_Board, asyncio.Task[_RankSteps]] = {}

    async def leaderboard(
        self,
        *,
        scope: Scope = "guild",
        guild_id: int | None = None,
        variant: VariantFilter = "all",
        sort: SortKey = "points",
        page: int = 1,
        page_size: int = 10,
        after: BoardKey | None = None,
        before: BoardKey | None = None,
    ) -> LeaderboardPage:
        """One page of a server (``guild_id``) or global leaderboard; ties break by player id.

        ``after`` (the last row of page ``page - 1``) or ``before`` (the first row of page
        ``page + 1``) read page ``page`` by keyset, in time proportional to the page however
        deep it is; without them (or for a page past the end) the page is found by offset.
        """
        if page_size < 1:
            raise ValueError("page_size must be at least 1")
        if after is not None and before is not None:
            raise ValueError("a page follows one neighbour, not both")
        scope_key = _scope_key(scope, guild_id)
        column = _SORT_COLUMNS[sort]

        async def work(connection: Connection) -> LeaderboardPage:
            total = await _board_size(connection, scope_key, variant)
            pages = _pages(total, page_size)
            shown = min(max(page, 1), pages)
            key = (after or before) if shown == page else None
            params: dict[str, int | str] = {
                "scope": scope_key,
                "variant": variant,
                "size": page_size,
            }
            if key is None:
                keys = _BY_OFFSET.format(column=column)
                params["skip"] = (shown - 1) * page_size
            else:
                keys = _BY_KEY.format(column=column, **(_AFTER if key is after else _BEFORE))
                params["value"], params["player"] = key.value, key.player_id
            rows = await fetch_all(
                connection,
                _PAGE_SQL.format(row_columns=_ROW_COLUMNS, column=column, keys=keys),
                params,
            )
            position = (shown - 1) * page_size
            first_rank = position + 1
            if rows and key is not None and key is after:
                # Tied with the last row of the page before: its rank; else a new value
                # starts at this position.
                if rows[0][column] == key.value:
                    first_rank = key.rank
            elif rows:
                first = rows[0]
                ties = await fetch_one(
                    connection,
                    _TIES_BEFORE.format(column=column),
                    (scope_key, variant, first[column], first["player_id"]),
                )
                first_rank -= 0 if ties is None else int(ties["ties"])
            return LeaderboardPage(
                scope=scope,
                guild_id=None if scope == "global" else guild_id,
                variant=variant,
                sort=sort,
                page=shown,
                page_size=page_size,
                total_pages=pages,
                total_players=total,
                rows=_rank_page(rows, column, position, first_rank),
            )

        return await self._database.read(work)

    async def rank_of(
        self,
        player_id: int,
        *,
        scope: Scope = "guild",
        guild_id: int | None = None,
        variant: VariantFilter = "all",
        sort: SortKey = "points",
    ) -> LeaderboardRow | None:
        """The player's row and rank on that leaderboard, on whatever page; None if absent.

        On a board of more than ``exact_rank_limit`` players the rank counts the others as a
        rank table read them, at most ``rank_max_age`` seconds ago (plus one refresh): the
        player's own value is always fresh, so a rank may lag others' games by a minute.
        """
        scope_key = _scope_key(scope, guild_id)
        column = _SORT_COLUMNS[sort]
        if is_computer(player_id):
            return None

        async def work(connection: Connection) -> tuple[Row | None, int, int | None]:
            row = await fetch_one(
                connection,
                f"SELECT {_ROW_COLUMNS} FROM player_totals AS t"
                " JOIN players AS p ON p.id = t.player_id"
                " WHERE t.scope = ? AND t.variant = ? AND t.player_id = ?",
                (scope_key, variant, player_id),
            )
            size = await _board_size(connection, scope_key, variant)
            if row is None or size > self.exact_rank_limit:
                return row, size, None
            found = await fetch_one(
                connection, _AHEAD_SQL.format(column=column), (scope_key, variant, row[column])
            )
            return row, size, 0 if found is None else int(found["ahead"])

        row, size, ahead = await self._database.read(work)
        if row is None:
            return None
        if ahead is None:
            steps = await self._steps((scope_key, variant, column))
            # The player's own value is fresh, the others' as the table was read: clamp to
            # the board, which may have grown or shrunk since.
            ahead = min(steps.ahead_of(int(row[column])), max(size - 1, 0))
        return from_row(LeaderboardRow, row, rank=ahead + 1)

    async def refresh_ranks(
        self,
        *,
        scope: Scope = "guild",
        guild_id: int | None = None,
        variant: VariantFilter = "all",
        sort: SortKey = "points",
    ) -> None:
        """Read a board's rank table again now (rank_of refreshes a stale one by itself)."""
        board = (_scope_key(scope, guild_id), variant, _SORT_COLUMNS[sort])
        self._rank_steps.pop(board, None)
        await self._steps(board)

    async def settle(self) -> None:
        """Wait for the rank tables' running background refreshes (before closing)."""
        await asyncio.gather(*self._refreshing.values(), return_exceptions=True)

    async def _steps(self, board: _Board) -> _RankSteps:
        """A board's rank table: read now if there is none, else the kept one (a refresh
        starts in the background once it is older than ``rank_max_age``)."""
        steps = self._rank_steps.get(board)
        if steps is None:
            return await self._refresh(board)
        self._rank_steps.move_to_end(board)
        if time.monotonic() - steps.read_at > self.rank_max_age:
            self._refresh(board)  # its task answers later callers; this one takes the old
        return steps

    def _refresh(self, board: _Board) -> asyncio.Task[_RankSteps]:
        """The one running refresh of a board's rank table, started if there is none."""
        task = self._refreshing.get(board)
        if task is None:
            task = asyncio.create_task(self._read_steps(board))
            self._refreshing[board] = task
            task.add_done_callback(lambda done: self._refresh_done(board, done))
        return task

    def _refresh_done(self, board: _Board, task: asyncio.Task[_RankSteps]) -> None:
        """Forget a finished refresh; a failed background one is logged, the old table kept."""
        self._refreshing.pop(board, None)
        if not task.cancelled() and task.exception() is not None:
            log.warning("a rank table refresh failed: %r", task.exception())

    async def _read_steps(self, board: _Board) -> _RankSteps:
        """Count a board's players per sort value (one pass over its sort index) and keep it."""
        scope_key, variant, column = board
        read_at = time.monotonic()
        rows = await self._database.read(
            lambda connection: fetch_all(
                connection, _VALUE_COUNTS_SQL.format(column=column), (scope_key, variant)
            )
        )
        counts = [int(row["players"]) for row in rows]
        # Players at each value or above it, from the top down; 0 above the highest value.
        above = [*reversed(list(accumulate(reversed(counts)))), 0]
        steps = _RankSteps([int(row["value"]) for row in rows], above, read_at)
        self._rank_steps[board] = steps
        self._rank_steps.move_to_end(board)
        while len(self._rank_steps) > RANK_BOARDS_KEPT:
            self._rank_steps.popitem(last=False)
        return steps

    async def stats(self, player_id: int, guild_id: int | None = None) -> PlayerStats:
        """A player's stats in one server, or across every server when ``guild_id`` is None.

        A computer player (negative id) has no stats: the result is empty.
        """
        scope_key = GLOBAL_SCOPE if guild_id is None else guild_id
        if is_computer(player_id):
            return PlayerStats(player_id=player_id, name=None, guild_id=guild_id)

        async def work(connection: Connection) -> PlayerStats:
            found = await fetch_all(
                connection,
                "SELECT p.display_name, t.* FROM players AS p LEFT JOIN player_totals AS t"
                f" ON t.scope = ? AND t.variant IN ({_TOTALS_MARKS}) AND t.player_id = p.id"
                " WHERE p.id = ?",
                (scope_key, *_TOTALS_VARIANTS, player_id),
            )
            rows = {row["variant"]: row for row in found if row["variant"] is not None}
            player = found[0] if found else None
            name = None if player is None else str(player["display_name"])
            overall = rows.get("all")
            if overall is None:
                return PlayerStats(player_id=player_id, name=name, guild_id=guild_id)
            played = {v: rows[v]["games_played"] for v in VARIANTS if v in rows}
            # Most games played; a tie goes to the variant listed first (Flip, the headline game).
            order = list(VARIANTS)
            favourite = max(played, key=lambda v: (played[v], -order.index(v)), default=None)
            return PlayerStats(
                player_id=player_id,
                name=name,
                guild_id=guild_id,
                games_played=overall["games_played"],
                matches_won=overall["matches_won"],
                rounds_won=overall["rounds_won"],
                rounds_played=overall["rounds_played"],
                total_points=overall["points"],
                best_round=overall["best_round"],
                favourite_variant=favourite,
            )

        return await self._database.statement(work)

    async def forget(self, player_id: int) -> int:
        """Erase a player's standings and stats: their totals (every leaderboard and /stats),
        their scores and results in finished games, and their name. Returns the rows erased.

        A live game keeps the player's seat, name and rounds until it ends (its rounds then
        count as usual); the Discord id stays in finished games' rows as a round's winner, so
        the other players' history stays whole.
        """

        async def work(connection: Connection) -> int:
            erased = 0
            for sql in _FORGET_SQL:
                erased += (await connection.execute(sql, (player_id,))).rowcount
            return erased

        return await self._database.write(work)


# What forget() erases; a live game's rows stay until it ends.
_FORGET_SQL = (
    "DELETE FROM player_totals WHERE player_id = ?",
    "DELETE FROM match_results WHERE player_id = ?"
    " AND game_id IN (SELECT id FROM games WHERE status <> 'live')",
    "DELETE FROM round_scores WHERE player_id = ? AND round_id IN"
    " (SELECT r.id FROM rounds AS r JOIN games AS g ON g.id = r.game_id WHERE g.status <> 'live')",
    "UPDATE players SET display_name = '' WHERE id = ?"
    " AND NOT EXISTS (SELECT 1 FROM game_players AS gp JOIN games AS g ON g.id = gp.game_id"
    " WHERE gp.player_id = players.id AND g.status = 'live')",
    *HISTORY_FORGET_SQL,
)
