"""Store: the one entry point the bot uses: open, migrate, then the repositories."""

from __future__ import annotations

from pathlib import Path

from .connection import ConnectionSettings, Database
from .migrate import migrate
from .repositories import (
    GameRepository,
    LobbyRepository,
    SnapshotRepository,
    StandingsRepository,
)


class Store:
    """The bot's database: one aiosqlite connection shared by four repositories.

    ``store.games`` creates games and records rounds and results, ``store.snapshots`` saves
    and restores live games, ``store.lobbies`` saves and restores open lobbies,
    ``store.standings`` answers /leaderboard and /stats. Every
    method is a coroutine and runs as one transaction; a locked database is retried with
    backoff and raises StoreBusyError after the last attempt.
    """

    def __init__(self, database: Database) -> None:
        self.database = database
        self.games = GameRepository(database)
        self.snapshots = SnapshotRepository(database)
        self.lobbies = LobbyRepository(database)
        self.standings = StandingsRepository(database)

    @classmethod
    async def open(cls, path: str | Path, settings: ConnectionSettings | None = None) -> Store:
        """Open (creating if needed) the database at ``path`` and apply pending migrations.

        ``":memory:"`` gives a private in-memory database (tests).
        """
        database = await Database.open(path, settings or ConnectionSettings())
        try:
            await migrate(database.connection)
        except BaseException:
            await database.close()
            raise
        return cls(database)

    async def close(self) -> None:
        """Close the connection; the store cannot be used afterwards."""
        await self.database.close()
