"""The lease check of every write: a shared advisory lock to its commit, no row lock."""

from __future__ import annotations

import asyncio

import asyncpg

from bot.store import Shards, Store
from bot.store.backend import Connection
from bot.store.repositories._sql import hold_shard
from bot.store.shards import SHARD_FENCE


async def test_a_write_fences_its_shard_without_locking_the_lease_row(
    pg_store: Store, shared_pg_url: str
) -> None:
    """While a write is in flight its shard's lease row stays unlocked (no MultiXact), and a
    claim's exclusive fence lock would wait for it; after the commit the fence is free."""
    await pg_store.claim_shards(Shards(2, frozenset({1})))
    inside, finish = asyncio.Event(), asyncio.Event()

    async def slow_write(connection: Connection) -> None:
        await hold_shard(connection, 1 << 22)  # a server on shard 1 of 2
        inside.set()
        await finish.wait()

    writing = asyncio.ensure_future(pg_store.database.write(slow_write))
    await inside.wait()
    other = await asyncpg.connect(shared_pg_url)
    try:
        async with other.transaction():
            row = await other.fetchrow(
                "SELECT epoch FROM shard_leases WHERE shard_id = 1 FOR UPDATE NOWAIT"
            )
            assert row is not None  # not locked by the write
            assert not await other.fetchval("SELECT pg_try_advisory_xact_lock($1, 1)", SHARD_FENCE)
        finish.set()
        await writing
        async with other.transaction():
            assert await other.fetchval("SELECT pg_try_advisory_xact_lock($1, 1)", SHARD_FENCE)
    finally:
        finish.set()
        await other.close()
