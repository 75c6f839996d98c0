"""Leaderboards and player stats, read from the player_totals aggregate table."""

from __future__ import annotations

from collections.abc import Sequence
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
        """The player's row and rank on that leaderboard, on whatever page; None if absent."""
        scope_key = _scope_key(scope, guild_id)
        column = _SORT_COLUMNS[sort]
        if is_computer(player_id):
            return None

        async def work(connection: Connection) -> LeaderboardRow | None:
            row = await fetch_one(
                connection,
                f"SELECT {_ROW_COLUMNS}, (SELECT COUNT(*) FROM player_totals AS o"
                " WHERE o.scope = t.scope AND o.variant = t.variant"
                f" AND o.{column} > t.{column}) AS ahead"
                " FROM player_totals AS t JOIN players AS p ON p.id = t.player_id"
                " WHERE t.scope = ? AND t.variant = ? AND t.player_id = ?",
                (scope_key, variant, player_id),
            )
            return None if row is None else from_row(LeaderboardRow, row, rank=row["ahead"] + 1)

        return await self._database.statement(work)

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
