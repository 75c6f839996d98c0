"""Building GameRecord models from rows."""

from __future__ import annotations

from collections.abc import Sequence

from ..backend import Connection
from ..models import GamePlayer, GameRecord, from_millis
from ._sql import fetch_all, from_row


async def load_games(connection: Connection, game_ids: Sequence[int]) -> dict[int, GameRecord]:
    """The games with these ids and their seats, by id (two queries whatever the count)."""
    if not game_ids:
        return {}
    marks = ",".join("?" * len(game_ids))
    seats: dict[int, list[GamePlayer]] = {game_id: [] for game_id in game_ids}
    for row in await fetch_all(
        connection,
        "SELECT gp.*, p.display_name AS name FROM game_players AS gp"
        f" JOIN players AS p ON p.id = gp.player_id WHERE gp.game_id IN ({marks})"
        " ORDER BY gp.game_id, gp.seat",
        game_ids,
    ):
        seats[row["game_id"]].append(from_row(GamePlayer, row))
    games = await fetch_all(connection, f"SELECT * FROM games WHERE id IN ({marks})", game_ids)
    return {
        row["id"]: from_row(
            GameRecord,
            row,
            created_at=from_millis(row["created_at"]),
            updated_at=from_millis(row["updated_at"]),
            finished_at=None if row["finished_at"] is None else from_millis(row["finished_at"]),
            players=seats[row["id"]],
        )
        for row in games
    }
