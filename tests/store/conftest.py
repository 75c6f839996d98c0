"""Fixtures for the store tests: the same store on SQLite and on PostgreSQL, and files.

The ``store`` fixture runs each test that takes it on both backends. PostgreSQL is the server
at 127.0.0.1:5432 (user postgres, trust auth; UNO_TEST_POSTGRES names another); the tests
create their own databases and drop them. Without a server they are skipped, except under
CI=true, where a missing server fails them so they can never silently stop running.
"""

from __future__ import annotations

import asyncio
import os
import threading
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.store import PostgresSettings, Store

T = TypeVar("T")
SERVER_URL = os.environ.get("UNO_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
TEST_POOL = PostgresSettings(min_size=1, max_size=4, connect_timeout=5.0)
TABLES = (
    "match_history_rounds, match_history_players, match_history,"
    " server_settings, lobbies, snapshots, match_results, round_scores, rounds, game_players,"
    " player_totals, games, players, shard_leases, cluster_shape, board_sizes"
)


def run_in_thread(make: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine to the end on its own loop in another thread (from sync or async code)."""
    result: list[T] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(make()))  # type: ignore[arg-type]
        except BaseException as error:
            failure.append(error)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]


def database_url(name: str) -> str:
    """The server URL pointing at database ``name``."""
    parts = urlsplit(SERVER_URL)
    return urlunsplit(parts._replace(path=f"/{name}"))


async def _admin(sql: str) -> None:
    connection = await asyncpg.connect(SERVER_URL, timeout=5)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def create_database() -> str:
    """A new empty database on the test server; its URL."""
    name = f"unoflip_test_{uuid.uuid4().hex[:12]}"
    run_in_thread(lambda: _admin(f'CREATE DATABASE "{name}"'))
    return database_url(name)


def drop_database(url: str) -> None:
    """Drop a database made by create_database, closing whatever still uses it."""
    name = urlsplit(url).path.lstrip("/")
    run_in_thread(lambda: _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


_server_error: list[str] = []


@pytest.fixture(scope="session")
def postgres_server() -> str:
    """The test server's URL; skip (or fail under CI=true) when no server answers."""
    return require_postgres()


def require_postgres() -> str:
    """The test server's URL; skips the test (fails it under CI=true) when no server answers."""
    if not _server_error:
        try:
            run_in_thread(lambda: _admin("SELECT 1"))
            _server_error.append("")
        except (OSError, asyncpg.PostgresError) as error:
            _server_error.append(f"{type(error).__name__}: {error}")
    if _server_error[0]:
        reason = f"no PostgreSQL server answers at {SERVER_URL} ({_server_error[0]})"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}; CI must run the PostgreSQL tests")
        pytest.skip(reason)
    return SERVER_URL


@pytest.fixture
def pg_url(postgres_server: str) -> Iterator[str]:
    """A fresh empty PostgreSQL database for one test, dropped afterwards."""
    url = create_database()
    yield url
    drop_database(url)


@pytest.fixture(scope="session")
def shared_pg_url(postgres_server: str) -> Iterator[str]:
    """One migrated PostgreSQL database for the whole session; tests empty it before use."""
    url = create_database()
    run_in_thread(lambda: _open_and_close(url))
    yield url
    drop_database(url)


async def _open_and_close(url: str) -> None:
    await (await Store.open_postgres(url, TEST_POOL)).close()


async def _empty(url: str) -> None:
    connection = await asyncpg.connect(url, timeout=5)
    try:
        await connection.execute(f"TRUNCATE {TABLES} RESTART IDENTITY")
    finally:
        await connection.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def store(request: pytest.FixtureRequest) -> AsyncIterator[Store]:
    """A fresh empty store: in-memory SQLite, or an emptied PostgreSQL database."""
    if request.param == "sqlite":
        opened: Store[Any] = await Store.open(":memory:")
    else:
        url = request.getfixturevalue("shared_pg_url")
        await _empty(url)
        opened = await Store.open_postgres(url, TEST_POOL)
    yield opened
    await opened.close()


@pytest.fixture
async def pg_store(shared_pg_url: str) -> AsyncIterator[Store]:
    """A fresh empty PostgreSQL store, for tests of PostgreSQL's own behaviour."""
    await _empty(shared_pg_url)
    opened = await Store.open_postgres(shared_pg_url, TEST_POOL)
    yield opened
    await opened.close()


@pytest.fixture
async def sqlite_store() -> AsyncIterator[Store]:
    """A fresh in-memory SQLite store, for tests of SQLite's own behaviour."""
    opened = await Store.open(":memory:")
    yield opened
    await opened.close()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where a file-backed test database lives."""
    return tmp_path / "uno.sqlite3"


@pytest.fixture
async def file_store(db_path: Path) -> AsyncIterator[Store]:
    """A fresh store on a file (WAL), for tests that need a second connection."""
    opened = await Store.open(db_path)
    yield opened
    await opened.close()


async def someone_waits_for_a_shard(url: str) -> None:
    """Return once a session waits on the server for a shard lock another one holds."""
    admin = await asyncpg.connect(url)
    try:
        for _ in range(1000):
            if await admin.fetchval(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            ):
                return
            await asyncio.sleep(0.01)
    finally:
        await admin.close()
    raise AssertionError("no claim ever waited for the shard")


async def end_session_of(connection: asyncpg.Connection, url: str) -> None:
    """End a connection's session on the server, as a database restart or a dropped link
    does: the client only learns of it from the closed socket."""
    admin = await asyncpg.connect(url)
    try:
        assert await admin.fetchval("SELECT pg_terminate_backend($1)", connection.get_server_pid())
    finally:
        await admin.close()


async def until(condition: Callable[[], bool]) -> None:
    """Wait (up to 10 s) for something the lease does in the background."""
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the lease never got there")
