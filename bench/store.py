"""Benchmark the store: leaderboard pages and snapshot writes on a large database.

Builds a database with ``--rows`` per-player round-score rows (default 1,000,000) over
``--servers`` servers (default 1,000) by bulk-inserting version-1 rows with plain sqlite3,
then opens it with Store, which runs the later migrations (the player_totals backfill is timed
too). Then it times, through the public async API:

- a server leaderboard page (random server, sort, variant filter and page) and the caller's
  rank, p50/p99;
- a global leaderboard page and rank, p50/p99;
- a live-game snapshot write (a real 4-player engine snapshot) and a record_round, p50/p99.

    .venv/bin/python -m bench.store                 # a few minutes; results -> docs/benchmarks.md
    .venv/bin/python -m bench.store --rows 20000    # quick smoke run

Targets (issue 4): server page < 10 ms p99, global page < 50 ms p99, snapshot write < 2 ms p50.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path

import aiosqlite

from bot.engine import Game, RuleSet, dumps
from bot.store import RoundRecord, RoundScore, Store
from bot.store.migrate import migrate
from bot.store.models import Scope, SortKey, VariantFilter

SEATS = 4
ROUNDS_PER_GAME = 10
ROSTER = 60
PLAYER_POOL = 50_000
SORTS: tuple[SortKey, ...] = ("points", "matches_won", "rounds_won")
VARIANTS: tuple[VariantFilter, ...] = ("all", "flip", "classic")


def guild_id(index: int) -> int:
    """A snowflake-sized guild id."""
    return 700_000_000_000_000_000 + index


def player_id(index: int) -> int:
    """A snowflake-sized user id."""
    return 800_000_000_000_000_000 + index


Batch = tuple[str, Sequence[tuple[object, ...]]]


def generate(servers: int, rows: int, rng: random.Random) -> Iterator[Batch]:
    """Version-1 rows, one server at a time, as (table, rows) batches."""
    rounds_per_server = max(1, rows // SEATS // servers)
    game_id = round_id = 0
    for server in range(servers):
        guild = guild_id(server)
        roster = rng.sample(range(PLAYER_POOL), ROSTER)
        games, seats, rounds, scores, results = [], [], [], [], []
        for first in range(0, rounds_per_server, ROUNDS_PER_GAME):
            game_id += 1
            players = [player_id(p) for p in rng.sample(roster, SEATS)]
            variant = rng.choice(("flip", "flip", "classic"))
            scoring = "alternative" if rng.random() < 0.1 else "standard"
            totals = dict.fromkeys(players, 0)
            won = dict.fromkeys(players, 0)
            for round_no in range(1, min(ROUNDS_PER_GAME, rounds_per_server - first) + 1):
                round_id += 1
                winner = rng.choice(players)
                hands = {p: 0 if p == winner else rng.randint(0, 120) for p in players}
                rounds.append((round_id, game_id, round_no, winner, scoring))
                for player, points in hands.items():
                    awarded = points if scoring == "alternative" else 0
                    if scoring == "standard" and player == winner:
                        awarded = sum(hands.values())
                    totals[player] += awarded
                    scores.append((round_id, player, points, awarded))
                won[winner] += 1
            best = min if scoring == "alternative" else max
            winner = best(players, key=lambda p: totals[p])
            games.append((game_id, guild, variant, json.dumps({"scoring": scoring}), winner))
            for seat, player in enumerate(players):
                seats.append((game_id, player, seat, totals[player], won[player], 0))
                results.append((game_id, player, totals[player], won[player], player == winner))
        yield "games", games
        yield "game_players", seats
        yield "rounds", rounds
        yield "round_scores", scores
        yield "match_results", results


INSERTS = {
    "games": "INSERT INTO games (id, guild_id, channel_id, variant, rules_json, status,"
    " created_at, updated_at, finished_at, winner_id) VALUES (?, ?, 1, ?, ?, 'finished',"
    " 0, 0, 0, ?)",
    "game_players": "INSERT INTO game_players (game_id, player_id, seat, total_points,"
    " rounds_won, rounds_played) VALUES (?, ?, ?, ?, ?, ?)",
    "rounds": "INSERT INTO rounds (id, game_id, round_no, winner_id, side, scoring,"
    " recorded_at) VALUES (?, ?, ?, ?, 'light', ?, 0)",
    "round_scores": "INSERT INTO round_scores VALUES (?, ?, ?, ?)",
    "match_results": "INSERT INTO match_results VALUES (?, ?, ?, ?, ?)",
}


async def build(path: Path, servers: int, rows: int, seed: int) -> dict[str, float]:
    """Create the database at version 1, bulk-load it, then migrate with Store.open."""
    started = time.perf_counter()
    async with aiosqlite.connect(path, isolation_level=None) as migrating:
        await migrate(migrating, target=1)
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA synchronous = OFF")
    connection.execute("BEGIN")
    connection.executemany(
        "INSERT INTO players VALUES (?, ?, 0)",
        ((player_id(p), f"Player {p}") for p in range(PLAYER_POOL)),
    )
    for table, batch in generate(servers, rows, random.Random(seed)):
        connection.executemany(INSERTS[table], batch)
    connection.execute("COMMIT")
    connection.close()
    loaded = time.perf_counter()
    store = await Store.open(path)
    await store.close()
    return {"load_s": loaded - started, "migrate_s": time.perf_counter() - loaded}


async def sample(call: Callable[[], Awaitable[object]], count: int) -> list[float]:
    """Wall-clock milliseconds of ``count`` awaited calls."""
    times = []
    for _ in range(count):
        started = time.perf_counter()
        await call()
        times.append((time.perf_counter() - started) * 1000)
    return times


def percentiles(times: list[float]) -> str:
    """'p50 x ms, p99 y ms' of a sample."""
    cuts = statistics.quantiles(times, n=100, method="inclusive")
    return f"p50 {statistics.median(times):.3f} ms, p99 {cuts[98]:.3f} ms, max {max(times):.3f} ms"


async def measure(path: Path, servers: int, samples: int, seed: int) -> dict[str, str]:
    """Time leaderboard pages, ranks, snapshot writes and round records."""
    rng = random.Random(seed)
    store = await Store.open(path)
    figures: dict[str, str] = {}
    try:

        def board(scope: Scope) -> Callable[[], Awaitable[object]]:
            async def call() -> object:
                guild = guild_id(rng.randrange(servers))
                return await store.standings.leaderboard(
                    scope=scope,
                    guild_id=guild,
                    variant=rng.choice(VARIANTS),
                    sort=rng.choice(SORTS),
                    page=rng.randint(1, 8 if scope == "guild" else 3500),
                )

            return call

        def rank(scope: Scope) -> Callable[[], Awaitable[object]]:
            async def call() -> object:
                return await store.standings.rank_of(
                    player_id(rng.randrange(PLAYER_POOL)),
                    scope=scope,
                    guild_id=guild_id(rng.randrange(servers)),
                    variant=rng.choice(VARIANTS),
                    sort=rng.choice(SORTS),
                )

            return call

        for scope in ("guild", "global"):
            await sample(board(scope), 50)  # warm the page cache
            figures[f"{scope} leaderboard page"] = percentiles(await sample(board(scope), samples))
            figures[f"{scope} rank_of"] = percentiles(await sample(rank(scope), samples))

        players = [(player_id(p), f"Player {p}") for p in range(SEATS)]
        game = await store.games.create_game(guild_id(0), 1, "flip", "{}", players)
        engine = Game.new([str(p) for p, _ in players], RuleSet(variant="flip"), seed=seed)
        state = dumps(engine)
        ui = json.dumps({"table_message": 1234567890123456789, "hands": {}})

        async def snapshot() -> object:
            return await store.snapshots.save_snapshot(game.id, state, ui)

        figures[f"snapshot write ({len(state)} B)"] = percentiles(await sample(snapshot, samples))

        next_round = iter(range(1, samples + 1))

        async def record() -> object:
            round_no = next(next_round)
            winner = players[round_no % SEATS][0]
            return await store.games.record_round(
                game.id,
                RoundRecord(
                    round_no=round_no,
                    winner_id=winner,
                    scores=[
                        RoundScore(player_id=p, hand_points=0, points_awarded=int(p == winner))
                        for p, _ in players
                    ],
                ),
                snapshot=(state, ui),
            )

        figures["record_round with snapshot"] = percentiles(await sample(record, samples))
    finally:
        await store.close()
    return figures


async def main() -> None:
    """Build (or reuse) the database, measure, print a markdown summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rows", type=int, default=1_000_000, help="round-score rows")
    parser.add_argument("--servers", type=int, default=1_000)
    parser.add_argument("--samples", type=int, default=2_000, help="timed calls per figure")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--db", type=Path, help="reuse/keep this file (default: a temp dir)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = args.db or Path(folder) / "bench.sqlite3"
        build_times = {}
        if not path.exists():
            build_times = await build(path, args.servers, args.rows, args.seed)
        with sqlite3.connect(path) as connection:
            counts = {
                table: connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                for table in ("round_scores", "rounds", "games", "player_totals")
            }
            distinct = connection.execute(
                "SELECT COUNT(*) FROM player_totals WHERE scope = 0 AND variant = 'all'"
            ).fetchone()[0]
        connection.close()
        figures = await measure(path, args.servers, args.samples, args.seed)
        size_mb = path.stat().st_size / 1e6
    print(f"machine: {os.cpu_count()} CPUs, {platform.machine()}, {platform.platform()}")
    print(f"python {platform.python_version()}, sqlite {sqlite3.sqlite_version}")
    print(f"rows: {counts}, players on the global board: {distinct}, file {size_mb:.0f} MB")
    for name, seconds in build_times.items():
        print(f"{name}: {seconds:.1f}")
    for name, figure in figures.items():
        print(f"{name}: {figure}")


if __name__ == "__main__":
    asyncio.run(main())
