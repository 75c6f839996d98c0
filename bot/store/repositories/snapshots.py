"""Live-game snapshots: one small upsert per move, and the restore list at start-up."""

from __future__ import annotations

from ..backend import Backend, Connection
from ..models import LiveGame, from_millis
from ..shards import Shards
from ._load import load_games
from ._sql import execute, fetch_all, now_ms, own_servers, shard_held

_SAVE = """
INSERT INTO snapshots (game_id, state_json, ui_json, updated_at)
SELECT id, CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT) FROM games
WHERE id = ? AND status = 'live'{held}{lock}
ON CONFLICT (game_id) DO UPDATE SET
    state_json = excluded.state_json,
    ui_json = excluded.ui_json,
    updated_at = excluded.updated_at
"""


async def write_snapshot(
    connection: Connection, game_id: int, state_json: str, ui_json: str
) -> bool:
    """Upsert the snapshot of a live game inside the caller's transaction; False if not live."""
    # On PostgreSQL the share lock waits for a finish or abandon of the game in flight, then
    # sees its new status: a late snapshot never outlives its game. In a shard cluster the
    # same statement checks the game's shard is still this process's (the hot path stays one
    # round trip).
    lock = " FOR SHARE" if connection.dialect == "postgres" else ""
    held, fence = shard_held(connection, "games.guild_id")
    sql = _SAVE.format(held=held, lock=lock)
    cursor = await execute(connection, sql, (state_json, ui_json, now_ms(), game_id, *fence))
    return cursor.rowcount > 0


class SnapshotRepository:
    """Saves and restores the state of live games."""

    def __init__(self, database: Backend) -> None:
        self._database = database
        # Set by Store.claim_shards: restore only this process's servers.
        self.shards: Shards | None = None

    async def save_snapshot(self, game_id: int, state_json: str, ui_json: str = "{}") -> bool:
        """Save a live game's engine state and UI blob; False (nothing written) if not live."""

        async def work(connection: Connection) -> bool:
            return await write_snapshot(connection, game_id, state_json, ui_json)

        return await self._database.statement(work)

    async def load_live_games(self) -> list[LiveGame]:
        """Every live game with its latest snapshot, oldest game first (own shards only)."""
        shards = self.shards

        async def work(connection: Connection) -> list[LiveGame]:
            mine, params = own_servers(shards, "g.guild_id")
            rows = await fetch_all(
                connection,
                "SELECT g.id, s.state_json, s.ui_json, s.updated_at FROM games AS g"
                " LEFT JOIN snapshots AS s ON s.game_id = g.id"
                f" WHERE g.status = 'live' AND {mine} ORDER BY g.id",
                params,
            )
            games = await load_games(connection, [row["id"] for row in rows])
            return [
                LiveGame(
                    game=games[row["id"]],
                    state_json=row["state_json"],
                    ui_json=row["ui_json"],
                    saved_at=None if row["updated_at"] is None else from_millis(row["updated_at"]),
                )
                for row in rows
            ]

        return await self._database.read(work)
