"""Benchmark a restart at scale: how long the bot takes to bring back saved games and lobbies.

A SQLite file is filled through the store API with ``--games`` live games (2-4 players, half UNO
Flip and half classic, each a few random moves into its first round, saved as the bot saves
them: engine state plus the session's ``ui`` blob) and ``--lobbies`` open lobbies. Then a fresh
``UnoBot`` does what start-up does: ``setup_hook`` reads the rows, then the background task
restores them in slices. Measured:

- the rows' read (``SessionManager.read_saved``, one query each for games and lobbies): what
  ``setup_hook`` awaits before the bot connects, so no click can be answered sooner;
- the whole restore's wall time: the read, then ``SessionManager.restore_saved`` (parsing each
  snapshot, rebuilding sessions, starting their timers), which the bot runs in the background;
- the event loop's longest stall meanwhile, seen by a task that asks to wake every 10 ms: a
  click that arrives during the restore waits at most about that long for the loop;
- every 100 ms of the restore, a click on a table not back yet (the oldest saved, which the
  background restore reaches last): the time its table takes to come back on demand.

No Discord (not even SimCord): the bot is not logged in, so the table edits each restored
session asks for ("the bot restarted") fail quietly in the background; only the restore's own
work is timed.

    .venv/bin/python -m bench.restore                          # 10,000 games, 1,000 lobbies
    .venv/bin/python -m bench.restore --games 1000 --lobbies 100   # quick check
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import random
import tempfile
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import discord
from pydantic import SecretStr

from bot.client import UnoBot
from bot.config import Settings
from bot.engine import Game, Phase, RuleSet, dumps
from bot.memory import freeze_after_full_collections, stop_freezing
from bot.persistence import LobbySnapshot, SeatSnapshot, SessionSnapshot
from bot.store import ConnectionSettings, Store
from bot.store.models import store_player_id

FAKE_TOKEN = "MTA1234567890123456789.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"
GUILD = 900_000_000_000_000_000
CHANNEL = 800_000_000_000_000_000
USER = 700_000_000_000_000_000
TICK = 0.01  # seconds between the lag probe's wake-ups
CLICK_EVERY = 0.1  # seconds between two clicks on tables not restored yet


def seats(index: int, count: int) -> list[SeatSnapshot]:
    """``count`` people for table ``index``."""
    return [
        SeatSnapshot(player_id=str(USER + index * 10 + seat), name=f"p{index}-{seat}")
        for seat in range(count)
    ]


def table_fields(index: int, people: list[SeatSnapshot], rules: RuleSet) -> dict[str, object]:
    """The fields a lobby and a game save both have, for table ``index``."""
    return {
        "session_id": format(index + 1, "x"),
        "guild_id": GUILD + index // 100,
        "channel_id": CHANNEL + index,
        "host_id": int(people[0].player_id),
        "rules": rules,
        "turn_timeout": 60,
        "next_round_delay": 30,
        "ai_difficulty": "normal",
        "ai_takeover": False,
        "seats": people,
        "message_id": CHANNEL + 1_000_000 + index,
    }


def played_game(people: list[SeatSnapshot], rules: RuleSet, rng: random.Random) -> Game:
    """A game a few random moves into its first round."""
    game, _ = Game.start([s.player_id for s in people], rules, rng.getrandbits(63))
    for _ in range(rng.randint(0, 30)):
        player = game.current_player
        if game.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER) or player is None:
            break
        game.apply(player, rng.choice(game.legal_moves(player)))
    return game


async def write_saves(path: Path, games: int, lobbies: int, seed: int = 1) -> None:
    """Fill a new store at ``path`` with ``games`` live games and ``lobbies`` open lobbies."""
    rng = random.Random(seed)
    store = await Store.open(path, ConnectionSettings())
    try:
        for index in range(games):
            rules = RuleSet(variant="flip" if index % 2 == 0 else "classic")
            people = seats(index, rng.randint(2, 4))
            game = played_game(people, rules, rng)
            fields = table_fields(index, people, rules)
            ui = SessionSnapshot(
                **fields,
                serial=3,
                log=["Anna played Red 5.", "Ben drew a card."],
                timeouts_in_row={},
                recorded_rounds=0,
            )
            await store.games.create_game(
                GUILD + index // 100,
                CHANNEL + index,
                rules.variant,
                rules.model_dump_json(),
                [(store_player_id(s.player_id), s.name) for s in people],
                snapshot=(dumps(game), ui.model_dump_json()),
            )
        for number in range(lobbies):
            index = games + number
            people = seats(index, rng.randint(1, 3))
            fields = table_fields(index, people, RuleSet())
            lobby = LobbySnapshot(
                **fields,
                idle_until=discord.utils.utcnow() + timedelta(minutes=10),
            )
            await store.lobbies.save(
                CHANNEL + index, str(fields["session_id"]), GUILD, lobby.model_dump_json()
            )
    finally:
        await store.close()


@dataclass
class RestoreResult:
    """What one restore measured."""

    games: int
    lobbies: int
    read_s: float
    total_s: float
    longest_stall_ms: float
    full_gc_ms: list[float]
    # Milliseconds each on-demand restore took (a click's table restored before its turn came).
    on_demand_ms: list[float]
    # The process's resident memory before the read and once every table is back (MiB).
    rss_before_mib: float = 0.0
    rss_after_mib: float = 0.0

    @property
    def first_click_s(self) -> float:
        """The bot's own part of the wait for the first answered click after start-up: the
        rows' read, then the loop's longest stall and the slowest on-demand restore (a
        click that met both)."""
        slowest = max(self.on_demand_ms, default=0.0)
        return self.read_s + (self.longest_stall_ms + slowest) / 1000


@dataclass
class FullCollections:
    """Times every full (generation 2) garbage collection."""

    pauses_ms: list[float] = field(default_factory=list)
    started: float = 0.0

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        """A gc callback."""
        if info["generation"] != 2:
            return
        if phase == "start":
            self.started = time.perf_counter()
        else:
            self.pauses_ms.append((time.perf_counter() - self.started) * 1000)


async def lag_probe(stalls: list[float]) -> None:
    """Wake every TICK; note how late each wake-up came (the loop was busy)."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time()
        await asyncio.sleep(TICK)
        stalls.append((loop.time() - asked - TICK) * 1000)


async def click_probe(bot: UnoBot, channels: list[int], times: list[float]) -> None:
    """Every CLICK_EVERY, what a click on a table not restored yet does first: restore that
    table (the oldest saved, which the background restore reaches last)."""
    for channel_id in channels:
        await asyncio.sleep(CLICK_EVERY)
        if not bot.sessions.restoring:
            return
        started = time.perf_counter()
        bot.sessions.in_channel(channel_id)
        times.append((time.perf_counter() - started) * 1000)


async def time_restore(path: Path) -> RestoreResult:
    """Restore the saves at ``path`` into a fresh bot, as its setup_hook and then its
    background restore do, and time it."""
    settings = Settings(discord_token=SecretStr(FAKE_TOKEN), db_path=path)
    bot = UnoBot(settings, shard_count=1)
    stalls: list[float] = []
    loop = asyncio.get_running_loop()
    probe = loop.create_task(lag_probe(stalls))
    await asyncio.sleep(TICK * 2)
    store = await Store.open(path, ConnectionSettings())
    try:
        gc.collect()
        rss_before = resident_mib()
        started = time.perf_counter()
        manager = bot.build_services(store)
        games, lobbies = await manager.read_saved()  # what setup_hook awaits
        read_s = time.perf_counter() - started
        # As setup_hook leaves things before the background restore: start-up frozen, and the
        # survivors of every full collection frozen from then on.
        gc.freeze()
        freeze_after_full_collections()
        await asyncio.sleep(TICK * 2)
        stalls.clear()  # the read runs before the bot connects: no click waits for it
        collections = FullCollections()
        gc.callbacks.append(collections.on_gc)
        oldest_first = [CHANNEL + index for index in range(games + lobbies)]
        on_demand: list[float] = []
        clicks = loop.create_task(click_probe(bot, oldest_first, on_demand))
        await bot.sessions.restore_saved()  # what the bot then runs in the background
        total_s = time.perf_counter() - started
        clicks.cancel()
        gc.callbacks.remove(collections.on_gc)
        sessions = list(bot.sessions.by_id.values())
        live = sum(1 for session in sessions if session.state.game is not None)
        gc.collect()
        rss_after = resident_mib()
        await asyncio.sleep(TICK * 2)  # the probe's wake-up that the restore delayed
        probe.cancel()
        await bot.sessions.shutdown()
    finally:
        stop_freezing()
        await store.close()
    return RestoreResult(
        live,
        len(sessions) - live,
        read_s,
        total_s,
        max(stalls, default=0.0),
        collections.pauses_ms,
        on_demand,
        rss_before,
        rss_after,
    )


def resident_mib() -> float:
    """This process's resident memory now, in MiB (Linux; 0 elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def summary(result: RestoreResult) -> list[str]:
    """Markdown lines for one restore."""
    demand = result.on_demand_ms
    slowest = f"{max(demand):.2f} ms" if demand else "none made"
    gcs = result.full_gc_ms
    pauses = f"{min(gcs):.0f} to {max(gcs):.0f}" if gcs else "0"
    return [
        f"Restored {result.games:,} live games and {result.lobbies:,} open lobbies in "
        f"{result.total_s:.2f} s; the rows' read before the bot connects: {result.read_s:.2f} s. "
        f"The event loop's longest stall meanwhile: {result.longest_stall_ms:,.0f} ms. "
        f"Full collections meanwhile: {len(gcs)}, {pauses} ms. "
        f"On-demand restores of a clicked table: {len(demand)}, slowest {slowest}. "
        f"The bot's part of the first answered click: {result.first_click_s:.2f} s. "
        f"Resident memory: {result.rss_before_mib:,.0f} MiB before the read, "
        f"{result.rss_after_mib:,.0f} MiB with every table back.",
    ]


async def run(games: int, lobbies: int, seed: int) -> RestoreResult:
    """Write the saves into a temporary folder, then time their restore."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "uno.db"
        started = time.perf_counter()
        await write_saves(path, games, lobbies, seed)
        wrote = time.perf_counter() - started
        print(f"wrote {games:,} games and {lobbies:,} lobbies in {wrote:.1f} s")
        return await time_restore(path)


def main() -> None:
    """Write the saves, restore them, print a markdown summary."""
    from bench.bot_load import prepare_run

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--lobbies", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu", type=int, default=0, help="the CPU to pin the run to")
    args = parser.parse_args()
    prepare_run(args.cpu)
    logging.getLogger("bot").setLevel(logging.CRITICAL)  # the failing edits of a bot offline
    result = asyncio.run(run(args.games, args.lobbies, args.seed))
    print("\n".join(summary(result)), flush=True)


if __name__ == "__main__":
    main()
