"""Child process for test_shards: takes a shard lease and holds it until it is killed.

Usage: python lease_holder.py DB_URL SHARD_COUNT SHARD_ID. Prints "held" once it holds it.
"""

from __future__ import annotations

import asyncio
import sys

from bot.store import Shards, Store


async def hold(url: str, count: int, shard: int) -> None:
    """Claim the shard, say so, and wait for the kill."""
    store = await Store.open_postgres(url)
    await store.claim_shards(Shards(count, frozenset({shard})), lease_timeout=5.0)
    print("held", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(hold(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
