"""The PostgreSQL backend: an asyncpg pool, row-locked writes, migrations under a lock.

Every process of a sharded bot shares one PostgreSQL. Writes run READ COMMITTED; the
repositories lock a game's row for its round and finish writes, so two processes recording
the same round behave as two SQLite connections do (one commits, the other then sees it and
records nothing), while writes of different games never wait for each other. A deadlock or
serialization failure, should one happen, is retried like a busy SQLite file. A lost or
refused connection raises StoreIOError, as a failing SQLite file does, so play goes on in
memory; the pool connects afresh on the next call once the server is back. Every other fault
asyncpg reports (a transaction cut off mid-way, text it cannot encode, an error the server
raised) is a StoreIOError too: nothing of asyncpg's escapes the store. A connection that
cannot be trusted after its fault (a broken link, a session opened read-only) is replaced.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from .backend import Executed, Params, Row, Work, run_shielded
from .connection import RetryPolicy
from .errors import SchemaTooNewError, StoreBusyError, StoreIOError, StoreUnavailableError
from .migrate import load_migrations
from .shards import SHARD_TAKEN_SQLSTATE, ShardClaim, describe_shards

T = TypeVar("T")
log = logging.getLogger(__name__)

# pg_advisory_lock key held while migrating: two processes starting together migrate once.
MIGRATION_LOCK = 0x756E6F6D  # "unom"

# Faults of the server or the link to it, which clear by themselves (restart, failover, a
# freed disk): the store's caller keeps its state in memory and saves it again later.
_OUTAGES: tuple[type[BaseException], ...] = (
    OSError,  # refused, reset, unreachable; TimeoutError is one too
    asyncpg.PostgresConnectionError,  # class 08: the connection is gone
    asyncpg.exceptions.OperatorInterventionError,  # class 57: shutdown, terminated, cancelled
    asyncpg.exceptions.InsufficientResourcesError,  # class 53: disk full, too many connections
    asyncpg.exceptions.ReadOnlySQLTransactionError,  # a standby that is not promoted yet
)
_CONFLICTS = (asyncpg.SerializationError, asyncpg.DeadlockDetectedError)
# Faults on the client's side of a connection: asyncpg's InterfaceError (a transaction whose
# connection closed under it: "cannot call Transaction.__aexit__", which masks the lost
# connection), its internal protocol errors, and text it cannot encode (a lone surrogate).
_CLIENT_FAULTS: tuple[type[BaseException], ...] = (
    asyncpg.InterfaceError,
    asyncpg.exceptions.InternalClientError,
    UnicodeError,
)

_PLACEHOLDER = re.compile(r"\?|(?<![:\w]):([A-Za-z_]\w*)")


@functools.lru_cache(maxsize=512)
def translate(sql: str) -> tuple[str, tuple[str, ...]]:
    """The repositories' SQL with ``?`` and ``:name`` turned into ``$1, $2, ...``.

    Returns the new text and, for named parameters, their names in ``$n`` order (each name
    gets one number however often it appears); positional SQL returns no names.
    """
    names: list[str] = []
    positional = 0

    def number(match: re.Match[str]) -> str:
        nonlocal positional
        name = match[1]
        if name is None:
            positional += 1
            return f"${positional}"
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    text = _PLACEHOLDER.sub(number, sql)
    if positional and names:
        raise ValueError("SQL mixes ? and :name parameters")
    return text, tuple(names)


def _bind(sql: str, params: Params) -> tuple[str, Sequence[Any]]:
    text, names = translate(sql)
    if names:
        assert isinstance(params, dict), "named parameters need a mapping"
        return text, [params[name] for name in names]
    assert not isinstance(params, dict), "positional parameters need a sequence"
    return text, list(params)


def _rowcount(status: str) -> int:
    """Rows changed, from a command tag such as 'INSERT 0 1' or 'UPDATE 3'."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresConnection:
    """One pooled asyncpg connection as the repositories use it (see backend.Connection)."""

    dialect: Literal["postgres"] = "postgres"

    def __init__(self, connection: asyncpg.Connection, claim: ShardClaim | None = None) -> None:
        self.raw = connection
        self.claim = claim

    async def execute(self, sql: str, params: Params = ()) -> Executed:
        """Run one statement; rows changed (PostgreSQL has no last row id: use RETURNING)."""
        text, args = _bind(sql, params)
        return Executed(_rowcount(await self.raw.execute(text, *args)), None)

    async def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement per parameter row, pipelined."""
        await self.raw.executemany(translate(sql)[0], rows)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of one query."""
        text, args = _bind(sql, params)
        return list(await self.raw.fetch(text, *args))


@dataclass(frozen=True, slots=True)
class PostgresSettings:
    """Pool size, how long to wait for the server, and how conflicts are retried."""

    min_size: int = 1
    max_size: int = 10
    connect_timeout: float = 5.0
    command_timeout: float = 30.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)


def _reason(error: BaseException) -> str:
    """An error's message, or its kind when it has none (a timeout)."""
    return str(error) or type(error).__name__


def describe(dsn: str) -> str:
    """The server and database of a URL, without its user or password (for log lines)."""
    parts = urlsplit(dsn)
    return f"postgresql://{parts.hostname or 'localhost'}:{parts.port or 5432}{parts.path}"


def mask_password(dsn: str) -> str:
    """The URL with its password shown as ``***`` (the user, server and database kept)."""
    parts = urlsplit(dsn)
    if parts.password is None:
        return dsn
    user = f"{parts.username or ''}:***@"
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=user + host))


class PostgresDatabase:
    """The PostgreSQL backend behind Store: runs the repositories' work on a pooled connection."""

    dialect: Literal["postgres"] = "postgres"

    def __init__(self, pool: asyncpg.Pool, dsn: str, settings: PostgresSettings) -> None:
        self.pool = pool
        self.dsn = dsn
        self.retry = settings.retry
        self._where = describe(dsn)
        self._down_since: float | None = None
        # Why this process may write no more (its shards belong to another process now).
        self._fenced: str | None = None
        # The shard claim every write of a server's games and lobbies must still hold.
        self.claim: ShardClaim | None = None
        self._on_taken: Callable[[str], None] | None = None

    @classmethod
    async def open(cls, dsn: str, settings: PostgresSettings | None = None) -> PostgresDatabase:
        """Connect a pool to ``dsn`` and apply pending migrations under an advisory lock."""
        settings = settings or PostgresSettings()
        try:
            # Migrations run on a connection of their own, free of the pool's command
            # timeout: a backfill over millions of rows takes longer than any one query should.
            migrating = await asyncpg.connect(dsn, timeout=settings.connect_timeout)
            try:
                await migrate_postgres(migrating)
            finally:
                await migrating.close()
            pool = await asyncpg.create_pool(
                dsn,
                min_size=settings.min_size,
                max_size=settings.max_size,
                timeout=settings.connect_timeout,
                command_timeout=settings.command_timeout,
            )
        except (*_OUTAGES, *_CLIENT_FAULTS, asyncpg.PostgresError) as error:
            # An outage clears by itself (start-up retries it); a refused password or a
            # missing database does not.
            kind = StoreUnavailableError if isinstance(error, _OUTAGES) else StoreIOError
            raise kind(f"PostgreSQL at {describe(dsn)} is unavailable: {_reason(error)}") from error
        return cls(pool, dsn, settings)

    async def close(self) -> None:
        """Close every pooled connection, waiting for the calls in flight."""
        await self.pool.close()

    def fence(self, reason: str) -> None:
        """Refuse every later call with StoreIOError(``reason``): another process owns
        this one's shards now, and a late save from here would overwrite its newer state."""
        self._fenced = reason

    def hold(self, claim: ShardClaim, on_taken: Callable[[str], None]) -> None:
        """Check every later write of a server against ``claim``; a write that finds its
        shard claimed by another process is refused, and ``on_taken`` hears why."""
        self.claim = claim
        self._on_taken = on_taken

    async def write(self, work: Work[T]) -> T:
        """Run ``work`` in one READ COMMITTED transaction, retried on a deadlock."""
        return await run_shielded(self._run(work, "read_committed", readonly=False))

    async def read(self, work: Work[T]) -> T:
        """Run ``work`` in one read-only transaction that sees one consistent state."""
        return await run_shielded(self._run(work, "repeatable_read", readonly=True))

    async def statement(self, work: Work[T]) -> T:
        """Run ``work`` that issues a single statement (autocommit)."""
        return await run_shielded(self._run(work, None, readonly=False))

    async def _run(self, work: Work[T], isolation: str | None, *, readonly: bool) -> T:
        if self._fenced is not None:
            raise StoreIOError(f"not saved: {self._fenced}")
        for attempt in range(self.retry.attempts):
            try:
                result = await self._attempt(work, isolation, readonly=readonly)
                self._up()
                return result
            except _CONFLICTS as error:
                if attempt + 1 == self.retry.attempts:
                    raise StoreBusyError(
                        f"transaction still conflicting after {self.retry.attempts} attempts"
                    ) from error
            except asyncpg.exceptions.ReadOnlySQLTransactionError as error:
                # The pool may have opened this session while the database was read-only
                # (and _attempt has replaced them all): once more at once, on a new session,
                # so the first save after the database is writable again goes through.
                if attempt > 0:
                    raise self._failure(error) from error
                continue
            except asyncpg.PostgresError as error:
                if error.sqlstate == SHARD_TAKEN_SQLSTATE and self.claim is not None:
                    raise StoreIOError(f"not saved: {self._refused(error)}") from error
                raise self._failure(error) from error
            except (*_OUTAGES, *_CLIENT_FAULTS) as error:
                raise self._failure(error) from error
            await asyncio.sleep(self.retry.delay(attempt))
        raise AssertionError("unreachable: the retry loop returns or raises")

    async def _attempt(self, work: Work[T], isolation: str | None, *, readonly: bool) -> T:
        """Run ``work`` once on a pooled connection; a connection that cannot be trusted
        afterwards (its link broke, or its session was opened read-only) is not reused."""
        async with self.pool.acquire() as raw:
            try:
                connection = PostgresConnection(raw, self.claim)
                if isolation is None:
                    return await work(connection)
                async with raw.transaction(isolation=isolation, readonly=readonly):
                    return await work(connection)
            except asyncpg.exceptions.ReadOnlySQLTransactionError:
                # Every session keeps the default_transaction_read_only it was opened with,
                # so after the server (or database) is writable again only new sessions
                # write: replace this one and every other the pool holds.
                raw.terminate()
                await self.pool.expire_connections()
                raise
            except _CLIENT_FAULTS:
                # The client lost track of the connection (a transaction cut off by a
                # restart, a protocol fault): never hand it out again.
                raw.terminate()
                raise

    def _failure(self, error: BaseException) -> StoreIOError:
        """A database fault as the store's own error; an outage is logged once until it ends."""
        if isinstance(error, (*_OUTAGES, *_CLIENT_FAULTS)):
            self._down(error)
            return StoreIOError(f"PostgreSQL at {self._where} failed: {_reason(error)}")
        return StoreIOError(f"PostgreSQL at {self._where} refused the work: {_reason(error)}")

    def _refused(self, error: asyncpg.PostgresError) -> str:
        """Why hold_shard refused a write. A shard of this process claimed by another: refuse
        everything from now on and say so once. A server of a shard this process never ran
        (a bug): refuse that write alone."""
        assert self.claim is not None
        shards = self.claim.shards
        shard = int(getattr(error, "detail", None) or -1)
        if shard not in shards.ids:
            return (
                f"its server is on shard {shard} of {shards.count}, which this process does not run"
            )
        reason = (
            f"{describe_shards(shards, [shard])} was taken over by another bot "
            "process; this one's late write was refused"
        )
        if self._fenced is None:
            self.fence(reason)
            if self._on_taken is not None:
                self._on_taken(reason)
        return self._fenced or reason

    def _down(self, error: BaseException) -> None:
        # One warning per outage (callers log each failed save themselves).
        if self._down_since is None:
            self._down_since = time.monotonic()
            log.warning(
                "PostgreSQL at %s is unavailable (%s); games go on in memory and are saved "
                "again when it is back",
                self._where,
                error,
            )

    def _up(self) -> None:
        if self._down_since is not None:
            log.warning(
                "PostgreSQL at %s is back after %.0f s; saving again",
                self._where,
                time.monotonic() - self._down_since,
            )
            self._down_since = None


async def schema_version_postgres(connection: asyncpg.Connection) -> int:
    """The version a PostgreSQL database is at; 0 for an empty database."""
    await connection.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"
    )
    version = await connection.fetchval("SELECT MAX(version) FROM schema_version")
    return int(version) if version is not None else 0


async def migrate_postgres(connection: asyncpg.Connection, target: int | None = None) -> int:
    """Apply every PostgreSQL migration above the current version up to ``target``.

    Holds a session advisory lock throughout, so processes starting together migrate once:
    the second waits, then finds nothing left to do. Each migration commits with its
    schema_version row.
    """
    migrations = load_migrations("postgres")
    target = len(migrations) if target is None else target
    await connection.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        current = await schema_version_postgres(connection)
        if current > len(migrations):
            raise SchemaTooNewError(
                f"database schema is version {current}; this bot knows up to {len(migrations)}"
            )
        for migration in migrations[current:target]:
            async with connection.transaction():
                await connection.execute(migration.sql)
                await connection.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                    migration.version,
                    migration.name,
                    int(time.time() * 1000),
                )
        return await schema_version_postgres(connection)
    finally:
        await connection.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
