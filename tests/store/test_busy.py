"""A locked database is retried with backoff and never loses a result silently."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.store import RetryPolicy, Store, StoreBusyError

from .factories import ANNA, BEN, new_game, standard_round

IMPATIENT = RetryPolicy(attempts=3, first_delay=0.001, max_delay=0.001)
PATIENT = RetryPolicy(attempts=50, first_delay=0.01, max_delay=0.2)


@pytest.fixture
def writer(db_path: Path) -> Iterator[sqlite3.Connection]:
    """A second connection to the test database, in autocommit mode."""
    connection = sqlite3.connect(db_path, isolation_level=None)
    yield connection
    connection.close()


async def test_locked_database_raises_after_the_last_retry(
    file_store: Store, db_path: Path, writer: sqlite3.Connection
) -> None:
    """While another connection holds the write lock, record_round raises StoreBusyError."""
    game = await new_game(file_store)
    impatient = await Store.open(db_path, busy_timeout_ms=1, retry=IMPATIENT)
    writer.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreBusyError):
            await impatient.games.record_round(game.id, standard_round(1, ANNA, {ANNA: 0, BEN: 9}))
    finally:
        writer.execute("ROLLBACK")
        await impatient.close()
    assert (await file_store.standings.stats(ANNA)).rounds_played == 0


async def test_busy_failure_can_be_retried_by_the_caller(
    file_store: Store, db_path: Path, writer: sqlite3.Connection
) -> None:
    """A round refused while locked is recorded by the caller's retry once the lock is gone."""
    game = await new_game(file_store)
    impatient = await Store.open(db_path, busy_timeout_ms=1, retry=IMPATIENT)
    round_one = standard_round(1, ANNA, {ANNA: 0, BEN: 9})
    writer.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreBusyError):
            await impatient.games.record_round(game.id, round_one)
        writer.execute("ROLLBACK")
        assert await impatient.games.record_round(game.id, round_one)
    finally:
        await impatient.close()


async def test_lock_released_during_backoff_lets_the_write_through(
    file_store: Store, db_path: Path, writer: sqlite3.Connection
) -> None:
    """A lock that goes away while the store is backing off does not fail the write."""
    game = await new_game(file_store)
    patient = await Store.open(db_path, busy_timeout_ms=1, retry=PATIENT)
    writer.execute("BEGIN IMMEDIATE")
    asyncio.get_running_loop().call_later(0.05, writer.execute, "ROLLBACK")
    try:
        assert await patient.games.record_round(game.id, standard_round(1, ANNA, {ANNA: 0, BEN: 9}))
    finally:
        await patient.close()
    assert (await file_store.standings.stats(ANNA)).total_points == 9


async def test_snapshot_write_is_retried_too(
    file_store: Store, db_path: Path, writer: sqlite3.Connection
) -> None:
    """A snapshot save waits out a short lock instead of dropping the state."""
    game = await new_game(file_store)
    patient = await Store.open(db_path, busy_timeout_ms=1, retry=PATIENT)
    writer.execute("BEGIN IMMEDIATE")
    asyncio.get_running_loop().call_later(0.05, writer.execute, "ROLLBACK")
    try:
        assert await patient.snapshots.save_snapshot(game.id, '{"move": 7}', "{}")
    finally:
        await patient.close()
    (live,) = await file_store.snapshots.load_live_games()
    assert live.state_json == '{"move": 7}'


def test_retry_delays_grow_and_are_capped() -> None:
    """Backoff doubles from the first delay up to the cap."""
    policy = RetryPolicy(attempts=6, first_delay=0.1, max_delay=0.5)
    assert [policy.delay(n) for n in range(5)] == [0.1, 0.2, 0.4, 0.5, 0.5]
