"""What the repositories need from a database, whichever engine holds it.

Repositories write their SQL once, in the dialect both engines accept: ``?`` for positional
parameters, ``:name`` for named ones, CASE instead of two-argument MAX/MIN, ``RETURNING`` for
new ids, columns qualified by table in upserts. Each backend runs that SQL on its engine and
wraps work in its transactions.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeAlias, TypeVar

from .shards import ShardClaim

T = TypeVar("T")
log = logging.getLogger(__name__)
# A result row: sqlite3.Row or asyncpg.Record; both read columns by name and list keys().
Row: TypeAlias = Any
Params: TypeAlias = Sequence[Any] | Mapping[str, Any]
Dialect = Literal["sqlite", "postgres"]


@dataclass(frozen=True, slots=True)
class Executed:
    """What a write statement did: rows changed and the last inserted row id."""

    rowcount: int
    lastrowid: int | None


class Connection(Protocol):
    """One connection, inside whatever transaction the backend opened for the work."""

    @property
    def dialect(self) -> Dialect:
        """Which engine this is."""
        ...

    @property
    def claim(self) -> ShardClaim | None:
        """The shard claim this process's writes must still hold, or None: nothing to check
        (SQLite, or a single process owning every shard)."""
        ...

    async def execute(self, sql: str, params: Params = ()) -> Executed:
        """Run one statement; how many rows it changed."""
        ...

    async def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement once per parameter row."""
        ...

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of one query."""
        ...


Work: TypeAlias = Callable[[Connection], Awaitable[T]]


class Backend(Protocol):
    """Runs work in transactions; raises the StoreError family for database faults."""

    @property
    def dialect(self) -> Dialect:
        """Which engine this is."""
        ...

    async def write(self, work: Work[T]) -> T:
        """Run ``work`` in one write transaction (all or nothing)."""
        ...

    async def read(self, work: Work[T]) -> T:
        """Run ``work`` in one read transaction (one consistent state)."""
        ...

    async def statement(self, work: Work[T]) -> T:
        """Run ``work`` that issues one statement, atomic on its own."""
        ...

    async def close(self) -> None:
        """Release the connections; the backend cannot be used afterwards."""
        ...


def _report_orphan(task: asyncio.Future[Any]) -> None:
    """Log the failure of a transaction whose caller was cancelled (nobody else will)."""
    if not task.cancelled() and task.exception() is not None:
        log.error("store write failed after its caller was cancelled", exc_info=task.exception())


async def run_shielded(transaction: Coroutine[Any, Any, T]) -> T:
    """Await ``transaction`` so that cancelling the caller does not cancel it.

    A caller cancelled mid-transaction (an interaction handler timing out) must neither leave
    a transaction open on a shared connection nor lose a result half sent to the database.
    """
    task = asyncio.ensure_future(transaction)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        task.add_done_callback(_report_orphan)
        raise
