"""Building GameRecord models from rows."""

from __future__ import annotations

from collections.abc import Sequence

import aiosqlite

from ..models import GamePlayer, GameRecord, from_millis
from ._sql import fetch_all


async def load_games(
    connection: aiosqlite.Connection, game_ids: Sequence[int]
) -> dict[int, GameRecord]:
    """The games with these ids and their seats, by id (two queries whatever the count)."""
    if not game_ids:
        return {}
    marks = ",".join("?" * len(game_ids))
    seats: dict[int, list[GamePlayer]] = {game_id: [] for game_id in game_ids}
    for row in await fetch_all(
        connection,
        "SELECT gp.*, p.display_name FROM game_players AS gp"
        f" JOIN players AS p ON p.id = gp.player_id WHERE gp.game_id IN ({marks})"
        " ORDER BY gp.game_id, gp.seat",
        game_ids,
    ):
        seats[row["game_id"]].append(
            GamePlayer(
                player_id=row["player_id"],
                name=row["display_name"],
                seat=row["seat"],
                total_points=row["total_points"],
                rounds_won=row["rounds_won"],
                rounds_played=row["rounds_played"],
            )
        )
    games = await fetch_all(connection, f"SELECT * FROM games WHERE id IN ({marks})", game_ids)
    return {
        row["id"]: GameRecord(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            variant=row["variant"],
            rules_json=row["rules_json"],
            status=row["status"],
            created_at=from_millis(row["created_at"]),
            updated_at=from_millis(row["updated_at"]),
            finished_at=None if row["finished_at"] is None else from_millis(row["finished_at"]),
            winner_id=row["winner_id"],
            players=seats[row["id"]],
        )
        for row in games
    }
