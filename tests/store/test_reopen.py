"""A database that cannot be written at start-up: writes fail, then recover once it can.

SQLite opens a file it may not write read-only and keeps that connection read-only for good,
so the store must connect again after such a failure. The tests make a real file unwritable
the way the bot meets it: chmod for an ordinary user; as root (who writes through chmod) the
immutable attribute, which stops root too.
"""

from __future__ import annotations

import logging
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.engine import Phase, dumps
from bot.engine.simulate import RandomAgent
from bot.persistence import Persistence, SessionSnapshot
from bot.store import Store, StoreIOError

from .factories import ANNA, BEN, new_game, play_and_save, standard_round, started_table


class Unwritable:
    """Makes one file unwritable for whoever runs the tests, and writable again."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.locked = False

    def lock(self) -> None:
        """Take write access away (root cannot be stopped by mode bits: use chattr +i)."""
        if os.geteuid() == 0:
            done = subprocess.run(["chattr", "+i", str(self.path)], capture_output=True)
            if done.returncode != 0:
                pytest.skip(f"running as root and chattr +i is unsupported here: {done.stderr!r}")
        else:
            self.path.chmod(0o444)
        self.locked = True

    def unlock(self) -> None:
        """Give write access back."""
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(self.path)], check=True)
        else:
            self.path.chmod(0o644)
        self.locked = False


@pytest.fixture
def unwritable(db_path: Path) -> Iterator[Unwritable]:
    """Controls write access to the test database; always left writable at the end."""
    control = Unwritable(db_path)
    yield control
    if control.locked:
        control.unlock()


async def test_writes_succeed_once_the_file_is_writable_again(
    db_path: Path, unwritable: Unwritable
) -> None:
    """Opened read-only, every write fails; after the file is writable the next write lands."""
    setup = await Store.open(db_path)
    game = await new_game(setup)
    await setup.close()
    unwritable.lock()
    store = await Store.open(db_path)  # the bot starts: SQLite falls back to read-only
    try:
        round_one = standard_round(1, ANNA, {ANNA: 0, BEN: 30})
        with pytest.raises(StoreIOError, match="readonly"):
            await store.games.record_round(game.id, round_one)
        with pytest.raises(StoreIOError, match="readonly"):
            await store.snapshots.save_snapshot(game.id, '{"move": 1}', "{}")
        unwritable.unlock()
        assert await store.games.record_round(game.id, round_one)
        assert await store.snapshots.save_snapshot(game.id, '{"move": 2}', "{}")
    finally:
        await store.close()
    reopened = await Store.open(db_path)
    try:
        (live,) = await reopened.snapshots.load_live_games()
        assert (await reopened.standings.stats(ANNA)).total_points == 30
    finally:
        await reopened.close()
    assert live.state_json == '{"move": 2}'


async def test_reopen_keeps_the_connection_settings(db_path: Path, unwritable: Unwritable) -> None:
    """The new connection has WAL, foreign keys and the busy timeout like the first one."""
    await (await Store.open(db_path)).close()
    unwritable.lock()
    store = await Store.open(db_path)
    try:
        with pytest.raises(StoreIOError):
            await store.lobbies.save(1, "a1", 2, "{}")
        unwritable.unlock()
        await store.lobbies.save(1, "a1", 2, "{}")
        connection = store.database.connection
        pragmas = {}
        for name in ("journal_mode", "foreign_keys", "busy_timeout"):
            async with connection.execute(f"PRAGMA {name}") as cursor:
                pragmas[name] = (await cursor.fetchone())[0]  # type: ignore[index]
    finally:
        await store.close()
    assert pragmas == {"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 2000}


async def test_a_reopen_that_still_fails_is_a_store_error(
    db_path: Path, unwritable: Unwritable
) -> None:
    """While the cause lasts every attempt raises StoreIOError, and a later one still recovers."""
    await (await Store.open(db_path)).close()
    unwritable.lock()
    store = await Store.open(db_path)
    try:
        for _ in range(3):
            with pytest.raises(StoreIOError):
                await store.lobbies.save(1, "a1", 2, "{}")
        unwritable.unlock()
        await store.lobbies.save(1, "a1", 2, '{"late": 1}')
        assert [lobby.lobby_json for lobby in await store.lobbies.load_all()] == ['{"late": 1}']
    finally:
        await store.close()


async def test_next_save_after_recovery_writes_rounds_and_state(
    db_path: Path, unwritable: Unwritable, caplog: pytest.LogCaptureFixture
) -> None:
    """A game started and a whole round played while the file is read-only are saved whole,
    the round included, by the first save after it is writable again."""
    table = started_table(seed=0)
    game = table.game
    assert game is not None
    agent = RandomAgent(seed=0, patience=0)  # always makes progress: a round of 30 moves
    await (await Store.open(db_path)).close()
    unwritable.lock()
    store = await Store.open(db_path)  # the bot starts on a file it cannot write
    persistence = Persistence(store)
    try:
        with caplog.at_level(logging.WARNING, logger="bot.persistence"):
            saved = [await play_and_save(persistence, table, agent)]
            while game.phase is not Phase.ROUND_OVER:
                saved.append(await play_and_save(persistence, table, agent))
        assert not any(saved)
        assert "saving failed" in caplog.text
        unwritable.unlock()
        table.next_round()
        assert await play_and_save(persistence, table, agent)
    finally:
        await store.close()

    reopened = await Store.open(db_path)
    try:
        (live,) = await reopened.snapshots.load_live_games()
        stats = await reopened.standings.stats(int(game.history[0].winner))
    finally:
        await reopened.close()
    assert live.state_json == dumps(game)
    ui = SessionSnapshot.model_validate_json(live.ui_json or "")
    assert (ui.serial, ui.recorded_rounds) == (table.serial, 1)
    assert (stats.rounds_won, stats.total_points) == (1, sum(game.history[0].awarded.values()))
