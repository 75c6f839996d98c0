"""Leaderboards and player stats, read from the player_totals aggregate table."""

from __future__ import annotations

import math
from collections.abc import Sequence

import aiosqlite

from ..connection import Database
from ..models import (
    LeaderboardPage,
    LeaderboardRow,
    PlayerStats,
    Scope,
    SortKey,
    VariantFilter,
)
from ._sql import GLOBAL_SCOPE, fetch_all, fetch_one

# Whitelisted column names: the sort key is interpolated into SQL.
_SORT_COLUMNS: dict[SortKey, str] = {
    "points": "points",
    "matches_won": "matches_won",
    "rounds_won": "rounds_won",
}

_ROW_COLUMNS = "t.player_id, p.display_name, t.points, t.matches_won, t.rounds_won, t.games_played"


def _scope_key(scope: Scope, guild_id: int | None) -> int:
    if scope == "global":
        return GLOBAL_SCOPE
    if guild_id is None:
        raise ValueError("a server leaderboard needs a guild_id")
    return guild_id


def _row(row: aiosqlite.Row, rank: int) -> LeaderboardRow:
    return LeaderboardRow(
        rank=rank,
        player_id=row["player_id"],
        name=row["display_name"],
        points=row["points"],
        matches_won=row["matches_won"],
        rounds_won=row["rounds_won"],
        games_played=row["games_played"],
    )


async def _count_ahead(
    connection: aiosqlite.Connection, scope_key: int, variant: str, column: str, value: int
) -> int:
    """How many players have strictly more of ``column``: rank = this + 1."""
    row = await fetch_one(
        connection,
        f"SELECT COUNT(*) FROM player_totals WHERE scope = ? AND variant = ? AND {column} > ?",
        (scope_key, variant, value),
    )
    return int(row[0]) if row is not None else 0


def _rank_page(
    rows: Sequence[aiosqlite.Row], column: str, offset: int, first_rank: int
) -> list[LeaderboardRow]:
    """Competition ranks down a page sorted by ``column``: ties share the first tied position."""
    ranked: list[LeaderboardRow] = []
    rank = first_rank
    for index, row in enumerate(rows):
        if index > 0 and row[column] != rows[index - 1][column]:
            rank = offset + index + 1
        ranked.append(_row(row, rank))
    return ranked


class StandingsRepository:
    """Leaderboard pages, a player's rank and /stats."""

    def __init__(self, database: Database) -> None:
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
    ) -> LeaderboardPage:
        """One page of a server (``guild_id``) or global leaderboard; ties break by player id."""
        if page_size < 1:
            raise ValueError("page_size must be at least 1")
        scope_key = _scope_key(scope, guild_id)
        column = _SORT_COLUMNS[sort]

        async def work(connection: aiosqlite.Connection) -> LeaderboardPage:
            counted = await fetch_one(
                connection,
                "SELECT COUNT(*) FROM player_totals WHERE scope = ? AND variant = ?",
                (scope_key, variant),
            )
            total_players = int(counted[0]) if counted is not None else 0
            total_pages = max(1, math.ceil(total_players / page_size))
            current = min(max(1, page), total_pages)
            offset = (current - 1) * page_size
            # The page's keys come from the covering sort index alone, so the rows skipped
            # by OFFSET cost no table or name lookups; only the page's rows are joined.
            rows = await fetch_all(
                connection,
                "WITH page AS ("
                f" SELECT player_id, {column} AS sort_value FROM player_totals"
                f" WHERE scope = ? AND variant = ? ORDER BY {column} DESC, player_id"
                " LIMIT ? OFFSET ?)"
                f" SELECT {_ROW_COLUMNS} FROM page"
                " JOIN player_totals AS t"
                " ON t.scope = ? AND t.variant = ? AND t.player_id = page.player_id"
                " JOIN players AS p ON p.id = t.player_id"
                " ORDER BY page.sort_value DESC, page.player_id",
                (scope_key, variant, page_size, offset, scope_key, variant),
            )
            first_rank = 1
            if rows:
                first_rank = 1 + await _count_ahead(
                    connection, scope_key, variant, column, rows[0][column]
                )
            return LeaderboardPage(
                scope=scope,
                guild_id=None if scope == "global" else guild_id,
                variant=variant,
                sort=sort,
                page=current,
                page_size=page_size,
                total_pages=total_pages,
                total_players=total_players,
                rows=_rank_page(rows, column, offset, first_rank),
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

        async def work(connection: aiosqlite.Connection) -> LeaderboardRow | None:
            row = await fetch_one(
                connection,
                f"SELECT {_ROW_COLUMNS} FROM player_totals AS t"
                " JOIN players AS p ON p.id = t.player_id"
                " WHERE t.scope = ? AND t.variant = ? AND t.player_id = ?",
                (scope_key, variant, player_id),
            )
            if row is None:
                return None
            ahead = await _count_ahead(connection, scope_key, variant, column, row[column])
            return _row(row, ahead + 1)

        return await self._database.read(work)

    async def stats(self, player_id: int, guild_id: int | None = None) -> PlayerStats:
        """A player's stats in one server, or across every server when ``guild_id`` is None."""
        scope_key = GLOBAL_SCOPE if guild_id is None else guild_id

        async def work(connection: aiosqlite.Connection) -> PlayerStats:
            player = await fetch_one(
                connection, "SELECT display_name FROM players WHERE id = ?", (player_id,)
            )
            rows = {
                row["variant"]: row
                for row in await fetch_all(
                    connection,
                    "SELECT * FROM player_totals WHERE scope = ?"
                    " AND variant IN ('flip', 'classic', 'all') AND player_id = ?",
                    (scope_key, player_id),
                )
            }
            name = None if player is None else str(player["display_name"])
            overall = rows.get("all")
            if overall is None:
                return PlayerStats(player_id=player_id, name=name, guild_id=guild_id)
            played = {v: rows[v]["games_played"] for v in ("flip", "classic") if v in rows}
            # Most games played; a tie goes to Flip, the headline game.
            favourite = max(played, key=lambda v: (played[v], v == "flip"), default=None)
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

        return await self._database.read(work)
