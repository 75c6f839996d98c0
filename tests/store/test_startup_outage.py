"""PostgreSQL at start-up: the pool's settings, and a transient outage retried, not status 2."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot import preflight
from bot.preflight import StartupError, check_database, postgres_settings
from bot.store import PostgresSettings
from tests.bot.conftest import make_settings

from .test_postgres import Outage


@pytest.fixture(autouse=True)
def no_outside_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Settings read no config file or UNO_ variables from the machine."""
    monkeypatch.setenv("UNO_CONFIG", f"{tmp_path}/absent.toml")


def test_the_pool_follows_the_settings(tmp_path: Path) -> None:
    """db_pool_min, db_pool_max and db_command_timeout size the PostgreSQL pool."""
    settings = make_settings(tmp_path, db_pool_min=2, db_pool_max=20, db_command_timeout=5)
    assert postgres_settings(settings) == PostgresSettings(
        min_size=2, max_size=20, command_timeout=5.0
    )


def test_a_pool_smaller_than_its_minimum_is_refused(tmp_path: Path) -> None:
    """db_pool_max below db_pool_min is a settings error naming db_pool_min."""
    with pytest.raises(ValidationError, match="db_pool_min"):
        make_settings(tmp_path, db_pool_min=5, db_pool_max=2)


async def test_a_server_that_comes_back_during_the_retries_is_used(
    shared_pg_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Unreachable at first: one line per failed attempt, then the check passes once the
    server answers."""
    monkeypatch.setattr(preflight, "STORE_RETRY_DELAYS", (0.05,) * 40)
    relay = Outage(shared_pg_url)
    await relay.start()
    await relay.cut()  # the port is known, nothing listens on it
    settings = make_settings(tmp_path, db_url=relay.url)

    async def back_after_the_first_failure() -> None:
        while "cannot reach" not in caplog.text:
            await asyncio.sleep(0.01)
        await relay.start()

    with caplog.at_level(logging.WARNING, logger="bot.preflight"):
        returning = asyncio.ensure_future(back_after_the_first_failure())
        try:
            await check_database(settings)
        finally:
            returning.cancel()
            if relay.server is not None:
                relay.server.close()
    lines = [r.getMessage() for r in caplog.records if "cannot reach" in r.getMessage()]
    assert lines and all("\n" not in line for line in lines)
    assert "(attempt 1 of 41)" in lines[0]


async def test_a_server_that_stays_down_is_status_1_after_the_retries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing listens: after every retry one line naming db_url, status 1 (not 2: a restart
    policy may try again later)."""
    monkeypatch.setattr(preflight, "STORE_RETRY_DELAYS", (0.0, 0.0))
    settings = make_settings(tmp_path, db_url="postgresql://postgres@127.0.0.1:9/none")
    with pytest.raises(StartupError) as stopped:
        await check_database(settings)
    assert stopped.value.status == 1
    assert str(stopped.value).startswith(
        "UNO_DB_URL: cannot reach postgresql://127.0.0.1:9/none after 3 attempts"
    )


async def test_a_missing_database_is_not_retried(
    shared_pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database that does not exist is the host's to fix: status 2 at once."""
    monkeypatch.setattr(preflight, "STORE_RETRY_DELAYS", (60.0,))
    missing = shared_pg_url.rsplit("/", 1)[0] + "/no_such_database_here"
    settings = make_settings(tmp_path, db_url=missing)
    with pytest.raises(StartupError) as stopped:
        await check_database(settings)
    assert stopped.value.status == 2
