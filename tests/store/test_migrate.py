"""Migrations: an empty database and every older version reach the latest schema."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.store import LATEST_VERSION, SchemaTooNewError, Store
from bot.store.migrate import load_migrations, migrate, schema_version
from bot.store.postgres import migrate_postgres, translate

from .conftest import TEST_POOL
from .factories import ANNA, BEN, CARL, GUILD, OTHER_GUILD, new_game, query, standard_round

# The history written straight into a version-1 database, as (guild, variant, rounds, winner).
# Each round is (round_no, round winner, hands); a match winner, when set, won the last round.
HISTORY = [
    (GUILD, "flip", [(1, ANNA, {ANNA: 0, BEN: 30, CARL: 7}), (2, BEN, {ANNA: 12, BEN: 0})], ANNA),
    (OTHER_GUILD, "classic", [(1, CARL, {ANNA: 50, CARL: 0})], None),
]


def version_1_rows() -> list[tuple[str, tuple[object, ...]]]:
    """HISTORY as the plain SQL inserts a version-1 bot would have made, in order."""
    statements: list[tuple[str, tuple[object, ...]]] = [
        ("INSERT INTO players VALUES (?, ?, 0)", (player, f"P{player}"))
        for player in (ANNA, BEN, CARL)
    ]
    round_id = 0
    for game_id, (guild, variant, rounds, match_winner) in enumerate(HISTORY, start=1):
        seats = sorted({p for _, _, hands in rounds for p in hands})
        status = "finished" if match_winner else "live"
        statements.append(
            (
                "INSERT INTO games (id, guild_id, channel_id, variant, rules_json, status,"
                " created_at, updated_at, winner_id) VALUES (?, ?, 1, ?, '{}', ?, 0, 0, ?)",
                (game_id, guild, variant, status, match_winner),
            )
        )
        totals = dict.fromkeys(seats, 0)
        for seat, player in enumerate(seats):
            statements.append(
                (
                    "INSERT INTO game_players (game_id, player_id, seat) VALUES (?, ?, ?)",
                    (game_id, player, seat),
                )
            )
        for round_no, winner, hands in rounds:
            round_id += 1
            statements.append(
                (
                    "INSERT INTO rounds (id, game_id, round_no, winner_id, side, scoring,"
                    " recorded_at) VALUES (?, ?, ?, ?, 'light', 'standard', 0)",
                    (round_id, game_id, round_no, winner),
                )
            )
            for player, points in hands.items():
                awarded = sum(hands.values()) if player == winner else 0
                totals[player] += awarded
                statements.append(
                    (
                        "INSERT INTO round_scores VALUES (?, ?, ?, ?)",
                        (round_id, player, points, awarded),
                    )
                )
        if match_winner:
            for player in seats:
                statements.append(
                    (
                        "INSERT INTO match_results VALUES (?, ?, ?, 0, ?)",
                        (game_id, player, totals[player], int(player == match_winner)),
                    )
                )
    return statements


def seed_version_1(path: Path) -> None:
    """Write HISTORY into a version-1 SQLite database, as a version-1 bot would have."""
    connection = sqlite3.connect(path)
    with connection:
        for sql, params in version_1_rows():
            connection.execute(sql, params)
    connection.close()


async def build_at_version(path: Path, version: int) -> None:
    """Create a database at ``version`` using the shipped migrations up to it."""
    async with aiosqlite.connect(path, isolation_level=None) as connection:
        assert await migrate(connection, target=version) == version


async def replay_history(store: Store) -> None:
    """Record HISTORY through today's API."""
    for guild, variant, rounds, match_winner in HISTORY:
        seats = sorted({p for _, _, hands in rounds for p in hands})
        game = await new_game(store, seats, guild_id=guild, variant=variant)
        for index, (round_no, winner, hands) in enumerate(rounds):
            last = index == len(rounds) - 1
            ends_match = match_winner if last else None
            await store.games.record_round(
                game.id, standard_round(round_no, winner, hands, match_winner=ends_match)
            )


async def all_totals(store: Store) -> list[tuple[object, ...]]:
    """Every player_totals row, sorted (on either backend)."""
    return await query(store, "SELECT * FROM player_totals ORDER BY scope, variant, player_id")


def test_migration_numbers_are_contiguous() -> None:
    """The shipped migrations are numbered 1..LATEST_VERSION."""
    assert [m.version for m in load_migrations()] == list(range(1, LATEST_VERSION + 1))


async def test_empty_database_migrates_to_latest(db_path: Path) -> None:
    """Opening a new file creates every table at the latest version."""
    store = await Store.open(db_path)
    try:
        assert await schema_version(store.database.connection) == LATEST_VERSION
    finally:
        await store.close()


async def test_reopening_applies_nothing_twice(db_path: Path) -> None:
    """A second open of a migrated database keeps one schema_version row per migration."""
    await (await Store.open(db_path)).close()
    await (await Store.open(db_path)).close()
    connection = sqlite3.connect(db_path)
    versions = [row[0] for row in connection.execute("SELECT version FROM schema_version")]
    connection.close()
    assert versions == list(range(1, LATEST_VERSION + 1))


@pytest.mark.parametrize("version", range(1, LATEST_VERSION))
async def test_older_version_with_data_migrates_to_latest(db_path: Path, version: int) -> None:
    """A database at an older version, holding history, migrates and keeps every total."""
    await build_at_version(db_path, 1)
    seed_version_1(db_path)
    await build_at_version(db_path, version)  # the history as a bot at that version kept it
    migrated = await Store.open(db_path)
    reference = await Store.open(":memory:")
    try:
        await replay_history(reference)
        assert await schema_version(migrated.database.connection) == LATEST_VERSION
        assert await all_totals(migrated) == await all_totals(reference)
    finally:
        await migrated.close()
        await reference.close()


async def test_version_2_database_gains_an_empty_lobbies_table(db_path: Path) -> None:
    """Upgrading a version-2 database with history adds lobbies, empty and ready to save."""
    await build_at_version(db_path, 1)
    seed_version_1(db_path)
    await build_at_version(db_path, 2)
    store = await Store.open(db_path)
    try:
        assert await schema_version(store.database.connection) == LATEST_VERSION
        assert await store.lobbies.load_all() == []
        await store.lobbies.save(7, "a1", GUILD, "{}")
        assert [lobby.channel_id for lobby in await store.lobbies.load_all()] == [7]
        assert len(await store.snapshots.load_live_games()) == 1  # the seeded live game
    finally:
        await store.close()


async def test_newer_schema_is_refused(db_path: Path) -> None:
    """A database from a newer bot raises instead of being written by older code."""
    await (await Store.open(db_path)).close()
    connection = sqlite3.connect(db_path)
    with connection:
        connection.execute("INSERT INTO schema_version VALUES (?, 'future.sql', 0)", (999,))
    connection.close()
    with pytest.raises(SchemaTooNewError):
        await Store.open(db_path)


async def test_file_database_uses_wal_and_foreign_keys(file_store: Store) -> None:
    """The connection runs in WAL mode with foreign keys enforced."""
    connection = file_store.database.connection
    async with connection.execute("PRAGMA journal_mode") as cursor:
        assert (await cursor.fetchone())[0] == "wal"
    async with connection.execute("PRAGMA foreign_keys") as cursor:
        assert (await cursor.fetchone())[0] == 1


@pytest.mark.parametrize("version", range(1, LATEST_VERSION))
async def test_older_postgres_database_with_data_migrates_to_latest(
    pg_url: str, version: int
) -> None:
    """The PostgreSQL migrations backfill the same totals as SQLite's from the same history."""
    connection = await asyncpg.connect(pg_url)
    try:
        await migrate_postgres(connection, target=1)
        for sql, params in version_1_rows():
            await connection.execute(translate(sql)[0], *params)
        assert await migrate_postgres(connection, target=version) == version
    finally:
        await connection.close()
    migrated = await Store.open_postgres(pg_url, TEST_POOL)
    reference = await Store.open(":memory:")
    try:
        await replay_history(reference)
        assert await all_totals(migrated) == await all_totals(reference)
        assert len(await migrated.snapshots.load_live_games()) == 1  # the seeded live game
    finally:
        await migrated.close()
        await reference.close()


def schema_objects(path: Path) -> set[tuple[str, str, str]]:
    """Every index and trigger of a SQLite file, as (type, name, table)."""
    connection = sqlite3.connect(path)
    rows = connection.execute(
        "SELECT type, name, tbl_name FROM sqlite_master WHERE type IN ('index', 'trigger')"
    ).fetchall()
    connection.close()
    return set(rows)


async def test_version_9_database_takes_every_variant(db_path: Path) -> None:
    """After 0010 a migrated database saves a game of a variant 0001 did not know."""
    await build_at_version(db_path, 1)
    seed_version_1(db_path)
    await build_at_version(db_path, 9)
    store = await Store.open(db_path)
    try:
        game = await new_game(store, (ANNA, BEN), variant="junior")
        await store.games.record_round(
            game.id, standard_round(1, ANNA, {ANNA: 0, BEN: 0}, match_winner=ANNA)
        )
        board = await store.standings.leaderboard(
            scope="guild", guild_id=GUILD, variant="junior", sort="matches_won"
        )
        assert [(row.player_id, row.matches_won) for row in board.rows] == [(ANNA, 1), (BEN, 0)]
        assert board.total_players == 2  # board_sizes' trigger counts the new board
    finally:
        await store.close()


async def test_rebuilt_tables_keep_their_indexes_and_triggers(tmp_path: Path) -> None:
    """0010's table rebuild leaves the same indexes and triggers as a new database has."""
    old, new = tmp_path / "old.db", tmp_path / "new.db"
    await build_at_version(old, 1)
    seed_version_1(old)
    await (await Store.open(old)).close()
    await (await Store.open(new)).close()
    assert schema_objects(old) == schema_objects(new)


async def test_rebuilt_games_table_never_reuses_an_id(db_path: Path) -> None:
    """A game deleted before 0010 keeps its id used: the next game gets a higher one."""
    await build_at_version(db_path, 1)
    seed_version_1(db_path)
    connection = sqlite3.connect(db_path)
    with connection:
        connection.execute(
            "INSERT INTO games VALUES (50, 1, 1, 'flip', '{}', 'live', 0, 0, NULL, NULL)"
        )
        connection.execute("DELETE FROM games WHERE id = 50")
    connection.close()
    store = await Store.open(db_path)
    try:
        assert (await new_game(store)).id == 51
    finally:
        await store.close()


async def test_postgres_version_9_database_takes_every_variant(pg_url: str) -> None:
    """After PostgreSQL's 0010 a game of a variant 0001 did not know is saved and scored."""
    connection = await asyncpg.connect(pg_url)
    try:
        assert await migrate_postgres(connection, target=9) == 9
    finally:
        await connection.close()
    store = await Store.open_postgres(pg_url, TEST_POOL)
    try:
        game = await new_game(store, (ANNA, BEN), variant="nomercy")
        await store.games.record_round(game.id, standard_round(1, BEN, {ANNA: 40, BEN: 0}))
        board = await store.standings.leaderboard(scope="global", variant="nomercy")
        assert [(row.player_id, row.points) for row in board.rows] == [(BEN, 40), (ANNA, 0)]
    finally:
        await store.close()
