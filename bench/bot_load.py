"""Benchmark the bot under load: many concurrent games played by random clicks through SimCord.

The real ``UnoBot`` runs inside SimCord's simulated Discord, on one core, with the production
settings (``table_edit_interval`` 1.0 s, turn timer 60 s). ``--games`` channels (100 per
simulated guild) each hold a game of 2-4 players, half UNO Flip and half classic (with
``--variant``, every game is that variant's, started by its own ``/uno <command> start``, and
seats 2-4 within the variant's player range). The games are
interleaved round-robin, one click per game per sweep, so the bot holds every session at once:
the lobbies are opened first, each from its slash command to its Start click before the next
(so no lobby waits out its timeout while thousands of others open), then ``--clicks`` clicks
per game are timed. Each click
is what the player would press next: Hand on the table when their hand is missing or out of
date, then a random enabled move button of that hand (a card, Draw, a colour, Keep it,
Challenge/Accept, UNO!...), Next round after a round; a finished game opens a new lobby.

What is measured, per click (details in docs/benchmarks.md, "Bot under load"):

- first response: from SimCord emitting the click's INTERACTION_CREATE (the gateway event) to
  the bot's interaction callback request reaching SimCord's HTTP layer (``POST
  /interactions/<id>/<token>/callback``). That is the bot's own work for the click (discord.py
  parsing, routing, the session lock, the engine, the SQLite save, rendering, serialising the
  reply) plus whatever else the event loop ran meanwhile (other games' table edits, garbage
  collections). SimCord's preparation of the click before the event is left out here and
  included in the "from the actor call" figures.
- REST calls per click and per move: every request the bot makes in the timed phase, by kind.
- Table edits against Discord's global limit: edits started per second (the bot's edit budget
  allows ``table_edits_per_second``, 45 by default, in any second), how long each edit's table
  had waited since its first change not yet shown, and, sampled every second, how far behind
  the most out-of-date table was.

After the world is built, SimCord's per-task tracking, settling and virtual clock are switched
off (``untrack_bot_work``): the bot runs on a plain asyncio loop on the real clock, as in
production, and the driver waits for each click's callback request instead of settling.

    .venv/bin/python -m bench.bot_load                      # 100 and 1,000 games, 2 min
    .venv/bin/python -m bench.bot_load --games 100 --clicks 5   # quick check
    .venv/bin/python -m bench.bot_load --games 1000 --clicks 5 --hand-then-move --variant nomercy

With ``--discord-window``, the bot's counted requests (those Discord's global limit counts) meet
a stand-in that enforces it: each is held a random 10-150 ms on the way, counted on arrival,
refused with a global 429 past 50 in any one-second window (retried after its wait, through the
bot's gate, as discord.py does) and answered 10-100 ms later. With ``--ai-tables N``, every
N-th table seats a computer player too. Staleness is the time from a move to the table showing
it (the update drawn after the move reaching Discord), for moves by clicks and by computer
players and timers apart (issue 28):

    .venv/bin/python -m bench.bot_load --games 60 1000 --clicks 4 --hand-then-move \
        --discord-window --ai-tables 5 --pictures off

Ten thousand live games take 6-13 minutes (issue 28; opening the lobbies about 3.5 of them). A
sweep then takes 1.5-2.3 minutes, past the default 60 s turn timer, so these runs set the
longest turn a host may (``--turn-timeout 600``, config.toml's ``turn_timeout``) and no timer
plays for an idle player:

    .venv/bin/python -m bench.bot_load --games 10000 --clicks 5 --hand-then-move \
        --discord-window --ai-tables 5 --turn-timeout 600

With ``--trace-slow MS``, each timed click slower than MS is listed with what the event loop ran
meanwhile and whether the process had the CPU (``bench/loop_trace.py``):

    .venv/bin/python -m bench.bot_load --games 3000 --clicks 2 --hand-then-move --trace-slow 100
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import platform
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Any
from urllib.parse import urlsplit

import discord
import simcord
from pydantic import SecretStr
from simcord._dpy_internals import release_clocks

from bench.loop_trace import LoopTrace, SlowClicks
from bot.client import UnoBot
from bot.config import Settings
from bot.engine import Game, Phase
from bot.engine.events import Event
from bot.engine.variants import VARIANTS, Variant
from bot.public_messages import PublicMessages
from bot.sessions import SAVE_WAIT, GameSession
from bot.ui.cards import CardArt
from bot.ui.cards.emoji import CardEmojis
from bot.ui.pictures import drawing_process

CHANNELS_PER_GUILD = 100
SETTLE_TIMEOUT = 0.5  # only settles the world building; clicks wait for their callback
SLOW_MS = 100.0  # a click answered later than this is listed (issue 20's target: none)
ANSWER_TIMEOUT = 10.0  # seconds; a click still unanswered by then fails the run
FAKE_TOKEN = "MTA1234567890123456789.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"
INTERACTION_PATH = re.compile(r"/interactions/(?P<id>[0-9]+)/[^/]+/callback$")
TABLE_EDIT = re.compile(r"/channels/[0-9]+/messages/[0-9]+$")
HAND_ID = re.compile(r"uno:h:[0-9a-z]+:(?P<serial>[0-9]+):(?P<code>.*)")


class DroppingLog(list[Any]):
    """A SimCord log (HTTP requests, transcript) that hands each entry to a hook and keeps none.

    Keeping every request and gateway payload of a 30,000-click run would grow the heap by
    the simulator's bookkeeping, and with it the pauses of Python's full garbage collections,
    which the bot in production would not see.
    """

    def __init__(self, on_entry: Callable[[Any], None] | None = None) -> None:
        super().__init__()
        self.on_entry = on_entry

    def append(self, entry: Any) -> None:
        """Pass the entry on; do not store it."""
        if self.on_entry is not None:
            self.on_entry(entry)


@dataclass
class Sample:
    """One timed click."""

    kind: str
    first_response_ms: float
    from_call_ms: float
    full_gc: bool


def resident_bytes() -> int:
    """This process's resident memory, where Linux tells it (0 elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


def tracked_objects() -> int:
    """Objects the cyclic collector knows, frozen ones included."""
    return len(gc.get_objects()) + gc.get_freeze_count()


def heap_shares(roots: dict[str, Iterable[Any]], stop: Iterable[Any]) -> dict[str, tuple[int, int]]:
    """(objects, bytes) reachable from each group of roots, in the order given, without
    passing through another group's roots; an object reached by an earlier group is counted
    there only. The walk does not enter ``stop`` objects, modules, classes, functions or
    module namespaces (they are shared code)."""
    groups = {name: list(group) for name, group in roots.items()}
    # No walk enters another group's roots: each group is counted from its own.
    seen = {id(obj) for obj in stop} | {id(obj) for group in groups.values() for obj in group}
    seen.update(id(vars(module)) for module in list(sys.modules.values()) if module is not None)
    shares: dict[str, tuple[int, int]] = {}
    for name, group in groups.items():
        count = size = 0
        todo = list(group)
        while todo:
            obj = todo.pop()
            count += 1
            size += sys.getsizeof(obj)
            for ref in gc.get_referents(obj):
                if id(ref) in seen or isinstance(ref, type | ModuleType | FunctionType):
                    continue
                seen.add(id(ref))
                todo.append(ref)
        shares[name] = (count, size)
    return shares


@dataclass
class Memory:
    """What the live games cost: before any game, and with every game started."""

    objects_before: int = 0
    objects_after: int = 0
    rss_before: int = 0
    rss_after: int = 0
    shares: dict[str, tuple[int, int]] = field(default_factory=dict)
    frozen_garbage: int = -1

    def measure(self, env: Any, bot: UnoBot) -> None:
        """Take the 'after' figures and split the heap between the bot and the simulator."""
        gc.collect()
        self.objects_after = tracked_objects()
        self.rss_after = resident_bytes()
        loop = asyncio.get_running_loop()
        self.shares = heap_shares(
            {
                "bot: sessions, games, timers, save writers": [bot.sessions],
                "bot: discord.py's cache and state": [bot._connection],
                "simulator (SimCord's Discord)": [env.backend],
            },
            stop=[bot, env, loop, bot.http],
        )


@dataclass
class EditWatch:
    """Watches the bot's table edit budget: each edit's wait, and the oldest waiting table."""

    starts: list[float] = field(default_factory=list)
    waits_s: list[float] = field(default_factory=list)
    behind_s: list[float] = field(default_factory=list)
    counting: bool = False

    def on_start(self, key: object, dirty_since: float, started: float) -> None:
        """An edit started (the budget's hook)."""
        if self.counting:
            self.starts.append(started)
            self.waits_s.append(started - dirty_since)

    async def sample(self, bot: UnoBot) -> None:
        """Every second, how long the most out-of-date table has waited so far."""
        while True:
            await asyncio.sleep(1.0)
            if self.counting:
                self.behind_s.append(bot.sessions.edits.oldest_pending_age())

    def most_in_one_second(self) -> int:
        """The most edits started in any one-second window."""
        return most_in_window(self.starts)


GLOBAL_LIMIT = 50  # Discord's: counted requests in any one second, across the bot


@dataclass
class WindowedDiscord:
    """Discord's global limit, enforced where Discord counts: on each counted request's arrival.

    Wraps SimCord's HTTP client (the bot's ``http.request``: every REST call that is not an
    interaction's answer or through its token). Each attempt first waits for the bot's own gate
    (as the aiohttp trace makes it do in production), is held on the way, counted on arrival,
    refused with a global 429 past ``GLOBAL_LIMIT`` in the last second (then retried after its
    wait, as discord.py does, through the gate again) and answered after a return delay."""

    rng: random.Random = field(default_factory=lambda: random.Random(28))
    arrivals: list[float] = field(default_factory=list)
    refused: int = 0
    counting: bool = False
    _recent: deque[float] = field(default_factory=deque)

    def install(self, bot: UnoBot) -> None:
        """Put the stand-in between the bot's HTTP client and SimCord."""
        original = bot.http.request
        gate = bot.gate

        async def windowed(route: Any, **kwargs: Any) -> Any:
            path = urlsplit(route.url).path
            for _ in range(5):
                slot = await gate.before(path)
                status = 200
                try:
                    if slot is not None:
                        await asyncio.sleep(self.rng.uniform(0.01, 0.15))
                        if not self.arrive():
                            status = 429
                    if status == 200:
                        return await original(route, **kwargs)
                finally:
                    if slot is not None:
                        await asyncio.sleep(self.rng.uniform(0.01, 0.1))
                    gate.after(slot, route.method, path, status, {})
                await asyncio.sleep(1.0)  # the 429's retry_after, then discord.py tries again
            raise discord.HTTPException(_Refused(), {"message": "rate limited", "global": True})

        bot.http.request = windowed  # type: ignore[method-assign]

    def arrive(self) -> bool:
        """Count a counted request's arrival; whether the window lets it through."""
        now = time.perf_counter()
        while self._recent and self._recent[0] <= now - 1.0:
            self._recent.popleft()
        if self.counting:
            self.arrivals.append(now)
        if len(self._recent) >= GLOBAL_LIMIT:
            self.refused += self.counting
            return False
        self._recent.append(now)
        return True


class _Refused:
    """Just enough of a response for a 429's HTTPException."""

    status = 429
    reason = "Too Many Requests"
    headers: dict[str, str] = {}


@dataclass
class Staleness:
    """Each move's wait until the table shows it: from the move to the first update drawn
    after it that reached Discord, by the kind of move (a click, or a computer player or
    timer)."""

    clicks_s: list[float] = field(default_factory=list)
    others_s: list[float] = field(default_factory=list)
    counting: bool = False
    _moves: dict[Any, list[tuple[float, bool]]] = field(default_factory=lambda: defaultdict(list))

    @contextmanager
    def watching(self) -> Iterator[None]:
        """Note every move (``GameSession.record``) and every update that reached Discord."""
        original = GameSession.record
        moves = self._moves

        def record(
            self: GameSession, events: list[Event], actor: str | None, *, turn_move: bool
        ) -> None:
            original(self, events, actor, turn_move=turn_move)
            by_click = actor is not None and not self.state.is_ai(actor)
            moves[self.id].append((asyncio.get_running_loop().time(), by_click))

        GameSession.record = record  # type: ignore[method-assign]
        PublicMessages.on_shown = self.on_shown
        try:
            yield
        finally:
            GameSession.record = original  # type: ignore[method-assign]
            PublicMessages.on_shown = None

    def on_shown(self, session_id: Any, drawn_at: float, shown_at: float) -> None:
        """An update drawn at ``drawn_at`` reached Discord: it shows every move before."""
        pending = self._moves.get(session_id)
        if not pending:
            return
        left = []
        for moved_at, by_click in pending:
            if moved_at > drawn_at:
                left.append((moved_at, by_click))
            elif self.counting:
                (self.clicks_s if by_click else self.others_s).append(shown_at - moved_at)
        self._moves[session_id] = left

    def unshown(self) -> tuple[int, int]:
        """Moves not shown yet: (by clicks, by computer players and timers)."""
        waiting = [by_click for moves in self._moves.values() for _, by_click in moves]
        return sum(waiting), len(waiting) - sum(waiting)


@dataclass
class Recorder:
    """Times each interaction from its gateway event to its callback request."""

    emitted: dict[str, float] = field(default_factory=dict)
    answered: dict[str, asyncio.Future[float]] = field(default_factory=dict)
    requests: Counter[str] = field(default_factory=Counter)
    full_gc_ms: list[float] = field(default_factory=list)
    counting: bool = False
    last: str = ""
    kind: str = ""  # the click in flight (one at a time), for the loop trace
    slow: SlowClicks | None = None
    _begun: dict[str, Any] = field(default_factory=dict)
    _gc_started: float = 0.0

    def install(self, env: Any) -> None:
        """Wrap the backend's event feed and HTTP log; watch full garbage collections."""
        backend = env.backend
        emit = backend.emit
        loop = asyncio.get_running_loop()

        def timed_emit(event: str, payload: Any) -> None:
            if event == "INTERACTION_CREATE":
                self.last = payload["id"]
                self.answered[self.last] = loop.create_future()
                self.emitted[self.last] = time.perf_counter()
                if self.slow is not None and self.counting:
                    self._begun[self.last] = self.slow.start()
            emit(event, payload)

        backend.emit = timed_emit
        backend.http_requests = DroppingLog(self.on_request)
        backend.transcript = DroppingLog()
        gc.callbacks.append(self.on_gc)

    def uninstall(self) -> None:
        """Stop watching the garbage collector."""
        gc.callbacks.remove(self.on_gc)

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        """Time full (generation 2) collections."""
        if info["generation"] != 2:
            return
        if phase == "start":
            self._gc_started = time.perf_counter()
        elif self.counting:
            self.full_gc_ms.append((time.perf_counter() - self._gc_started) * 1000)

    def on_request(self, entry: Any) -> None:
        """Note the first callback of an interaction and count requests by kind."""
        match = INTERACTION_PATH.search(entry.path)
        if match is not None:
            answer = self.answered.get(match["id"])
            if answer is not None and not answer.done():
                answer.set_result(time.perf_counter())
                begun = self._begun.pop(match["id"], None)
                if self.slow is not None and begun is not None:
                    self.slow.end(self.kind, begun)
        if self.counting:
            self.requests[request_kind(entry.method, entry.path)] += 1

    async def first_response(self, interaction: str) -> tuple[float, float]:
        """(emitted, answered) perf_counter stamps of an interaction, once it is answered."""
        answered = await asyncio.wait_for(self.answered[interaction], ANSWER_TIMEOUT)
        del self.answered[interaction]
        return self.emitted.pop(interaction), answered


def request_kind(method: str, path: str) -> str:
    """A short name for a REST request."""
    if INTERACTION_PATH.search(path):
        return "interaction response"
    if method == "PATCH" and TABLE_EDIT.search(path):
        return "table edit"
    if method == "POST" and path.endswith("/messages"):
        return "new public message"
    if path.startswith("/webhooks/"):
        return f"webhook {method}"
    return f"{method} other"


def hand_buttons(message: Any) -> list[tuple[str, str, bool]]:
    """(serial, code, enabled) of every button of an ephemeral hand."""
    found = []
    for row in message.components:
        for child in row["components"]:
            match = HAND_ID.fullmatch(child.get("custom_id", ""))
            if match is not None:
                found.append((match["serial"], match["code"], not child.get("disabled", False)))
    return found


def custom_id(message: Any, label: str) -> str | None:
    """The custom_id of the enabled button labelled ``label`` on a message, if any."""
    for row in message.components:
        for child in row.children:
            if getattr(child, "label", None) == label and not child.disabled:
                return str(child.custom_id)
    return None


@dataclass
class Table:
    """One channel, its players, and each player's latest ephemeral hand."""

    env: Any
    channel: Any
    players: list[Any]
    command: str
    hands: dict[str, Any] = field(default_factory=dict)
    games_started: int = 0
    ai: bool = False  # the host seats a computer player before Start

    @property
    def bot(self) -> UnoBot:
        """The bot under test."""
        bot: UnoBot = self.env.bot
        return bot

    def computer_to_play(self) -> bool:
        """Whether the game waits for a computer player (nobody here can click)."""
        session = self.bot.sessions.by_channel.get(self.channel.id)
        game = session.state.game if session is not None else None
        if game is None or game.phase is Phase.ROUND_OVER or game.current_player is None:
            return False
        return session is not None and session.state.is_ai(game.current_player)

    def next_click(self, rng: random.Random) -> tuple[str, str, Callable[[], Any]]:
        """The click the next person at this table would make: (kind, player id, the call)."""
        session = self.bot.sessions.by_channel.get(self.channel.id)
        public = self.channel.last_message
        host = self.players[0]
        if session is None:
            self.hands.clear()
            return "slash start", "", lambda: host.slash(self.channel, self.command)
        game = session.state.game
        if game is None:
            seated = {seat.user_id for seat in session.state.seats}
            waiting = [p for p in self.players if p.id not in seated]
            if waiting:
                return "lobby join", "", lambda: waiting[0].click(public, label="Join")
            if self.ai and len(session.state.seats) == len(self.players):
                return "lobby add AI", "", lambda: host.click(public, label="Add AI")
            return "lobby start", "", lambda: host.click(public, label="Start")
        if game.phase is Phase.ROUND_OVER:
            ready = self.players[rng.randrange(len(self.players))]
            if custom_id(public, "Next round") is None:
                # The table's edit to the round's end has not landed yet (the edit budget, or
                # a picture being drawn): a player presses Hand and is told the round is over.
                return "hand (round over)", "", lambda: ready.click(public, label="Hand")
            return "next round", "", lambda: ready.click(public, label="Next round")
        player = game.current_player
        assert player is not None, game.phase
        actor = next(p for p in self.players if str(p.id) == player)
        hand = self.hands.get(player)
        moves = []
        if hand is not None:
            buttons = hand_buttons(hand)
            fresh = all(serial == str(session.state.serial) for serial, _, _ in buttons)
            moves = (
                [code for _, code, on in buttons if on and code[:1] not in "rg"] if fresh else []
            )
        if not moves:
            return "hand", player, lambda: actor.click(public, label="Hand")
        code = rng.choice(moves)
        target = next(c for c in _ids(hand) if c.endswith(f":{code}"))
        return f"move {code[:1]}", player, lambda: actor.click(hand, custom_id=target)


def _ids(message: Any) -> list[str]:
    return [child["custom_id"] for row in message.components for child in row["components"]]


MOVE_KINDS = ("move", "next round")


@dataclass
class LoadResult:
    """Everything one run measured."""

    games: int
    clicks_per_game: int
    samples: list[Sample]
    requests: Counter[str]
    wall_s: float
    setup_s: float
    full_gc_ms: list[float]
    auto_plays: int
    errors: int
    edits: EditWatch
    edit_budget: int
    left_behind: int
    memory: Memory | None
    pictures: bool = True
    pictures_drawn: int = 0
    slow: SlowClicks | None = None
    window: WindowedDiscord | None = None
    staleness: Staleness = field(default_factory=Staleness)
    token_requests: int = 0
    variant: str | None = None  # every game's variant; None: half Flip, half classic
    # The variants of the sessions live at the end, as the bot holds them (what was played).
    live_variants: Counter[str] = field(default_factory=Counter)
    # Cards in each hand of the games live at the end (No Mercy's hands grow up to 24).
    hand_sizes: list[int] = field(default_factory=list)
    # Resident memory (bytes): before the lobbies, with every game started, after the clicks.
    rss: list[int] = field(default_factory=list)
    turn_timeout: int = 60

    def first_response(self, kind: str = "") -> list[float]:
        """First-response times (ms) of the timed clicks whose kind starts with ``kind``."""
        return [s.first_response_ms for s in self.samples if s.kind.startswith(kind)]

    @property
    def moves(self) -> int:
        """Timed clicks that changed the game (a hand button or Next round)."""
        return sum(1 for s in self.samples if s.kind.startswith(MOVE_KINDS))


def make_settings(folder: Path, pictures: bool = True, turn_timeout: int | None = None) -> Settings:
    """Production defaults, except the database path, a fake token, no turn reminders, and
    table pictures and the turn timer (a host's ``turn_timeout``, 15-600 s) as asked.

    The drivers find each table as its channel's last message, and a turn that waits for the
    driver longer than ``turn_reminder`` would get a reminder posted after the table. Reminders
    only come for turns left idle, which these benches do not model.
    """
    more: dict[str, Any] = {} if turn_timeout is None else {"turn_timeout": turn_timeout}
    return Settings(
        discord_token=SecretStr(FAKE_TOKEN),
        db_path=folder / "uno.db",
        turn_reminder=0,
        pictures=pictures,
        **more,
    )


def start_command(variant: Variant) -> str:
    """The slash command that opens a lobby of ``variant``."""
    return f"uno {variant.command} start"


def game_channels(
    env: Any, games: int, variant: str | None = None
) -> Iterator[tuple[int, Any, Any, Variant]]:
    """(index, guild, channel, variant) for ``games`` new channels, 100 per guild; every
    channel plays ``variant`` when given, else even channels UNO Flip and odd ones classic."""
    guild = None
    mix = (VARIANTS["flip"], VARIANTS["classic"])
    for index in range(games):
        if index % CHANNELS_PER_GUILD == 0:
            guild = env.create_guild(f"Guild {index // CHANNELS_PER_GUILD}")
        assert guild is not None
        played = VARIANTS[variant] if variant is not None else mix[index % 2]
        yield index, guild, guild.create_text_channel(f"uno-{index}"), played


def seat_range(variant: Variant, ai: bool) -> tuple[int, int]:
    """The fewest and most people a table of ``variant`` seats here: 2-4, within the
    variant's player range with room for the computer player when there is one."""
    most = min(4, variant.max_players - ai)
    return min(max(2, variant.min_players), most), most


async def build_tables(
    env: Any, games: int, rng: random.Random, ai_every: int = 0, variant: str | None = None
) -> list[Table]:
    """``games`` channels over as many guilds as needed, each with 2-4 new members (and every
    ``ai_every``-th a computer player too), playing ``variant`` (None: Flip and classic)."""
    tables: list[Table] = []
    for index, guild, channel, played in game_channels(env, games, variant):
        ai = ai_every > 0 and index % ai_every == 0
        seats = rng.randint(*seat_range(played, ai))
        players = [guild.add_member(env.create_user(f"p{index}-{seat}")) for seat in range(seats)]
        tables.append(Table(env, channel, players, start_command(played), ai=ai))
    await env.settle()
    return tables


async def click(table: Table, recorder: Recorder, rng: random.Random) -> Sample:
    """Make one table's next click and wait for its first response."""
    kind, player, call = table.next_click(rng)
    recorder.kind = kind
    collections = len(recorder.full_gc_ms)
    started = time.perf_counter()
    result = await call()
    emitted, answered = await recorder.first_response(recorder.last)
    if kind == "hand":
        table.hands[player] = result.response
    return Sample(
        kind,
        (answered - emitted) * 1000,
        (answered - started) * 1000,
        len(recorder.full_gc_ms) > collections,
    )


def untrack_bot_work(env: Any) -> None:
    """Put back the event loop's own task, timer and executor methods (see docs/benchmarks.md).

    SimCord wraps them to track every bot task and timer for its settling and virtual clock;
    that bookkeeping costs O(tasks x timers) per click, which at 1,000 games is seconds of
    simulator time per click. Without it the bot runs on a plain asyncio loop on the real
    clock, as in production, and each click is awaited until its callback request instead.
    """
    runtime = env._runtime
    loop = asyncio.get_running_loop()
    loop.create_task = runtime.create_task  # type: ignore[method-assign]
    loop.call_soon = runtime.call_soon  # type: ignore[method-assign]
    loop.call_later = runtime.call_later  # type: ignore[method-assign]
    loop.call_at = runtime.call_at  # type: ignore[method-assign]
    # Worker threads too (the computer players think in them; see bench/ai_load.py).
    loop.call_soon_threadsafe = runtime.call_soon_threadsafe  # type: ignore[method-assign]
    loop.run_in_executor = runtime.run_in_executor  # type: ignore[method-assign]
    # The bot's time.monotonic (hence loop.time) reads the virtual clock: give it the real one.
    release_clocks(env)


async def run_load(
    games: int,
    clicks_per_game: int,
    seed: int = 1,
    memory: bool = False,
    hand_then_move: bool = False,
    pictures: bool = True,
    picture_cpu: int | None = None,
    trace_slow_ms: float | None = None,
    discord_window: bool = False,
    ai_every: int = 0,
    variant: str | None = None,
    turn_timeout: int | None = None,
) -> LoadResult:
    """Start the bot in SimCord, fill ``games`` lobbies, then time round-robin clicks; with
    ``memory``, also count what the live games cost (slow: it walks the whole heap); with
    ``hand_then_move``, a Hand click is followed at once by that player's move (two clicks in
    one game's turn of the sweep); with ``pictures``, tables carry their picture (the default
    setting), drawn on ``picture_cpu`` when given (else on the bot's own pinned core); with
    ``trace_slow_ms``, what the event loop ran during each timed click slower than that; with
    ``discord_window``, counted requests meet a stand-in enforcing the global limit; with
    ``ai_every``, every such table seats a computer player too; with ``variant`` (a key of
    ``VARIANTS``), every game is that variant's instead of half Flip and half classic; with
    ``turn_timeout``, the host's turn timer instead of the default 60 s."""
    rng = random.Random(seed)
    with (
        tempfile.TemporaryDirectory() as temp,
        counting_auto_plays() as auto_plays,
        ExitStack() as stack,
    ):
        staleness = Staleness()
        stack.enter_context(staleness.watching())
        settings = make_settings(Path(temp), pictures, turn_timeout)
        bot = UnoBot(settings, shard_count=1)
        world = simcord.run(bot, settle_timeout=SETTLE_TIMEOUT)
        # The application has its card emoji already, as after the bot's first start (making
        # them is 120 requests once per application, not part of a load test).
        for name in CardEmojis(CardArt()).names:
            world._env.backend.create_application_emoji(name)
        async with world as env:
            if pictures and picture_cpu is not None:
                # The drawing process inherited the bot's pinning: move it to its own core.
                drawing_process().submit(os.sched_setaffinity, 0, {picture_cpu}).result()
            recorder = Recorder()
            recorder.install(env)
            window = None
            if discord_window:
                window = WindowedDiscord()
                window.install(bot)
            heap = Memory() if memory else None
            if heap is not None:
                gc.collect()
                heap.objects_before, heap.rss_before = tracked_objects(), resident_bytes()
            edits = EditWatch()
            bot.sessions.edits.on_start = edits.on_start
            sampler = asyncio.get_running_loop().create_task(edits.sample(bot))
            tables = await build_tables(env, games, rng, ai_every, variant)
            rss = [resident_bytes()]
            untrack_bot_work(env)
            started = time.perf_counter()
            # One table's lobby after another, each from its slash command to its Start: a
            # lobby is open for a few clicks only, however many tables there are (sweeping all
            # the slash commands first left 10,000 lobbies open past their 10-minute timeout).
            for number, table in enumerate(tables, 1):
                for _ in range(6):  # slash start, up to 3 joins, Add AI, Start
                    session = bot.sessions.by_channel.get(table.channel.id)
                    if session is not None and session.state.game is not None:
                        break
                    await click(table, recorder, rng)
                progress(number, len(tables), started, "lobbies started")
            setup_s = time.perf_counter() - started
            rss.append(resident_bytes())
            # The lobbies' last table edits (with pictures, drawn after the Start answer) land
            # before the timed phase, so each counted edit is both started and sent in it.
            await asyncio.sleep(settings.table_edit_interval + 0.2)
            if heap is not None:
                heap.measure(env, bot)
            trace = None
            if trace_slow_ms is not None:
                affinity = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
                cpu = next(iter(affinity)) if len(affinity) == 1 else None
                trace = LoopTrace(cpu=cpu, helpers=drawing_pids() if pictures else ())
                trace.install(asyncio.get_running_loop())
                stack.enter_context(timing_saves(trace, bot))
                recorder.slow = SlowClicks(trace, trace_slow_ms)
            recorder.counting = edits.counting = staleness.counting = True
            if window is not None:
                window.counting = True
            tokens_before = bot.sessions.tokens.taken
            drawn_before = bot.sessions.pictures.drawn
            samples: list[Sample] = []
            started = time.perf_counter()
            for sweep in range(clicks_per_game):
                for number, table in enumerate(tables, 1):
                    progress(number, len(tables), started, f"tables of sweep {sweep + 1}")
                    if table.computer_to_play():
                        continue  # the bot plays for it (measured by the staleness of its moves)
                    samples.append(await click(table, recorder, rng))
                    if hand_then_move and samples[-1].kind == "hand":
                        # The move at once, with the hand just opened: at 10,000 games a sweep
                        # outlasts the 60 s turn timer, so a hand kept for the next sweep is
                        # always out of date by then.
                        samples.append(await click(table, recorder, rng))
            wall = time.perf_counter() - started
            rss.append(resident_bytes())
            # The last coalesced table edits land up to one interval after the last click.
            await asyncio.sleep(settings.table_edit_interval + 0.2)
            recorder.counting = edits.counting = staleness.counting = False
            if window is not None:
                window.counting = False
            token_requests = bot.sessions.tokens.taken - tokens_before
            if trace is not None:
                trace.uninstall()
            left_behind = bot.sessions.edits.pending
            drawn = bot.sessions.pictures.drawn - drawn_before
            sampler.cancel()
            recorder.uninstall()
            errors = len(env.errors)
            live = list(bot.sessions.by_channel.values())
            live_variants = Counter(session.state.rules.variant for session in live)
            hand_sizes = [
                len(hand)
                for session in live
                if session.state.game is not None
                for hand in session.state.game.hands
            ]
            await bot.close()  # stops the timers and closes the store
            if heap is not None:
                # What freezing kept: garbage in cycles among frozen objects.
                gc.collect()
                gc.unfreeze()
                heap.frozen_garbage = gc.collect()
        return LoadResult(
            games,
            clicks_per_game,
            samples,
            recorder.requests,
            wall,
            setup_s,
            recorder.full_gc_ms,
            auto_plays[0],
            errors,
            edits,
            bot.sessions.edits.rate,
            left_behind,
            heap,
            pictures,
            drawn,
            recorder.slow,
            window,
            staleness,
            token_requests,
            variant,
            live_variants,
            hand_sizes,
            rss,
            settings.turn_timeout,
        )


def progress(done: int, total: int, since: float, what: str) -> None:
    """A line on stderr every 1,000 of a long loop (10,000 games take minutes a phase)."""
    if done % 1000 == 0:
        elapsed = time.perf_counter() - since
        print(f"{done:,}/{total:,} {what} in {elapsed:.0f} s", file=sys.stderr, flush=True)


def drawing_pids() -> list[int]:
    """The process ids of the bot's picture-drawing process (started by now)."""
    pool = drawing_process()
    return list(getattr(pool, "_processes", None) or {})


@contextmanager
def timing_saves(trace: LoopTrace, bot: UnoBot) -> Iterator[None]:
    """Note in the trace how long each click waited for its save, and how many store uses
    were queued on the store's one connection when it began."""
    original = GameSession.saved
    persistence = bot.sessions.persistence
    database = getattr(getattr(persistence, "store", None), "database", None)
    lock = getattr(database, "_lock", None)

    async def timed(self: GameSession, timeout: float | None = SAVE_WAIT) -> bool:
        queued = len(getattr(lock, "_waiters", None) or ())
        started = time.perf_counter()
        try:
            return await original(self, timeout)
        finally:
            trace.note(
                started,
                time.perf_counter() - started,
                f"the click waited for its save ({queued} store uses queued for the connection)",
            )

    GameSession.saved = timed  # type: ignore[method-assign]
    try:
        yield
    finally:
        GameSession.saved = original  # type: ignore[method-assign]


@contextmanager
def counting_auto_plays() -> Iterator[list[int]]:
    """Count turn-timer auto-plays (a sign a sweep took longer than the 60 s turn timer)."""
    calls = [0]
    original = Game.auto_play

    def counted(self: Game, player: str) -> list[Event]:
        calls[0] += 1
        return original(self, player)

    Game.auto_play = counted  # type: ignore[method-assign]
    try:
        yield calls
    finally:
        Game.auto_play = original  # type: ignore[method-assign]


def quantile(times: list[float], q: int) -> float:
    """The q-th percentile of a sample."""
    if len(times) < 2:
        return times[0] if times else float("nan")
    return statistics.quantiles(times, n=100, method="inclusive")[q - 1]


def figures(times: list[float]) -> str:
    """'p50 x ms, p99 y ms, max z ms' of a sample."""
    if not times:
        return "none"
    return (
        f"p50 {quantile(times, 50):.2f} ms, p99 {quantile(times, 99):.2f} ms, "
        f"max {max(times):.1f} ms"
    )


def summary(result: LoadResult) -> list[str]:
    """Markdown lines for one run."""
    clicks = len(result.samples)
    sweep = result.wall_s / result.clicks_per_game
    shown = f"pictures on, {result.pictures_drawn:,} drawn" if result.pictures else "pictures off"
    live = ", ".join(f"{count:,} {key}" for key, count in result.live_variants.items())
    lines = [
        f"**{result.games:,} games** (live at the end: {live or 'none'}; {shown}), "
        f"{result.clicks_per_game} timed sweeps: "
        f"{clicks:,} clicks ({result.moves:,} moves) in {result.wall_s:.1f} s, "
        f"{clicks / result.wall_s:.0f} clicks/s, so each game got a turn every {sweep:.2f} s "
        f"(lobbies: {result.setup_s:.1f} s before). Turn timer {result.turn_timeout} s; "
        f"auto-plays: {result.auto_plays}. Bot errors: {result.errors}.",
        "",
        "Resident memory (bot and simulator, MiB): "
        + " / ".join(f"{size / 2**20:,.0f}" for size in result.rss)
        + " (before the lobbies / every game started / after the timed clicks).",
        "",
        hand_summary(result.hand_sizes),
        "",
        "| first response (gateway event to callback request) | clicks | figures |",
        "|---|---:|---|",
    ]
    groups = [("all clicks", ""), ("all hand-button moves", "move")] + [
        (kind, kind) for kind in sorted({s.kind for s in result.samples})
    ]
    for label, prefix in groups:
        times = result.first_response(prefix)
        lines.append(f"| {label} | {len(times):,} | {figures(times)} |")
    clean = [s.first_response_ms for s in result.samples if not s.full_gc]
    lines.append(
        f"| all clicks without a full GC in the window | {len(clean):,} | {figures(clean)} |"
    )
    slow = [s for s in result.samples if s.first_response_ms > SLOW_MS]
    lines.append(
        f"| clicks slower than {SLOW_MS:.0f} ms (of them with a full GC in the window) "
        f"| {len(slow):,} ({sum(s.full_gc for s in slow):,}) | "
        + (", ".join(f"{s.first_response_ms:.0f} ms" for s in slow[:20]) or "none")
        + " |"
    )
    from_call = [s.from_call_ms for s in result.samples]
    lines.append(
        f"| (from the actor call, SimCord's click preparation included) | {clicks:,} "
        f"| {figures(from_call)} |"
    )
    lines += ["", *edit_summary(result), "", *freshness_summary(result)]
    if result.memory is not None:
        lines += ["", *memory_summary(result.games, result.memory)]
    gcs = result.full_gc_ms
    pauses = ", ".join(f"{ms:.0f}" for ms in gcs) or "none"
    lines += [
        "",
        f"Full (generation 2) GC pauses during the timed clicks: {len(gcs)} ({pauses} ms).",
    ]
    total = sum(result.requests.values())
    responses = result.requests["interaction response"]
    others = total - responses
    kinds = ", ".join(f"{kind} {count:,}" for kind, count in result.requests.most_common())
    lines += [
        "",
        f"REST calls: {total:,} ({kinds}): {total / clicks:.2f} per click; per move, its "
        f"response plus every other call: {1 + others / max(result.moves, 1):.2f}.",
    ]
    if result.slow is not None:
        lines += ["", *result.slow.report()]
    return lines


def hand_summary(sizes: list[int]) -> str:
    """A markdown line on how many cards the hands of the live games held at the end."""
    if not sizes:
        return "Hands at the end: none in play."
    return (
        f"Hands at the end: {len(sizes):,} in play, mean {statistics.fmean(sizes):.1f} cards, "
        f"largest {max(sizes)}, {sum(size >= 15 for size in sizes):,} of 15 cards or more."
    )


def memory_summary(games: int, heap: Memory) -> list[str]:
    """Markdown lines on what each live game costs."""
    mib = 1024 * 1024
    objects = heap.objects_after - heap.objects_before
    rss = heap.rss_after - heap.rss_before
    lines = [
        f"Memory with {games:,} live games (after the lobbies, before the timed clicks): "
        f"{heap.objects_after:,} GC-tracked objects ({objects / games:,.0f} more per game), "
        f"resident {heap.rss_after / mib:,.0f} MiB ({rss / games / 1024:,.1f} KiB more per game, "
        f"bot and simulator together).",
        "",
        "| reachable from | objects per game | bytes per game (sys.getsizeof) |",
        "|---|---:|---:|",
    ]
    for name, (count, size) in heap.shares.items():
        lines.append(f"| {name} | {count / games:,.0f} | {size / games:,.0f} |")
    if heap.frozen_garbage >= 0:
        lines += [
            "",
            f"Garbage kept by freezing (cycles among frozen objects, found by gc.unfreeze() and "
            f"a full collection after the run): {heap.frozen_garbage:,} objects.",
        ]
    return lines


def edit_summary(result: LoadResult) -> list[str]:
    """Markdown lines on the table edits and how far tables fell behind."""
    watch = result.edits
    seconds = result.wall_s + 1.2  # the timed clicks and the wait for the last edits
    waits = [s * 1000 for s in watch.waits_s]
    behind = [s * 1000 for s in watch.behind_s]
    return [
        f"Table edits: {len(watch.starts):,} started in {seconds:.1f} s, "
        f"{len(watch.starts) / seconds:.1f}/s (budget {result.edit_budget}/s; most in any one "
        f"second: {watch.most_in_one_second()}); tables still waiting at the end: "
        f"{result.left_behind:,}.",
        "",
        "| table staleness | samples | figures |",
        "|---|---:|---|",
        f"| an edit's wait since its table's first unshown change | {len(waits):,} "
        f"| {figures(waits)} |",
        f"| the most out-of-date table, sampled every second | {len(behind):,} "
        f"| {figures(behind)} |",
    ]


def freshness_summary(result: LoadResult) -> list[str]:
    """Markdown lines on counted requests against the global limit and each move's wait."""
    lines = []
    window = result.window
    if window is not None:
        seconds = result.wall_s + 1.2
        lines += [
            f"Counted requests at the windowed stand-in: {len(window.arrivals):,} in "
            f"{seconds:.1f} s, {len(window.arrivals) / seconds:.1f}/s; most in any one second: "
            f"{most_in_window(window.arrivals)} (Discord allows {GLOBAL_LIMIT}); global 429s: "
            f"{window.refused}.",
            "",
        ]
    stale = result.staleness
    clicks, others = stale.unshown()
    lines += [
        f"Requests through interaction tokens (not counted): {result.token_requests:,}. "
        f"Moves not shown when the run ended: {clicks} by clicks, {others} by computer "
        f"players and timers.",
        "",
        "| staleness: a move until the table shows it | moves | figures |",
        "|---|---:|---|",
        f"| by clicks | {len(stale.clicks_s):,} | {figures([s * 1000 for s in stale.clicks_s])} |",
        f"| by computer players and timers | {len(stale.others_s):,} "
        f"| {figures([s * 1000 for s in stale.others_s])} |",
    ]
    return lines


def most_in_window(times: list[float], window: float = 1.0) -> int:
    """The most of ``times`` (sorted) in any window of ``window`` seconds."""
    most = first = 0
    for last, time_ in enumerate(times):
        while times[first] <= time_ - window:
            first += 1
        most = max(most, last - first + 1)
    return most


def cpu_model() -> str:
    """The CPU's model name where Linux tells it."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def pin_to_one_core(cpu: int = 0) -> str:
    """Pin this process to one CPU where the OS allows it."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu} (os.sched_setaffinity)"
    return "not pinned (no sched_setaffinity on this OS)"


def prepare_run(cpu: int = 0) -> None:
    """Quiet the logs, pin the process to one core and print the machine it runs on."""
    logging.basicConfig(level=logging.WARNING)
    pinned = pin_to_one_core(cpu)
    print(f"machine: {cpu_model()}, nproc {os.cpu_count()}, {pinned}")
    print(f"python {platform.python_version()}, simcord {simcord.__version__}")


def main() -> None:
    """Run the load levels and print a markdown summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--clicks", type=int, default=20, help="timed clicks per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--memory", action="store_true", help="also count objects and bytes per live game (slow)"
    )
    parser.add_argument("--cpu", type=int, default=0, help="the CPU to pin the run to")
    parser.add_argument(
        "--hand-then-move",
        action="store_true",
        help="follow each Hand click at once with the move (for sweeps longer than a turn)",
    )
    parser.add_argument(
        "--pictures",
        choices=("on", "off", "both"),
        default="on",
        help="table pictures (the setting's default is on); both: a run with each",
    )
    parser.add_argument(
        "--picture-cpu",
        type=int,
        default=None,
        help="the CPU the picture-drawing process runs on (default: the bot's own)",
    )
    parser.add_argument(
        "--trace-slow",
        type=float,
        default=None,
        metavar="MS",
        help="trace the event loop and list what it ran during clicks slower than MS",
    )
    parser.add_argument(
        "--discord-window",
        action="store_true",
        help="counted requests meet a stand-in that enforces the 50-a-second global limit",
    )
    parser.add_argument(
        "--ai-tables",
        type=int,
        default=0,
        metavar="N",
        help="every N-th table seats a computer player too (0: none)",
    )
    parser.add_argument(
        "--turn-timeout",
        type=int,
        default=None,
        metavar="S",
        help="the host's turn timer in seconds (15-600, as config.toml allows; default 60)",
    )
    parser.add_argument(
        "--variant",
        choices=list(VARIANTS),
        default=None,
        help="every game plays this variant (default: half UNO Flip, half classic, as before)",
    )
    args = parser.parse_args()
    prepare_run(args.cpu)
    modes = {"on": [True], "off": [False], "both": [True, False]}[args.pictures]
    for games in args.games:
        for pictures in modes:
            gc.collect()
            result = asyncio.run(
                run_load(
                    games,
                    args.clicks,
                    args.seed,
                    args.memory,
                    args.hand_then_move,
                    pictures=pictures,
                    picture_cpu=args.picture_cpu,
                    trace_slow_ms=args.trace_slow,
                    discord_window=args.discord_window,
                    ai_every=args.ai_tables,
                    variant=args.variant,
                    turn_timeout=args.turn_timeout,
                )
            )
            print("\n".join(["", *summary(result)]), flush=True)


if __name__ == "__main__":
    main()
