"""The heartbeat a running bot writes, read by the image's HEALTHCHECK command."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.client import INVITE_PERMISSIONS, invite_url
from bot.health import MAX_AGE, Heartbeat, problem

from ..test_image import exec_form, instructions
from .conftest import World

ROOT = Path(__file__).resolve().parents[2]


def run_healthcheck(path: Path) -> subprocess.CompletedProcess[str]:
    """The Dockerfile's HEALTHCHECK command, with the image's UNO_HEALTH_FILE set to ``path``."""
    (healthcheck,) = instructions("HEALTHCHECK")
    command = exec_form(healthcheck.split(" CMD ")[1])
    assert command[0] == "python"
    env = {**os.environ, "UNO_HEALTH_FILE": str(path), "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, *command[1:]], env=env, capture_output=True, text=True, timeout=60
    )


async def test_healthcheck_passes_for_a_live_bot_and_fails_once_it_stops(
    world: World, tmp_path: Path
) -> None:
    """Ready, connected and with its store open: healthy; after close: unhealthy, naming all."""
    path = tmp_path / "health.json"
    beating = asyncio.create_task(Heartbeat(path).run(world.bot.health, interval=0.01))
    for _ in range(500):
        if path.exists():
            break
        await asyncio.sleep(0.01)
    record = json.loads(path.read_text())
    assert record["ready"] and record["gateway"] and record["store"]
    assert record["pid"] == os.getpid()
    result = run_healthcheck(path)
    assert (result.returncode, result.stdout.strip()) == (0, "healthy")

    await world.bot.close()
    await asyncio.sleep(0.05)
    beating.cancel()
    result = run_healthcheck(path)
    assert result.returncode == 1
    assert result.stdout.strip() == ("unhealthy: not ready, not gateway connected, not store open")


def test_a_stale_heartbeat_is_unhealthy(tmp_path: Path) -> None:
    """A heartbeat older than MAX_AGE (a stuck loop, a killed process) fails the check."""
    path = tmp_path / "health.json"
    Heartbeat(path).beat({"ready": True, "gateway": True, "store": True})
    assert problem(path, time.time()) is None
    message = problem(path, time.time() + MAX_AGE + 1)
    assert message is not None and message.startswith("the last heartbeat is ")


def test_no_heartbeat_and_a_garbled_one_are_unhealthy(tmp_path: Path) -> None:
    """A missing file (starting, stopped) and one that is not JSON both exit 1."""
    path = tmp_path / "health.json"
    result = run_healthcheck(path)
    assert result.returncode == 1 and "no heartbeat at" in result.stdout
    path.write_text("{not json")
    assert "cannot read the heartbeat" in (problem(path, time.time()) or "")
    path.write_text("[]")
    assert "is not one this version writes" in (problem(path, time.time()) or "")


def test_a_heartbeat_that_cannot_be_written_warns_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A heartbeat that cannot be written logs one warning and never raises."""
    (tmp_path / "file").write_text("a file where the folder should be")
    heartbeat = Heartbeat(tmp_path / "file" / "health.json")
    with caplog.at_level(logging.WARNING, logger="bot.health"):
        heartbeat.beat({})
        heartbeat.beat({})
    assert [record.getMessage()[:33] for record in caplog.records] == [
        "cannot write the heartbeat file /"
    ]


async def test_the_invite_link_is_logged_once_when_ready(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """on_ready logs the invite link once, also when Discord sends READY again (a resume)."""
    bot = world.bot
    assert bot._invite_logged and bot.application_id is not None
    bot._invite_logged = False
    with caplog.at_level(logging.INFO, logger="bot.client"):
        await bot.on_ready()
        await bot.on_ready()
    links = [r.getMessage() for r in caplog.records if r.getMessage().startswith("invite link")]
    assert links == [f"invite link: {invite_url(bot.application_id)}"]


def test_the_invite_link_asks_for_exactly_what_the_bot_uses() -> None:
    """Scopes bot + applications.commands; View Channels, Send Messages, Embed Links, Read
    Message History, Attach Files, Create Public Threads and Send Messages in Threads, and
    nothing else."""
    expected = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 16) | (1 << 15) | (1 << 35) | (1 << 38)
    assert INVITE_PERMISSIONS.value == expected
    url = invite_url(1234)
    assert url.startswith("https://discord.com/oauth2/authorize?client_id=1234")
    assert "scope=bot+applications.commands" in url
    assert f"permissions={expected}" in url
