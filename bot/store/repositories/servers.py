"""Each server's own settings: one row per server, replaced whole on every change."""

from __future__ import annotations

from ..backend import Backend, Connection
from ._sql import execute, fetch_all, fetch_one, now_ms

_SAVE = """
INSERT INTO server_settings (guild_id, settings_json, updated_at)
VALUES (?, ?, ?)
ON CONFLICT (guild_id) DO UPDATE SET
    settings_json = excluded.settings_json,
    updated_at = excluded.updated_at
"""


class ServerSettingsRepository:
    """Reads, saves and forgets a server's settings (opaque JSON); each call one statement."""

    def __init__(self, database: Backend) -> None:
        self._database = database

    async def load(self, guild_id: int) -> str | None:
        """The server's saved settings, or None when it never changed any."""

        async def work(connection: Connection) -> str | None:
            row = await fetch_one(
                connection,
                "SELECT settings_json FROM server_settings WHERE guild_id = ?",
                (guild_id,),
            )
            return None if row is None else str(row["settings_json"])

        return await self._database.statement(work)

    async def load_all(self) -> dict[int, str]:
        """Every server's saved settings, by server id (read once at start-up)."""

        async def work(connection: Connection) -> dict[int, str]:
            rows = await fetch_all(
                connection, "SELECT guild_id, settings_json FROM server_settings"
            )
            return {int(row["guild_id"]): str(row["settings_json"]) for row in rows}

        return await self._database.statement(work)

    async def save(self, guild_id: int, settings_json: str) -> None:
        """Save the server's settings, replacing what it saved before."""

        async def work(connection: Connection) -> None:
            await execute(connection, _SAVE, (guild_id, settings_json, now_ms()))

        await self._database.statement(work)

    async def delete(self, guild_id: int) -> bool:
        """Forget the server's settings (back to the defaults); False if it had none."""

        async def work(connection: Connection) -> bool:
            done = await execute(
                connection, "DELETE FROM server_settings WHERE guild_id = ?", (guild_id,)
            )
            return done.rowcount > 0

        return await self._database.statement(work)
