"""Store: the one entry point the bot uses: open, migrate, then the repositories."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Generic, Literal

from typing_extensions import TypeVar

from .backend import Backend
from .connection import ConnectionSettings, Database
from .errors import StoreIOError
from .migrate import migrate
from .postgres import PostgresDatabase, PostgresSettings, describe
from .repositories import (
    GameRepository,
    LobbyRepository,
    SnapshotRepository,
    StandingsRepository,
)

B = TypeVar("B", bound=Backend, default=Any)


class Store(Generic[B]):
    """The bot's database, SQLite or PostgreSQL, behind the same four repositories.

    Code above the store never asks which: ``Store`` means ``Store[Any]``; the backend type
    is there for tests and tools that reach into one engine (``store.database``).

    ``store.games`` creates games and records rounds and results, ``store.snapshots`` saves
    and restores live games, ``store.lobbies`` saves and restores open lobbies,
    ``store.standings`` answers /leaderboard and /stats. Every
    method is a coroutine and runs as one transaction; a locked database is retried with
    backoff and raises StoreBusyError after the last attempt.
    """

    def __init__(self, database: B) -> None:
        self.database = database
        self.games = GameRepository(database)
        self.snapshots = SnapshotRepository(database)
        self.lobbies = LobbyRepository(database)
        self.standings = StandingsRepository(database)

    @classmethod
    async def open(
        cls, path: str | Path, settings: ConnectionSettings | None = None
    ) -> Store[Database]:
        """Open (creating if needed) the SQLite database at ``path`` and migrate it.

        ``":memory:"`` gives a private in-memory database (tests).
        """
        database = await Database.open(path, settings or ConnectionSettings())
        try:
            await migrate(database.connection)
        except BaseException:
            await database.close()
            raise
        return Store(database)

    @classmethod
    async def open_postgres(
        cls, dsn: str, settings: PostgresSettings | None = None
    ) -> Store[PostgresDatabase]:
        """Connect to PostgreSQL at ``dsn`` (``postgresql://user@host:port/db``) and migrate."""
        return Store(await PostgresDatabase.open(dsn, settings))

    async def close(self) -> None:
        """Close the connections; the store cannot be used afterwards."""
        await self.database.close()


def sqlite_path(url: str) -> str:
    """The file of a ``sqlite:///relative`` or ``sqlite:////absolute`` URL."""
    return url.removeprefix("sqlite:///")


def describe_url(url: str) -> str:
    """Where a store URL points, without credentials (for log lines)."""
    return f"SQLite file {sqlite_path(url)}" if url.startswith("sqlite:") else describe(url)


async def open_store(
    url: str, *, synchronous: Literal["OFF", "NORMAL", "FULL", "EXTRA"] = "NORMAL"
) -> Store[Any]:
    """Open the store a ``db_url`` names: ``sqlite:///path`` or ``postgresql://...``.

    A SQLite file's folder is created if missing. ``synchronous`` applies to SQLite only.
    """
    if url.startswith("sqlite:///"):
        path = sqlite_path(url)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        return await Store.open(path, ConnectionSettings(synchronous=synchronous))
    if url.startswith(("postgresql://", "postgres://")):
        return await Store.open_postgres(url)
    raise StoreIOError(f"unsupported db_url {url!r}: use sqlite:///path or postgresql://...")
