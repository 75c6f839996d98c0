"""Every fault of the database is a StoreError, and saves come back after it clears.

Real faults of a real PostgreSQL: sessions ended by the server in the middle of a
transaction, a database made read-only and writable again. Text that PostgreSQL cannot hold
is cleaned on the way in, alike on both backends.
"""

from __future__ import annotations

import asyncio
import logging

import asyncpg
import pytest

from bot import persistence as persistence_module
from bot.engine import dumps
from bot.engine.simulate import RandomAgent
from bot.persistence import Persistence
from bot.store import Shards, Store, StoreIOError
from bot.store.backend import Connection
from bot.store.models import storable_text

from .conftest import SERVER_URL, TEST_POOL
from .factories import ANNA, new_game, play_and_save, query, started_table


async def _admin(sql: str, *args: object) -> None:
    connection = await asyncpg.connect(SERVER_URL, timeout=5)
    try:
        await connection.execute(sql, *args)
    finally:
        await connection.close()


async def _end_sessions(database: str) -> None:
    """End every session on ``database``, as a server restart does."""
    await _admin(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE datname = $1 AND pid <> pg_backend_pid()",
        database,
    )


def _name_of(url: str) -> str:
    return url.rsplit("/", 1)[-1]


async def _saved_state(store: Store, game_id: int) -> str:
    rows = await query(store, "SELECT state_json FROM snapshots WHERE game_id = ?", (game_id,))
    return str(rows[0][0])


def test_storable_text_drops_nul_and_lone_surrogates() -> None:
    """NUL goes, a lone surrogate becomes U+FFFD, anything else is kept as it is."""
    assert storable_text("An\x00na") == "Anna"
    assert storable_text("B\ud800en") == "B\ufffden"
    assert storable_text("Cärl 🤖") == "Cärl 🤖"


async def test_a_nul_in_a_display_name_is_stored_without_it(store: Store) -> None:
    """A name with NUL is accepted by both backends and reads back without the NUL."""
    game = await store.games.create_game(9001, 42, "flip", "{}", [(ANNA, "An\x00na"), (7, "B")])
    await store.games.upsert_player(8, "Do\x00ra\ud800")
    assert [seat.name for seat in game.players] == ["Anna", "B"]
    rows = await query(store, "SELECT display_name FROM players WHERE id = ?", (8,))
    assert rows == [("Dora\ufffd",)]


async def test_a_transaction_cut_off_by_the_server_is_a_store_error(pg_store: Store) -> None:
    """A session ended by the server between two statements of a transaction raises
    StoreIOError (not asyncpg's InterfaceError), and the next write goes through."""
    game = await new_game(pg_store)

    async def cut_off(connection: Connection) -> None:
        await connection.execute("UPDATE games SET updated_at = 1 WHERE id = ?", (game.id,))
        await connection.fetch_all("SELECT pg_terminate_backend(pg_backend_pid())")
        await connection.execute("UPDATE games SET updated_at = 2 WHERE id = ?", (game.id,))

    with pytest.raises(StoreIOError):
        await pg_store.database.write(cut_off)
    assert await pg_store.snapshots.save_snapshot(game.id, '{"after": 1}', "{}")
    assert await _saved_state(pg_store, game.id) == '{"after": 1}'


# Ends the session that writes a snapshot, inside its transaction, the first time only (a
# sequence, because the rollback of the cut transaction keeps no row of it).
_CUT_FIRST_SAVE = """
CREATE SEQUENCE cuts;
CREATE FUNCTION cut_session() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF nextval('cuts') = 1 THEN
        PERFORM pg_terminate_backend(pg_backend_pid());
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER cut_save BEFORE UPDATE ON snapshots FOR EACH ROW EXECUTE FUNCTION cut_session();
"""


async def test_a_save_cut_off_mid_transaction_is_written_once_the_server_is_back(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The save writer retries a move whose transaction the server cut off, and it lands."""
    monkeypatch.setattr(persistence_module, "RETRY_FIRST", 0.01)
    store = await Store.open_postgres(pg_url, TEST_POOL)
    try:
        table = started_table(seed=3)
        persistence = Persistence(store)
        assert await persistence.save(table)
        game_id = persistence.game_id(table.id)
        assert game_id is not None
        connection = await asyncpg.connect(pg_url)
        try:
            await connection.execute(_CUT_FIRST_SAVE)
        finally:
            await connection.close()
        assert not await play_and_save(persistence, table, RandomAgent(seed=3, patience=0))
        assert table.game is not None
        expected = dumps(table.game)
        for _ in range(1000):  # the writer's retry, after its (shortened) back-off
            if await _saved_state(store, game_id) == expected:
                break
            await asyncio.sleep(0.01)
        assert await _saved_state(store, game_id) == expected
    finally:
        await store.close()


async def test_saves_resume_once_a_read_only_database_is_writable_again(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Sessions opened while the database was read-only are replaced once it is writable, so
    the next save lands and the store says it is back."""
    name = _name_of(pg_url)
    store = await Store.open_postgres(pg_url, TEST_POOL)
    try:
        game = await new_game(store)
        await _admin(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
        await _end_sessions(name)
        with caplog.at_level(logging.WARNING, logger="bot.store.postgres"):
            refusals = []
            for move in range(3):
                # (The first may meet the session the server just ended instead.)
                with pytest.raises(StoreIOError) as refused:
                    await store.snapshots.save_snapshot(game.id, f'{{"move": {move}}}', "{}")
                refusals.append(str(refused.value))
            assert "read-only" in refusals[-1]
            # Sessions the pool opened while the database was read-only stay read-only: the
            # first save after it is writable again must not meet one and fail.
            await _admin(f'ALTER DATABASE "{name}" SET default_transaction_read_only = off')
            assert await store.snapshots.save_snapshot(game.id, '{"move": 3}', "{}")
        assert await _saved_state(store, game.id) == '{"move": 3}'
    finally:
        await store.close()
    assert any("is back" in record.getMessage() for record in caplog.records)


async def test_the_save_writer_retries_a_fault_of_any_kind(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save that fails with an error not of the store's family is retried, not dropped."""
    monkeypatch.setattr(persistence_module, "RETRY_FIRST", 0.01)
    table = started_table(seed=5)
    persistence = Persistence(sqlite_store)
    assert await persistence.save(table)
    game_id = persistence.game_id(table.id)
    assert game_id is not None
    real_save = sqlite_store.snapshots.save_snapshot
    calls: list[int] = []

    async def fails_once(game: int, state_json: str, ui_json: str) -> bool:
        calls.append(game)
        if len(calls) == 1:
            raise RuntimeError("a bug below the writer")
        return await real_save(game, state_json, ui_json)

    monkeypatch.setattr(sqlite_store.snapshots, "save_snapshot", fails_once)
    assert not await play_and_save(persistence, table, RandomAgent(seed=5, patience=0))
    assert table.game is not None
    expected = dumps(table.game)
    for _ in range(1000):  # the writer's retry, after its (shortened) back-off
        if len(calls) > 1:
            break
        await asyncio.sleep(0.01)
    assert await persistence.flush(10)
    assert await _saved_state(sqlite_store, game_id) == expected


async def test_a_lease_that_cannot_connect_is_a_store_error(pg_store: Store) -> None:
    """Claiming shards while the server refuses the lease's connection raises StoreIOError
    naming the shards (not asyncpg's or the socket's own error)."""
    pg_store.database.dsn = "postgresql://postgres@127.0.0.1:9/none"
    with pytest.raises(StoreIOError, match="lease on shard 0 of 1"):
        await pg_store.claim_shards(Shards(1, frozenset({0})), lease_timeout=1.0)
