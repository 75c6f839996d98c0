"""python -m bot: load the settings, check them, log in and run the bot until stopped.

Every problem a host can meet at start-up ends in one line on stderr and an exit status: 2 for
something the host must fix (a setting, the token, the database file), 1 when Discord (or
PostgreSQL, at start-up) stayed unreachable through every retry (a restart policy may try
again later). A process of a shard cluster that finds one of its shards taken over by another
process while it runs also stops with one line and status 1.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sqlite3
import sys
import time

import aiohttp
import discord

from .client import UnoBot
from .config import ConfigError, Settings, load_settings, unknown_environment
from .health import Heartbeat
from .preflight import StartupError, check_database, describe_store_error, one_line
from .store.errors import StoreError

log = logging.getLogger("bot")

LOGIN_RETRY_DELAYS: tuple[float, ...] = (1, 2, 4, 8, 16, 32)
"""Seconds to wait after each failed attempt to reach Discord: about a minute in all."""
NETWORK_ERRORS = (aiohttp.ClientError, OSError, TimeoutError, discord.DiscordServerError)
"""What "cannot reach Discord" looks like: no route, no DNS, a dropped connection, a 5xx."""


def configure_logging(level: str) -> None:
    """Log to stdout with timestamps."""
    logging.basicConfig(
        stream=sys.stdout,
        level=level,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    # Said before every attempt to reach Discord; our own line per attempt says more.
    logging.getLogger("discord.client").addFilter(
        lambda record: record.getMessage() != "logging in using static token"
    )


def silence_voice_warnings() -> None:
    """The bot has no voice: drop discord.py's "PyNaCl/davey is not installed" warnings."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


async def log_in(settings: Settings, stop: asyncio.Event) -> UnoBot | None:
    """A logged-in bot (store open, games restored), or None when stopped while retrying.

    Raises StartupError for a token Discord refuses, a database that fails, or a network that
    stays down through every retry.
    """
    token = settings.discord_token.get_secret_value()
    started = time.monotonic()
    attempts = len(LOGIN_RETRY_DELAYS) + 1
    for attempt in range(1, attempts + 1):
        bot = UnoBot(settings)
        try:
            await bot.login(token)
            return bot
        except discord.LoginFailure:
            await bot.close()
            raise StartupError(
                f"Discord refused the token in {settings.label('discord_token')} "
                "(401 Unauthorized): copy a new one from the developer portal (Bot > Reset Token)"
            ) from None
        except (sqlite3.Error, StoreError) as exc:
            await bot.close()
            raise StartupError(describe_store_error(exc, settings)) from None
        except NETWORK_ERRORS as exc:
            await bot.close()
            if attempt == attempts:
                raise StartupError(
                    f"cannot reach Discord after {attempts} attempts in "
                    f"{time.monotonic() - started:.0f} s: {one_line(exc)}",
                    status=1,
                ) from None
            delay = LOGIN_RETRY_DELAYS[attempt - 1]
            log.warning(
                "cannot reach Discord (attempt %d of %d): %s; retrying in %g s",
                attempt,
                attempts,
                one_line(exc),
                delay,
            )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), delay)
            if stop.is_set():
                return None
    raise AssertionError("unreachable: the last attempt returns or raises")


async def run(settings: Settings) -> None:
    """Check the database, log in, run until SIGINT/SIGTERM, then shut down cleanly."""
    await check_database(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    heartbeat = Heartbeat(settings.health_file) if settings.health_file else None
    if heartbeat is not None:
        # Overwrites a previous run's file at once, so a quick restart never reads as healthy.
        heartbeat.beat({})
    bot = await log_in(settings, stop)
    if bot is None:
        log.info("stopped before connecting")
        return
    beating = asyncio.create_task(heartbeat.run(bot.health)) if heartbeat else None
    runner = asyncio.create_task(bot.connect())
    stopper = asyncio.create_task(stop.wait())
    try:
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper in done:
            log.info("shutting down")
        await bot.close()
        await runner
        if bot.shards_lost is not None:
            # Status 1: a restart policy may start it again; it then waits for its shards,
            # and refuses to start while the other process still runs them.
            raise StartupError(f"{settings.label('shard_ids')}: {bot.shards_lost}", status=1)
    finally:
        stopper.cancel()
        if beating is not None and heartbeat is not None:
            beating.cancel()
            heartbeat.remove()


def main() -> int:
    """Entry point: 0 after a clean stop, 2 for a problem the host must fix, 1 for no network."""
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"unoflip: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    for warning in unknown_environment(os.environ):
        log.warning(warning)
    silence_voice_warnings()
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run(settings))
    except StartupError as exc:
        print(f"unoflip: {exc}", file=sys.stderr)
        return exc.status
    return 0


if __name__ == "__main__":
    sys.exit(main())
