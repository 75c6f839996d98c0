"""What the shard claim's check costs a write on PostgreSQL: the same writes, interleaved.

Two stores on one fresh database: a plain one (a single process, which checks nothing) and
one that claimed shard 0 of 2 (every write checks the claim's epoch, the fencing token). Each
saves a move's snapshot and records a round with its snapshot, turn about (which store goes
first alternates), so both see the same machine load; p50/p99 per store, in milliseconds.

    .venv/bin/python -m bench.fencing                 # 2,000 of each; about 15 s
    .venv/bin/python -m bench.fencing --samples 500   # quick run
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time

from bot.store import RoundRecord, RoundScore, Shards, Store

from .store import POSTGRES, admin, database_url, percentiles

# A server on shard 0 of 2, where the fenced store's claim lies.
GUILD = (2 << 22) | 1
PLAYERS = [(1, "Anna"), (2, "Ben")]
STATE = "x" * 8_000  # about a real 4-player snapshot's size


def round_record(round_no: int) -> RoundRecord:
    """Round ``round_no``: Anna wins one point from Ben."""
    return RoundRecord(
        round_no=round_no,
        winner_id=1,
        scores=[
            RoundScore(player_id=1, hand_points=0, points_awarded=1),
            RoundScore(player_id=2, hand_points=1, points_awarded=0),
        ],
    )


async def measure(url: str, samples: int) -> list[str]:
    """Snapshot and round times of the plain and the fenced store, taken turn about."""
    plain = await Store.open_postgres(url)
    fenced = await Store.open_postgres(url)
    try:
        await fenced.claim_shards(Shards(2, frozenset({0})))
        stores = {"plain": plain, "fenced": fenced}
        games = {
            name: (await store.games.create_game(GUILD, 1, "flip", "{}", PLAYERS)).id
            for name, store in stores.items()
        }
        times: dict[str, list[float]] = {
            f"{name} {kind}": [] for name in stores for kind in ("snapshot", "round")
        }
        for index in range(samples):
            order = list(stores) if index % 2 else list(reversed(stores))
            for name in order:
                store, game = stores[name], games[name]
                started = time.perf_counter()
                await store.snapshots.save_snapshot(game, STATE, "{}")
                times[f"{name} snapshot"].append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                await store.games.record_round(
                    game, round_record(index + 1), snapshot=(STATE, "{}")
                )
                times[f"{name} round"].append((time.perf_counter() - started) * 1000)
    finally:
        await plain.close()
        await fenced.close()
    return [f"{name}: {percentiles(figures)}" for name, figures in sorted(times.items())]


async def main(argv: list[str] | None = None) -> list[str]:
    """Run the comparison in a database of its own and print it; returns the lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--postgres", default=POSTGRES, help="PostgreSQL server URL")
    parser.add_argument("--samples", type=int, default=2_000, help="writes of each kind")
    args = parser.parse_args(argv)
    name = f"unoflip_fencing_{os.getpid()}"
    await admin(args.postgres, f'CREATE DATABASE "{name}"')
    try:
        lines = await measure(database_url(args.postgres, name), args.samples)
    finally:
        await admin(args.postgres, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    for line in lines:
        print(line)
    return lines


if __name__ == "__main__":
    asyncio.run(main())
