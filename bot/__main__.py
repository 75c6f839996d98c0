"""``unoflip`` (or ``python -m bot``): run the bot, check its set-up, back up or erase data.

``unoflip run`` (the default) loads the settings, checks them, logs in and runs the bot until
stopped; ``unoflip check`` runs the same start-up checks and stops before the network. Every
problem a host can meet at start-up ends in one line on stderr and an exit status: 2 for
something the host must fix (a setting, the token, the database file), 1 when Discord (or
PostgreSQL, at start-up) stayed unreachable through every retry (a restart policy may try
again later). A process of a shard
cluster that finds one of its shards taken over by another process while it runs also stops
with one line and status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sqlite3
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import aiohttp
import discord

from .client import UnoBot
from .compiled import describe_engine
from .config import ConfigError, LogLevel, Settings, load_settings, unknown_environment
from .health import Heartbeat
from .metrics import Metrics
from .operations import OperationError, backup_sqlite, forget_player
from .preflight import StartupError, check_database, describe_store_error, one_line
from .store import describe_url, migrate_to_postgres
from .store.errors import StoreError

log = logging.getLogger("bot")

LOGIN_RETRY_DELAYS: tuple[float, ...] = (1, 2, 4, 8, 16, 32)
"""Seconds to wait after each failed attempt to reach Discord: about a minute in all."""
NETWORK_ERRORS = (aiohttp.ClientError, OSError, TimeoutError, discord.DiscordServerError)
"""What "cannot reach Discord" looks like: no route, no DNS, a dropped connection, a 5xx."""


OWN_LOGGERS = ("bot", "cogs")
"""The bot's own loggers: ``log_level`` sets them; other libraries' get ``library_log_level``."""


def configure_logging() -> None:
    """Log to stdout with timestamps, at INFO until the settings name the levels."""
    logging.basicConfig(
        stream=sys.stdout,
        level=logging.INFO,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    # Said before every attempt to reach Discord; our own line per attempt says more.
    logging.getLogger("discord.client").addFilter(
        lambda record: record.getMessage() != "logging in using static token"
    )


def set_log_levels(level: LogLevel, library_level: LogLevel) -> None:
    """The bot's loggers at ``level``; every other at the less verbose of the two (so a
    ``DEBUG`` log is the bot's, not aiosqlite's line per statement)."""
    quietest = max(logging.getLevelName(level), logging.getLevelName(library_level))
    logging.getLogger().setLevel(quietest)
    for name in OWN_LOGGERS:
        logging.getLogger(name).setLevel(level)


def log_engine() -> None:
    """The first line: which copy of the engine runs (before the settings and any network)."""
    log.info("%s", describe_engine().describe())


def silence_voice_warnings() -> None:
    """The bot has no voice: drop discord.py's "PyNaCl/davey is not installed" warnings."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


async def log_in(
    settings: Settings, stop: asyncio.Event, metrics: Metrics | None = None
) -> UnoBot | None:
    """A logged-in bot (store open, games restored), or None when stopped while retrying.

    Raises StartupError for a token Discord refuses, a database that fails, or a network that
    stays down through every retry.
    """
    token = settings.discord_token.get_secret_value()
    started = time.monotonic()
    attempts = len(LOGIN_RETRY_DELAYS) + 1
    for attempt in range(1, attempts + 1):
        bot = UnoBot(settings, metrics=metrics)
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


async def serve_metrics(
    settings: Settings, port: int, metrics: Metrics, health: Callable[[], Mapping[str, bool]]
) -> None:
    """Listen on ``port`` (metrics_port) before logging in, so a port in use stops the start
    with one line; until the bot is up, /healthz answers 503."""
    try:
        await metrics.serve(port, health)
    except OSError as exc:
        raise StartupError(
            f"{settings.label('metrics_port')} is {port}, but the bot cannot listen on it "
            f"({one_line(exc)}); choose a free port"
        ) from None


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
    metrics = Metrics()
    started: list[UnoBot] = []  # the bot once logged in, for /healthz

    def health() -> Mapping[str, bool]:
        return started[0].health() if started else {}

    if settings.metrics_port is not None:
        await serve_metrics(settings, settings.metrics_port, metrics, health)
    try:
        bot = await log_in(settings, stop, metrics)
    except BaseException:
        await metrics.stop()
        raise
    if bot is None:
        await metrics.stop()
        log.info("stopped before connecting")
        return
    started.append(bot)
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
        await metrics.stop()
        if beating is not None and heartbeat is not None:
            beating.cancel()
            heartbeat.remove()


def start(*, require_token: bool = True) -> Settings | None:
    """Logging, the engine line, then the settings; None after saying why they failed."""
    configure_logging()
    log_engine()
    try:
        settings = load_settings(require_token=require_token)
    except ConfigError as exc:
        print(f"unoflip: {exc}", file=sys.stderr)
        return None
    set_log_levels(settings.log_level, settings.library_log_level)
    for warning in unknown_environment(os.environ):
        log.warning(warning)
    return settings


def main() -> int:
    """``unoflip run``: 0 after a clean stop, 2 for a problem the host must fix, 1 for no
    network."""
    settings = start()
    if settings is None:
        return 2
    silence_voice_warnings()
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run(settings))
    except StartupError as exc:
        print(f"unoflip: {exc}", file=sys.stderr)
        return exc.status
    return 0


def check() -> int:
    """``unoflip check``: the start-up checks alone (settings, database), then stop; 0 if the
    bot would start, else 2 with the one line ``unoflip run`` would print."""
    settings = start()
    if settings is None:
        return 2
    try:
        asyncio.run(check_database(settings))
    except StartupError as exc:
        print(f"unoflip: {exc}", file=sys.stderr)
        return exc.status
    log.info("ready to start: store %s", describe_url(settings.store_url))
    return 0


def store_url_for(database: str | None) -> str | None:
    """The store a maintenance command works on: ``--db`` (a URL or a SQLite file), else the
    settings' (no token needed); None after saying why the settings failed."""
    if database:
        return database if "://" in database else f"sqlite:///{database}"
    settings = start(require_token=False)
    return None if settings is None else settings.store_url


def backup(destination: Path, database: str | None) -> int:
    """``unoflip backup FILE``: the SQLite store copied to FILE, safely while the bot runs."""
    url = store_url_for(database)
    if url is None:
        return 2
    try:
        size = backup_sqlite(url, destination)
    except OperationError as exc:
        print(f"unoflip: {exc}", file=sys.stderr)
        return 2
    print(f"backed up {describe_url(url)} to {destination} ({size} bytes)")
    return 0


def forget(player_id: int, database: str | None) -> int:
    """``unoflip forget USER_ID``: erase a player's standings and stats."""
    url = store_url_for(database)
    if url is None:
        return 2
    try:
        erased = asyncio.run(forget_player(url, player_id))
    except (sqlite3.Error, StoreError, OSError) as exc:
        print(f"unoflip: cannot use {describe_url(url)}: {one_line(exc)}", file=sys.stderr)
        return 2
    print(f"forgot player {player_id}: {erased} rows erased or made anonymous")
    return 0


def parser() -> argparse.ArgumentParser:
    """The ``unoflip`` command line."""
    commands = argparse.ArgumentParser(
        prog="unoflip", description="Run the unoflip Discord bot, check it, back it up."
    )
    sub = commands.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser("run", help="run the bot until stopped (the default)")
    sub.add_parser("check", help="the start-up checks alone: settings and database, no network")
    copy = sub.add_parser("backup", help="copy the SQLite database to FILE, safe while it runs")
    copy.add_argument("file", type=Path, help="the new backup file (must not exist)")
    erase = sub.add_parser("forget", help="erase a player's standings and stats")
    erase.add_argument("user_id", type=int, help="the player's Discord user id")
    for command in (copy, erase):
        command.add_argument("--db", help="a db_url or SQLite file (default: the settings')")
    move = sub.add_parser(
        "migrate-to-postgres", help="copy a SQLite database into an empty PostgreSQL database"
    )
    move.add_argument("arguments", nargs=argparse.REMAINDER, help="SQLITE_PATH POSTGRES_URL")
    return commands


def cli(argv: list[str] | None = None) -> int:
    """The ``unoflip`` console script: one of its commands, ``run`` when none is given."""
    args = parser().parse_args(argv)
    commands: dict[str | None, Callable[[], int]] = {
        None: main,
        "run": main,
        "check": check,
        "backup": lambda: backup(args.file, args.db),
        "forget": lambda: forget(args.user_id, args.db),
        "migrate-to-postgres": lambda: migrate_to_postgres.main(args.arguments),
    }
    return commands[args.command]()


if __name__ == "__main__":
    sys.exit(cli())
