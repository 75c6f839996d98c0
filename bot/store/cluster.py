"""Show or change the shard count of the bot processes sharing one PostgreSQL database.

    python -m bot.store.cluster postgresql://uno@db.example:5432/uno            # show
    python -m bot.store.cluster postgresql://uno@db.example:5432/uno --reshard 4

Every process of a cluster must run with the database's shard count (the first claim records
it). To change it: stop every bot process, reshard, then start the processes with the new
``shard_count`` and shard ids covering 0..count-1. Resharding refuses while any process still
runs a shard. No game moves: each process restores its servers' games by the shard formula.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

import asyncpg

from .errors import StoreError
from .postgres import migrate_postgres
from .shards import cluster_shape, reshard, shards_running


async def _run(dsn: str, count: int | None) -> str:
    connection = await asyncpg.connect(dsn, timeout=10)
    try:
        await migrate_postgres(connection)
        if count is None:
            shape = await cluster_shape(connection)
            running = await shards_running(connection)
            recorded = "no shard count yet" if shape is None else f"{shape} shards"
            held = ", ".join(map(str, running)) or "none"
            return f"this database serves {recorded}; shards run now: {held}"
        old = await reshard(connection, count)
        before = "none" if old is None else str(old)
        return f"shard count {before} -> {count}: start every process with shard_count = {count}"
    finally:
        await connection.close()


def main(argv: list[str] | None = None) -> int:
    """Command line: print the cluster's shape, or reshard it; 1 with one line on failure."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.store.cluster",
        description="Show or change the shard count of a unoflip PostgreSQL database.",
    )
    parser.add_argument("postgres_url", help="postgresql://user@host:port/database (db_url)")
    parser.add_argument("--reshard", type=int, metavar="N", help="the new shard count")
    args = parser.parse_args(argv)
    try:
        print(asyncio.run(_run(args.postgres_url, args.reshard)))
    except (ValueError, OSError, StoreError, asyncpg.PostgresError) as error:
        print(f"unoflip: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
