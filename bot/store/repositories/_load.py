"""Building GameRecord models from rows."""

from __future__ import annotations

from collections.abc import Sequence

from ..backend import Connection
from ..models import GamePlayer, GameRecord, from_millis
from ._sql import fetch_all, from_row

ID_BATCH = 900
"""Ids bound per query: below every engine's limit on parameters (SQLite built before 3.32
allows 999, asyncpg 32,767), so a process restores any number of live games."""


def batches(ids: Sequence[int], size: int = ID_BATCH) -> list[Sequence[int]]:
    """``ids`` in slices of at most ``size``, in order."""
    return [ids[start : start + size] for start in range(0, len(ids), size)]


async def load_games(connection: Connection, game_ids: Sequence[int]) -> dict[int, GameRecord]:
    """The games with these ids and their seats, by id (two queries per batch of ids)."""
    games: dict[int, GameRecord] = {}
    for batch in batches(game_ids):
        games.update(await _load_batch(connection, batch))
    return games


async def _load_batch(connection: Connection, game_ids: Sequence[int]) -> dict[int, GameRecord]:
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
