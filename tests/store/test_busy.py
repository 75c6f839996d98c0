"""A locked database is retried with backoff and never loses a result silently."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiosqlite
import pytest

from bot.store import (
    ConnectionSettings,
    GameRecord,
    RetryPolicy,
    Store,
    StoreBusyError,
    StoreError,
    StoreIOError,
)

from .factories import ANNA, BEN, new_game, standard_round

IMPATIENT = ConnectionSettings(
    busy_timeout_ms=1, retry=RetryPolicy(attempts=3, first_delay=0.001, max_delay=0.001)
)
PATIENT = ConnectionSettings(
    busy_timeout_ms=1, retry=RetryPolicy(attempts=50, first_delay=0.01, max_delay=0.2)
)


@pytest.fixture
async def game(file_store: Store) -> GameRecord:
    """A live game in the file database."""
    return await new_game(file_store)


@pytest.fixture
def writer(db_path: Path, game: GameRecord) -> Iterator[sqlite3.Connection]:
    """A second connection that holds the database's write lock until the test releases it."""
    connection = sqlite3.connect(db_path, isolation_level=None)
    connection.execute("BEGIN IMMEDIATE")
    yield connection
    if connection.in_transaction:
        connection.execute("ROLLBACK")
    connection.close()


@pytest.fixture
async def impatient(db_path: Path, game: GameRecord) -> AsyncIterator[Store]:
    """A store on the same file that gives up after three quick attempts."""
    opened = await Store.open(db_path, IMPATIENT)
    yield opened
    await opened.close()


@pytest.fixture
async def patient(db_path: Path, game: GameRecord) -> AsyncIterator[Store]:
    """A store on the same file that keeps retrying for several seconds."""
    opened = await Store.open(db_path, PATIENT)
    yield opened
    await opened.close()


def release_soon(writer: sqlite3.Connection) -> None:
    """Let the writer's lock go a moment from now, while the store is backing off."""
    asyncio.get_running_loop().call_later(0.05, writer.execute, "ROLLBACK")


async def test_locked_database_raises_after_the_last_retry(
    file_store: Store, impatient: Store, writer: sqlite3.Connection, game: GameRecord
) -> None:
    """While another connection holds the write lock, record_round raises StoreBusyError."""
    with pytest.raises(StoreBusyError):
        await impatient.games.record_round(game.id, standard_round(1, ANNA, {ANNA: 0, BEN: 9}))
    writer.execute("ROLLBACK")
    assert (await file_store.standings.stats(ANNA)).rounds_played == 0


async def test_busy_failure_can_be_retried_by_the_caller(
    impatient: Store, writer: sqlite3.Connection, game: GameRecord
) -> None:
    """A round refused while locked is recorded by the caller's retry once the lock is gone."""
    round_one = standard_round(1, ANNA, {ANNA: 0, BEN: 9})
    with pytest.raises(StoreBusyError):
        await impatient.games.record_round(game.id, round_one)
    writer.execute("ROLLBACK")
    assert await impatient.games.record_round(game.id, round_one)


async def test_lock_released_during_backoff_lets_the_write_through(
    file_store: Store, patient: Store, writer: sqlite3.Connection, game: GameRecord
) -> None:
    """A lock that goes away while the store is backing off does not fail the write."""
    release_soon(writer)
    assert await patient.games.record_round(game.id, standard_round(1, ANNA, {ANNA: 0, BEN: 9}))
    assert (await file_store.standings.stats(ANNA)).total_points == 9


async def test_snapshot_write_is_retried_too(
    file_store: Store, patient: Store, writer: sqlite3.Connection, game: GameRecord
) -> None:
    """A snapshot save waits out a short lock instead of dropping the state."""
    release_soon(writer)
    assert await patient.snapshots.save_snapshot(game.id, '{"move": 7}', "{}")
    (live,) = await file_store.snapshots.load_live_games()
    assert live.state_json == '{"move": 7}'


def test_retry_delays_grow_and_are_capped() -> None:
    """Backoff doubles from the first delay up to the cap."""
    policy = RetryPolicy(attempts=6, first_delay=0.1, max_delay=0.5)
    assert [policy.delay(n) for n in range(5)] == [0.1, 0.2, 0.4, 0.5, 0.5]


async def test_a_failure_that_is_not_a_lock_is_a_store_error_at_once(sqlite_store: Store) -> None:
    """Anything else SQLite refuses (here a missing table) is not retried and raises
    StoreIOError, a StoreError, so callers that survive a busy store survive it too."""
    attempts = 0

    async def work(connection: aiosqlite.Connection) -> None:
        nonlocal attempts
        attempts += 1
        await connection.execute("SELECT * FROM nowhere")

    with pytest.raises(StoreIOError) as caught:
        await sqlite_store.database.read(work)
    assert attempts == 1
    assert isinstance(caught.value, StoreError)
    assert isinstance(caught.value.__cause__, sqlite3.OperationalError)
