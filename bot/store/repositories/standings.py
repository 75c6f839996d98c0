"""Leaderboards and player stats, read from the player_totals aggregate table."""

from __future__ import annotations

from collections.abc import Sequence

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


# One statement, so one consistent read and one round trip: the count, the clamped page, the
# page's keys from the covering sort index (OFFSET skips index entries only), the number of
# players ahead of the page's first row (its rank), then the page's rows joined to names.
# Computer players (negative ids) are absent by construction: record_round never gives them
# totals rows (a filter here would cost the count its covering index).
_PAGE_SQL = """
WITH
counted AS (
    SELECT COUNT(*) AS total FROM player_totals WHERE scope = :scope AND variant = :variant
),
chosen AS (
    SELECT
        total,
        pages,
        CASE WHEN :page < 1 THEN 1 WHEN :page > pages THEN pages ELSE :page END AS page
    FROM (
        SELECT total, CASE WHEN total > 0 THEN (total + :size - 1) / :size ELSE 1 END AS pages
        FROM counted
    ) AS sized
),
page AS (
    SELECT player_id, {column} AS sort_value FROM player_totals
    WHERE scope = :scope AND variant = :variant
    ORDER BY {column} DESC, player_id
    LIMIT :size OFFSET ((SELECT page FROM chosen) - 1) * :size
)
SELECT
    chosen.total, chosen.pages, chosen.page,
    (SELECT COUNT(*) FROM player_totals WHERE scope = :scope AND variant = :variant
        AND {column} > (SELECT MAX(sort_value) FROM page)) AS ahead,
    {row_columns}
FROM chosen
LEFT JOIN page ON 1 = 1
LEFT JOIN player_totals AS t
    ON t.scope = :scope AND t.variant = :variant AND t.player_id = page.player_id
LEFT JOIN players AS p ON p.id = t.player_id
ORDER BY page.sort_value DESC, page.player_id
"""


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
    ) -> LeaderboardPage:
        """One page of a server (``guild_id``) or global leaderboard; ties break by player id."""
        if page_size < 1:
            raise ValueError("page_size must be at least 1")
        scope_key = _scope_key(scope, guild_id)
        column = _SORT_COLUMNS[sort]

        async def work(connection: Connection) -> LeaderboardPage:
            rows = await fetch_all(
                connection,
                _PAGE_SQL.format(column=column, row_columns=_ROW_COLUMNS),
                {"scope": scope_key, "variant": variant, "size": page_size, "page": page},
            )
            # At least one row: the page's players, or one row without a player if empty.
            head = rows[0]
            players = [row for row in rows if row["player_id"] is not None]
            offset = (head["page"] - 1) * page_size
            return LeaderboardPage(
                scope=scope,
                guild_id=None if scope == "global" else guild_id,
                variant=variant,
                sort=sort,
                page=head["page"],
                page_size=page_size,
                total_pages=head["pages"],
                total_players=head["total"],
                rows=_rank_page(players, column, offset, head["ahead"] + 1),
            )

        return await self._database.statement(work)

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
