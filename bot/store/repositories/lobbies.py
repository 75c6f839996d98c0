"""Open lobbies: one upsert per change, deleted when the lobby closes or its game starts."""

from __future__ import annotations

from ..backend import Backend, Connection
from ..models import SavedLobby, from_millis
from ..shards import Shards
from ._sql import execute, fetch_all, fetch_one, hold_shard, now_ms, own_servers

_SAVE = """
INSERT INTO lobbies (channel_id, session_id, guild_id, lobby_json, updated_at)
VALUES (?, ?, ?, ?, ?)
ON CONFLICT (channel_id) DO UPDATE SET
    session_id = excluded.session_id,
    guild_id = excluded.guild_id,
    lobby_json = excluded.lobby_json,
    updated_at = excluded.updated_at
"""


async def delete_lobby(connection: Connection, channel_id: int, session_id: str) -> int | None:
    """Delete the channel's lobby row inside the caller's transaction, if it is that session's;
    the server id of the row deleted, or None."""
    deleted = await fetch_one(
        connection,
        "DELETE FROM lobbies WHERE channel_id = ? AND session_id = ? RETURNING guild_id",
        (channel_id, session_id),
    )
    return None if deleted is None else int(deleted["guild_id"])


class LobbyRepository:
    """Saves, forgets and lists the open lobbies; every method is one transaction."""

    def __init__(self, database: Backend) -> None:
        self._database = database
        # Set by Store.claim_shards: restore only this process's servers.
        self.shards: Shards | None = None

    async def save(self, channel_id: int, session_id: str, guild_id: int, lobby_json: str) -> None:
        """Save the channel's open lobby, replacing whatever lobby the channel saved before."""

        async def work(connection: Connection) -> None:
            await hold_shard(connection, guild_id)
            await execute(
                connection, _SAVE, (channel_id, session_id, guild_id, lobby_json, now_ms())
            )

        # A transaction, for the shard check in a cluster (lobby changes are rare).
        await self._database.write(work)

    async def delete(self, channel_id: int, session_id: str) -> bool:
        """Forget a closed lobby; False if the channel holds no lobby of that session.

        Matching the session id keeps a late delete from removing a newer lobby of the channel.
        """

        async def work(connection: Connection) -> bool:
            guild_id = await delete_lobby(connection, channel_id, session_id)
            if guild_id is None:
                return False
            await hold_shard(connection, guild_id)  # before the commit: refused, nothing goes
            return True

        return await self._database.write(work)

    async def load_all(self) -> list[SavedLobby]:
        """Every saved lobby, the longest-unchanged first (own shards only)."""
        mine, params = own_servers(self.shards, "guild_id")

        async def work(connection: Connection) -> list[SavedLobby]:
            rows = await fetch_all(
                connection,
                f"SELECT * FROM lobbies WHERE {mine} ORDER BY updated_at, channel_id",
                params,
            )
            return [
                SavedLobby(
                    channel_id=row["channel_id"],
                    session_id=row["session_id"],
                    guild_id=row["guild_id"],
                    lobby_json=row["lobby_json"],
                    saved_at=from_millis(row["updated_at"]),
                )
                for row in rows
            ]

        return await self._database.statement(work)
