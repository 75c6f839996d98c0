"""One long-lived aiosqlite connection: pragmas, a lock, transactions and busy retries."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

import aiosqlite

from .backend import Executed, Params, Row, Work, run_shielded
from .errors import StoreBusyError, StoreIOError
from .shards import ShardClaim

T = TypeVar("T")
log = logging.getLogger(__name__)

_SQLITE_BUSY = 5
_SQLITE_LOCKED = 6
# Failures that can clear while the bot runs (the file made writable again, the disk freed, the
# volume remounted) but that the connection that saw them may never recover from: a database
# opened read-only stays read-only for the life of its connection.
_REOPEN_CODES = frozenset({8, 10, 13, 14})  # READONLY, IOERR, FULL, CANTOPEN


async def execute(
    connection: aiosqlite.Connection, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()
) -> Executed:
    """Run one statement and close its cursor at once.

    An unclosed cursor (a PRAGMA's unread result row, say) keeps its statement "in progress",
    which makes the next COMMIT fail; relying on garbage collection to close it is not safe.
    """
    async with connection.execute(sql, params) as cursor:
        return Executed(cursor.rowcount, cursor.lastrowid)


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how patiently a locked or busy database is retried."""

    attempts: int = 6
    first_delay: float = 0.05
    max_delay: float = 1.0

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError("a retry policy needs at least one attempt")

    def delay(self, attempt: int) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (0-based)."""
        return float(min(self.max_delay, self.first_delay * 2**attempt))


def needs_reopen(error: sqlite3.Error) -> bool:
    """Whether ``error`` is a fault that can clear, after which only a new connection writes."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in _REOPEN_CODES


def is_busy(error: sqlite3.Error) -> bool:
    """Whether ``error`` means another connection holds a lock (worth retrying)."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (_SQLITE_BUSY, _SQLITE_LOCKED)
    message = str(error).lower()
    return "locked" in message or "busy" in message


@dataclass(frozen=True, slots=True)
class ConnectionSettings:
    """How the connection waits for locks, how durable a commit is, and how it retries.

    ``synchronous="NORMAL"`` with WAL keeps every commit through a killed process; ``"FULL"``
    also survives power loss, at the cost of an fsync per write.
    """

    busy_timeout_ms: int = 2000
    synchronous: Literal["OFF", "NORMAL", "FULL", "EXTRA"] = "NORMAL"
    retry: RetryPolicy = RetryPolicy()


class SqliteConnection:
    """The aiosqlite connection as the repositories use it (see backend.Connection)."""

    dialect: Literal["sqlite"] = "sqlite"
    # A SQLite file serves one process, which owns every shard: nothing to fence.
    claim: ShardClaim | None = None

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.raw = connection

    async def execute(self, sql: str, params: Params = ()) -> Executed:
        """Run one statement; rows changed and last row id."""
        return await execute(self.raw, sql, params)

    async def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement per parameter row."""
        await self.raw.executemany(sql, rows)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of one query, in one round trip to the connection's thread."""
        return list(await self.raw.execute_fetchall(sql, params))


async def _connect(path: str | Path, settings: ConnectionSettings) -> aiosqlite.Connection:
    """A new connection to ``path`` with the store's pragmas applied."""
    # isolation_level=None: we issue BEGIN/COMMIT ourselves, so sqlite3 never opens
    # a transaction behind our back.
    connection = await aiosqlite.connect(str(path), isolation_level=None)
    connection.row_factory = sqlite3.Row
    try:
        await execute(connection, f"PRAGMA busy_timeout = {int(settings.busy_timeout_ms)}")
        await execute(connection, "PRAGMA journal_mode = WAL")
        await execute(connection, "PRAGMA foreign_keys = ON")
        await execute(connection, f"PRAGMA synchronous = {settings.synchronous}")
    except BaseException:
        await connection.close()
        raise
    return connection


async def _transaction(connection: aiosqlite.Connection, work: Work[T], begin: str | None) -> T:
    """Run ``work`` once inside ``begin`` ... COMMIT (rolled back if it fails), or on its own
    when ``begin`` is None."""
    if begin is None:
        return await work(SqliteConnection(connection))
    await execute(connection, begin)
    try:
        result = await work(SqliteConnection(connection))
        await execute(connection, "COMMIT")
    except BaseException:
        if connection.in_transaction:
            await execute(connection, "ROLLBACK")
        raise
    return result


class Database:
    """The SQLite backend: one connection, every use serialised, work in retried transactions.

    A failure that can clear (read-only file, I/O error, full disk) marks the connection stale:
    the next use closes it and connects again with the same settings, so the first write after
    the cause is gone succeeds instead of failing for the life of the process.
    """

    def __init__(
        self, connection: aiosqlite.Connection, path: str | Path, settings: ConnectionSettings
    ) -> None:
        self.connection = connection
        self.retry = settings.retry
        self._path = str(path)
        self._settings = settings
        self._stale = False
        self.dialect: Literal["sqlite"] = "sqlite"
        # One connection means one transaction at a time: statements from two coroutines
        # must never interleave inside the same BEGIN ... COMMIT.
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, settings: ConnectionSettings) -> Database:
        """Connect to ``path`` (or ``":memory:"``) with WAL, foreign keys and a busy timeout."""
        return cls(await _connect(path, settings), path, settings)

    async def close(self) -> None:
        """Close the connection after any running transaction has finished."""
        async with self._lock:
            await self.connection.close()

    async def write(self, work: Work[T]) -> T:
        """Run ``work`` in one write transaction (all or nothing), retrying while busy."""
        return await self._run(work, "BEGIN IMMEDIATE")

    async def read(self, work: Work[T]) -> T:
        """Run ``work`` in one read transaction, so its queries see one consistent state."""
        return await self._run(work, "BEGIN")

    async def statement(self, work: Work[T]) -> T:
        """Run ``work`` that issues a single statement, atomic on its own (autocommit).

        Saves the BEGIN and COMMIT round trips to the connection's thread on hot paths.
        """
        return await self._run(work, None)

    async def _run(self, work: Work[T], begin: str | None) -> T:
        return await run_shielded(self._run_locked(work, begin))

    async def _reopen(self) -> None:
        """Replace a stale connection by a new one (the caller holds the lock)."""
        try:
            await self.connection.close()
        except (sqlite3.Error, ValueError) as error:
            log.debug("closing the stale connection failed: %s", error)
        try:
            self.connection = await _connect(self._path, self._settings)
        except sqlite3.Error as error:
            raise StoreIOError(f"database could not be reopened: {error}") from error
        self._stale = False
        log.warning("store connection to %s reopened after a write failure", self._path)

    async def _run_locked(self, work: Work[T], begin: str | None) -> T:
        async with self._lock:
            if self._stale:
                await self._reopen()
            for attempt in range(self.retry.attempts):
                try:
                    return await _transaction(self.connection, work, begin)
                except sqlite3.OperationalError as error:
                    if not is_busy(error):
                        # An in-memory database cannot be reopened: it would come back empty.
                        if needs_reopen(error) and self._path != ":memory:":
                            self._stale = True
                        # Not worth a retry, but still the store's failure: callers that keep
                        # a game in memory through a busy store keep it through this too.
                        raise StoreIOError(f"database error: {error}") from error
                    if attempt + 1 == self.retry.attempts:
                        raise StoreBusyError(
                            f"database still busy after {self.retry.attempts} attempts"
                        ) from error
                except (sqlite3.Error, UnicodeError) as error:
                    # A constraint, a corrupt file, text sqlite3 cannot encode: the store's
                    # failure all the same, so callers handle one family of errors.
                    raise StoreIOError(f"database error: {error}") from error
                await asyncio.sleep(self.retry.delay(attempt))
        raise AssertionError("unreachable: the retry loop returns or raises")
