"""Benchmark the store on SQLite and PostgreSQL: leaderboards, snapshot writes, writes/s.

Builds a database with ``--rows`` per-player round-score rows (default 1,000,000) over
``--servers`` servers (default 1,000) by bulk-loading version-1 rows (plain sqlite3, or COPY on
PostgreSQL), then opens it with Store, which runs the later migrations (the player_totals
backfill is timed too). Then it times, through the public async API:

- a server leaderboard page (random server, sort, variant filter and page) and the caller's
  rank, p50/p99;
- a global leaderboard page and rank, p50/p99;
- a live-game snapshot write (a real 4-player engine snapshot) and a record_round, p50/p99;
- writes per second from ``--writers`` bot processes at once, each saving a snapshot per move
  and recording a round (with its snapshot) every tenth move on its own game.

``--shards`` (PostgreSQL) runs each process as a shard-cluster process: the timing process
claims shard 0 and writer n shard n + 1 of ``--writers`` + 1, with its games on its own
shard, so every write pays the shard claim's check (the fencing token).

    .venv/bin/python -m bench.store                        # SQLite; a few minutes
    .venv/bin/python -m bench.store --backend postgres     # creates and drops its own database
    .venv/bin/python -m bench.store --rows 20000 --writers 2 --write-seconds 2   # quick run

PostgreSQL: ``--postgres`` names the server (default the development server at
127.0.0.1:5432, user postgres); the benchmark works in a database of its own, dropped after.

Targets (issues 4 and 19): server page < 10 ms p99, global page < 50 ms p99, snapshot write
< 2 ms p50.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import platform
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiosqlite
import asyncpg

from bot.engine import Game, RuleSet, dumps
from bot.store import RoundRecord, RoundScore, Shards, Store, describe_url, open_store
from bot.store.backend import Connection
from bot.store.migrate import migrate
from bot.store.models import Scope, SortKey, VariantFilter
from bot.store.postgres import migrate_postgres
from bot.store.repositories.standings import board_key

SEATS = 4
ROUNDS_PER_GAME = 10
ROSTER = 60
PLAYER_POOL = 50_000
SORTS: tuple[SortKey, ...] = ("points", "matches_won", "rounds_won")
VARIANTS: tuple[VariantFilter, ...] = ("all", "flip", "classic")
POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"


def guild_id(index: int) -> int:
    """A snowflake-sized guild id."""
    return 700_000_000_000_000_000 + index


def player_id(index: int) -> int:
    """A snowflake-sized user id."""
    return 800_000_000_000_000_000 + index


Batch = tuple[str, Sequence[tuple[object, ...]]]


async def open_as_shard(url: str, shard: int, count: int) -> tuple[Store, int]:
    """The store of a process running ``shard`` of ``count`` (every shard when ``count`` is
    0), and a server id of that shard for its games."""
    store = await open_store(url)
    if not count:
        return store, guild_id(shard)
    await store.claim_shards(Shards(count, frozenset({shard})))
    return store, ((count + shard) << 22) | 1


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
    """Create the SQLite database at version 1, bulk-load it, then migrate with Store.open."""
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


# The generated version-1 rows as full PostgreSQL records, for COPY.
COPY_COLUMNS = {
    "games": (
        "id",
        "guild_id",
        "channel_id",
        "variant",
        "rules_json",
        "status",
        "created_at",
        "updated_at",
        "finished_at",
        "winner_id",
    ),
    "game_players": ("game_id", "player_id", "seat", "total_points", "rounds_won", "rounds_played"),
    "rounds": ("id", "game_id", "round_no", "winner_id", "side", "scoring", "recorded_at"),
    "round_scores": ("round_id", "player_id", "hand_points", "points_awarded"),
    "match_results": ("game_id", "player_id", "final_points", "rounds_won", "won"),
}


def copy_record(table: str, row: tuple[object, ...]) -> tuple[object, ...]:
    """One generated row, completed with the constants INSERTS fills in."""
    if table == "games":
        game, guild, variant, rules, winner = row
        return (game, guild, 1, variant, rules, "finished", 0, 0, 0, winner)
    if table == "rounds":
        round_id, game, round_no, winner, scoring = row
        return (round_id, game, round_no, winner, "light", scoring, 0)
    if table == "match_results":
        return (*row[:4], int(bool(row[4])))
    return row


async def build_postgres(url: str, servers: int, rows: int, seed: int) -> dict[str, float]:
    """Create the PostgreSQL database at version 1, COPY the rows in, then migrate."""
    started = time.perf_counter()
    connection = await asyncpg.connect(url)
    try:
        await migrate_postgres(connection, target=1)
        await connection.copy_records_to_table(
            "players",
            records=[(player_id(p), f"Player {p}", 0) for p in range(PLAYER_POOL)],
        )
        for table, batch in generate(servers, rows, random.Random(seed)):
            records = [copy_record(table, row) for row in batch]
            await connection.copy_records_to_table(
                table, records=records, columns=COPY_COLUMNS[table]
            )
        for table in ("games", "rounds"):
            await connection.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), MAX(id)) FROM {table}"
            )
    finally:
        await connection.close()
    loaded = time.perf_counter()
    store = await Store.open_postgres(url)
    await store.close()
    migrated = time.perf_counter()
    # What autovacuum does soon after a bulk load anyway: planner statistics and the
    # visibility map that lets the leaderboard's count use index-only scans.
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("VACUUM ANALYZE")
    finally:
        await connection.close()
    return {
        "load_s": loaded - started,
        "migrate_s": migrated - loaded,
        "vacuum_analyze_s": time.perf_counter() - migrated,
    }


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


async def measure(
    url: str, servers: int, samples: int, seed: int, shard_count: int = 0
) -> dict[str, str]:
    """Time leaderboard pages, ranks, snapshot writes and round records (as the process of
    shard 0 of ``shard_count``, when set)."""
    rng = random.Random(seed)
    store, own_guild = await open_as_shard(url, 0, shard_count)
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
        game = await store.games.create_game(own_guild, 1, "flip", "{}", players)
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


def writer(
    url: str, index: int, seconds: float, shard_count: int, ready: Any, start: Any, done: Any
) -> None:
    """One bot process: snapshot per move, a round every tenth move, on its own game (on its
    own shard when ``shard_count`` is set)."""

    async def run() -> int:
        shard = index + 1 if shard_count else 10_000 + index
        store, guild = await open_as_shard(url, shard, shard_count)
        players = [(player_id(900_000 + index * SEATS + seat), f"W{seat}") for seat in range(SEATS)]
        game = await store.games.create_game(guild, 1, "flip", "{}", players)
        state = Game.new([str(p) for p, _ in players], RuleSet(variant="flip"), seed=index)
        text, ui = dumps(state), json.dumps({"table_message": index})
        ready.release()
        await asyncio.to_thread(start.wait)
        writes, round_no = 0, 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            if writes % 10 == 9:
                round_no += 1
                winner = players[round_no % SEATS][0]
                scores = [
                    RoundScore(player_id=p, hand_points=0, points_awarded=int(p == winner))
                    for p, _ in players
                ]
                record = RoundRecord(round_no=round_no, winner_id=winner, scores=scores)
                await store.games.record_round(game.id, record, snapshot=(text, ui))
            else:
                await store.snapshots.save_snapshot(game.id, text, ui)
            writes += 1
        await store.close()
        return writes

    done.put(asyncio.run(run()))


def writes_per_second(url: str, processes: int, seconds: float, shard_count: int = 0) -> str:
    """Total committed writes per second from ``processes`` writer processes at once."""
    context = multiprocessing.get_context("spawn")
    ready, start, done = context.Semaphore(0), context.Event(), context.Queue()
    workers = [
        context.Process(target=writer, args=(url, n, seconds, shard_count, ready, start, done))
        for n in range(processes)
    ]
    for worker in workers:
        worker.start()
    for _ in workers:
        ready.acquire()
    start.set()
    total = sum(done.get(timeout=seconds + 120) for _ in workers)
    for worker in workers:
        worker.join()
    return f"{total / seconds:,.0f} writes/s ({processes} processes, {seconds:g} s, {total} writes)"


async def table_counts(url: str) -> tuple[dict[str, int], int, str]:
    """Rows per table, players on the global board, and the database's size."""
    store = await open_store(url)

    async def work(connection: Connection) -> tuple[dict[str, int], int]:
        counts = {}
        for table in ("round_scores", "rounds", "games", "player_totals"):
            rows = await connection.fetch_all(f"SELECT COUNT(*) AS n FROM {table}")
            counts[table] = int(rows[0]["n"])
        rows = await connection.fetch_all(
            "SELECT COUNT(*) AS n FROM player_totals WHERE scope = 0 AND variant = 'all'"
        )
        return counts, int(rows[0]["n"])

    try:
        counts, distinct = await store.database.read(work)
        if url.startswith("sqlite:"):
            size = Path(url.removeprefix("sqlite:///")).stat().st_size
        else:
            size = await store.database.read(
                lambda c: c.fetch_all("SELECT pg_database_size(current_database()) AS n")
            )
            size = int(size[0]["n"])
    finally:
        await store.close()
    return counts, distinct, f"{size / 1e6:.0f} MB"


async def admin(server: str, sql: str) -> None:
    """Run one statement on the PostgreSQL server's maintenance database."""
    connection = await asyncpg.connect(server)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def database_url(server: str, name: str) -> str:
    """The server URL pointing at database ``name``."""
    return urlunsplit(urlsplit(server)._replace(path=f"/{name}"))


async def fill_board(url: str, players: int, seed: int) -> float:
    """Put ``players`` players on the global board (scope 0, all variants): the seconds."""
    rng = random.Random(seed)
    started = time.perf_counter()
    names = [(player_id(p), f"Player {p}", 0) for p in range(players)]
    # A long tail of low scores and a few high ones, as real boards have: many ties low down.
    totals = [
        (0, "all", pid, int(rng.paretovariate(1.2) * 100), rng.randint(0, 40), rng.randint(0, 90))
        for pid, _, _ in names
    ]
    columns = ("scope", "variant", "player_id", "points", "matches_won", "rounds_won")
    if url.startswith("sqlite:"):
        connection = await aiosqlite.connect(url.removeprefix("sqlite:///"))
        try:
            await connection.executemany("INSERT INTO players VALUES (?, ?, ?)", names)
            await connection.executemany(
                f"INSERT INTO player_totals ({', '.join(columns)}) VALUES (?, ?, ?, ?, ?, ?)",
                totals,
            )
            await connection.commit()
        finally:
            await connection.close()
    else:
        pg = await asyncpg.connect(url)
        try:
            await pg.copy_records_to_table("players", records=names)
            await pg.copy_records_to_table("player_totals", records=totals, columns=columns)
            await pg.execute("VACUUM ANALYZE")  # as autovacuum leaves a real board
        finally:
            await pg.close()
    return time.perf_counter() - started


async def measure_board(url: str, players: int, samples: int, seed: int) -> dict[str, str]:
    """Time the global board at ``players`` players: pages by number, the next page by key,
    the first page, and a player's rank."""
    rng = random.Random(seed)
    store = await open_store(url)
    pages = -(-players // 10)
    figures: dict[str, str] = {}
    try:

        async def page_by_number() -> object:
            return await store.standings.leaderboard(
                scope="global", sort=rng.choice(SORTS), page=rng.randint(1, pages)
            )

        async def first_page() -> object:
            return await store.standings.leaderboard(scope="global", sort=rng.choice(SORTS))

        async def next_page_ms() -> float:
            """Only the keyed read is timed, not the page read to find its key."""
            number, sort = rng.randint(1, pages - 1), rng.choice(SORTS)
            shown = await store.standings.leaderboard(scope="global", sort=sort, page=number)
            started = time.perf_counter()
            await store.standings.leaderboard(
                scope="global", sort=sort, page=number + 1, after=board_key(shown.rows[-1], sort)
            )
            return (time.perf_counter() - started) * 1000

        async def rank() -> object:
            return await store.standings.rank_of(
                player_id(rng.randrange(players)), scope="global", sort=rng.choice(SORTS)
            )

        await sample(first_page, 20)  # warm the caches
        figures["first page"] = percentiles(await sample(first_page, samples))
        figures["page by number (random)"] = percentiles(await sample(page_by_number, samples))
        keyed = [await next_page_ms() for _ in range(samples)]
        figures["next page by key (random depth)"] = percentiles(keyed)
        # The rank table of each sort is read once (a process's first rank_of on the board
        # pays it; later refreshes run in the background), then ranks are one bisection.
        reads = []
        for sort in SORTS:
            started = time.perf_counter()
            await store.standings.refresh_ranks(scope="global", sort=sort)
            reads.append((time.perf_counter() - started) * 1000)
        figures["rank table read (once a minute, per sort)"] = percentiles(reads)
        figures["rank_of (random player)"] = percentiles(await sample(rank, samples))
        store.standings.exact_rank_limit = players  # counting the players ahead, as before
        figures["rank_of counted (before)"] = percentiles(await sample(rank, samples))
    finally:
        await store.close()
    return figures


async def run_board(args: argparse.Namespace, url: str) -> list[str]:
    """--players: fill and time the global board alone."""
    await (await open_store(url)).close()  # the latest schema, empty
    filled = await fill_board(url, args.players, args.seed)
    figures = await measure_board(url, args.players, args.samples, args.seed)
    return [
        f"{args.players:,} players on the global board, filled in {filled:.1f} s",
        *[f"{name}: {figure}" for name, figure in figures.items()],
    ]


async def run(args: argparse.Namespace, folder: Path) -> list[str]:
    """Build, measure and report one backend; the report's lines."""
    lines: list[str] = []
    build_times: dict[str, float] = {}
    bench_db = f"unoflip_bench_{os.getpid()}"
    if args.backend == "postgres":
        url = database_url(args.postgres, bench_db)
        await admin(args.postgres, f'CREATE DATABASE "{bench_db}"')
        if args.async_commit:
            # Commits return before the WAL reaches the disk, like SQLite's synchronous=NORMAL:
            # a killed bot loses nothing, a crashed server the last fraction of a second.
            await admin(args.postgres, f'ALTER DATABASE "{bench_db}" SET synchronous_commit = off')
    else:
        path = args.db or folder / "bench.sqlite3"
        url = f"sqlite:///{path}"
    try:
        if args.players:
            return [f"backend: {args.backend}", *await run_board(args, url)]
        if args.backend == "postgres":
            build_times = await build_postgres(url, args.servers, args.rows, args.seed)
        elif not path.exists():
            build_times = await build(path, args.servers, args.rows, args.seed)
        counts, distinct, size = await table_counts(url)
        shard_count = args.writers + 1 if args.shards else 0
        figures = await measure(url, args.servers, args.samples, args.seed, shard_count)
        if args.writers:
            figures["writes per second"] = writes_per_second(
                url, args.writers, args.write_seconds, shard_count
            )
        if args.backend == "postgres":
            connection = await asyncpg.connect(args.postgres)
            try:
                version = await connection.fetchval("SHOW server_version")
            finally:
                await connection.close()
            commit = "off" if args.async_commit else "on"
            cluster = f", each process claiming a shard of {shard_count}" if shard_count else ""
            lines.append(
                f"backend: PostgreSQL {version} at {describe_url(args.postgres)},"
                f" synchronous_commit={commit}{cluster}"
            )
        else:
            lines.append(f"backend: SQLite {sqlite3.sqlite_version}, WAL, synchronous=NORMAL")
    finally:
        if args.backend == "postgres":
            await admin(args.postgres, f'DROP DATABASE IF EXISTS "{bench_db}" WITH (FORCE)')
    lines.append(f"rows: {counts}, players on the global board: {distinct}, database {size}")
    lines += [f"{name}: {seconds:.1f}" for name, seconds in build_times.items()]
    lines += [f"{name}: {figure}" for name, figure in figures.items()]
    return lines


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--postgres", default=POSTGRES, help="PostgreSQL server URL")
    parser.add_argument(
        "--async-commit", action="store_true", help="PostgreSQL: synchronous_commit = off"
    )
    parser.add_argument(
        "--shards", action="store_true", help="PostgreSQL: each process claims its own shard"
    )
    parser.add_argument("--rows", type=int, default=1_000_000, help="round-score rows")
    parser.add_argument("--servers", type=int, default=1_000)
    parser.add_argument("--samples", type=int, default=2_000, help="timed calls per figure")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--writers", type=int, default=4, help="writer processes (0: skip)")
    parser.add_argument("--write-seconds", type=float, default=10.0)
    parser.add_argument("--db", type=Path, help="SQLite: reuse/keep this file (default: temp)")
    parser.add_argument(
        "--players", type=int, default=0, help="time only the global board at this many players"
    )
    return parser.parse_args(argv)


async def main(argv: list[str] | None = None) -> list[str]:
    """Run the benchmark and print a summary; returns the printed lines."""
    args = parse(argv)
    with tempfile.TemporaryDirectory() as folder:
        lines = [
            f"machine: {os.cpu_count()} CPUs, {platform.machine()}, {platform.platform()}",
            f"python {platform.python_version()}",
            *await run(args, Path(folder)),
        ]
    for line in lines:
        print(line)
    return lines


if __name__ == "__main__":
    asyncio.run(main())
