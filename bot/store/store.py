"""Store: the one entry point the bot uses: open, migrate, then the repositories."""

from __future__ import annotations

from collections.abc import Callable
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
    HistoryRepository,
    LobbyRepository,
    ServerSettingsRepository,
    SnapshotRepository,
    StandingsRepository,
)
from .shards import LEASE_TIMEOUT, ShardLease, Shards

B = TypeVar("B", bound=Backend, default=Any)


class Store(Generic[B]):
    """The bot's database, SQLite or PostgreSQL, behind the same repositories.

    Code above the store never asks which: ``Store`` means ``Store[Any]``; the backend type
    is there for tests and tools that reach into one engine (``store.database``).

    ``store.games`` creates games and records rounds and results, ``store.snapshots`` saves
    and restores live games, ``store.lobbies`` saves and restores open lobbies,
    ``store.standings`` answers /leaderboard and /stats, ``store.server_settings`` keeps each
    server's /uno-settings, ``store.history`` the finished matches (/uno history, /uno replay).
    Every
    method is a coroutine and runs as one transaction; a locked database is retried with
    backoff and raises StoreBusyError after the last attempt.
    """

    def __init__(self, database: B) -> None:
        self.database = database
        self.games = GameRepository(database)
        self.snapshots = SnapshotRepository(database)
        self.lobbies = LobbyRepository(database)
        self.standings = StandingsRepository(database)
        self.server_settings = ServerSettingsRepository(database)
        self.history = HistoryRepository(database)
        self._lease: ShardLease | None = None

    async def claim_shards(
        self,
        shards: Shards,
        *,
        lease_timeout: float = LEASE_TIMEOUT,
        on_lost: Callable[[str], None] | None = None,
    ) -> None:
        """Run as the process of ``shards``: restore only their servers' games and lobbies.

        On PostgreSQL, holds a lease on each shard until close, waiting up to
        ``lease_timeout`` s for a shard whose holder just died; ShardTakenError if another
        live process holds one. Every write of a server's games, rounds, snapshots and
        lobbies then checks, in its own transaction, that this claim still holds the server's
        shard. Once another process has claimed one of the shards (while this one's lease
        connection was down), the store refuses every later write and ``on_lost`` hears why,
        once. A SQLite file serves one process, so it needs no lease.
        """
        database = self.database
        if isinstance(database, PostgresDatabase):

            def taken(reason: str) -> None:
                database.fence(reason)
                if on_lost is not None:
                    on_lost(reason)

            lease = await ShardLease.acquire(
                database.dsn, shards, timeout=lease_timeout, on_taken=taken
            )
            database.hold(lease.claim, on_taken=lease.lose)
            self._lease = lease
        self.snapshots.shards = shards
        self.lobbies.shards = shards

    @property
    def shared(self) -> bool:
        """Whether several processes may use this database (PostgreSQL), so a process must
        claim the shards it runs."""
        return isinstance(self.database, PostgresDatabase)

    @property
    def lease(self) -> ShardLease | None:
        """The shard lease this process holds on PostgreSQL, if it claimed shards there."""
        return self._lease

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
        """Close the connections (and give up any shards); the store cannot be used afterwards."""
        if self._lease is not None:
            await self._lease.release()
            self._lease = None
        await self.standings.settle()
        await self.database.close()


def sqlite_path(url: str) -> str:
    """The file of a ``sqlite:///relative`` or ``sqlite:////absolute`` URL."""
    return url.removeprefix("sqlite:///")


def is_postgres_url(url: str) -> bool:
    """Whether a store URL names a PostgreSQL server rather than a SQLite file."""
    return url.startswith(("postgresql://", "postgres://"))


def describe_url(url: str) -> str:
    """Where a store URL points, without credentials (for log lines)."""
    return f"SQLite file {sqlite_path(url)}" if url.startswith("sqlite:") else describe(url)


async def open_store(
    url: str,
    *,
    synchronous: Literal["OFF", "NORMAL", "FULL", "EXTRA"] = "NORMAL",
    postgres: PostgresSettings | None = None,
) -> Store[Any]:
    """Open the store a ``db_url`` names: ``sqlite:///path`` or ``postgresql://...``.

    A SQLite file's folder is created if missing. ``synchronous`` applies to SQLite only,
    ``postgres`` (the pool's size and command timeout) to PostgreSQL only.
    """
    if url.startswith("sqlite:///"):
        path = sqlite_path(url)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        return await Store.open(path, ConnectionSettings(synchronous=synchronous))
    if is_postgres_url(url):
        return await Store.open_postgres(url, postgres)
    raise StoreIOError(f"unsupported db_url {url!r}: use sqlite:///path or postgresql://...")
