"""Benchmark the bot while computer players think: do people's clicks still get quick answers?

Each of ``--games`` channels holds one person and three computer players (``--difficulty``,
hard by default) with the production settings (``ai_delay`` 1.5 s, table edits coalesced over
1 s), all inside SimCord on one core, on the real clock as in production (see bench/bot_load.py,
whose machinery this reuses). For ``--seconds`` the person at every table plays their turns as
soon as they come (Hand, then a random enabled move; Next round after a round) while the computer
players take theirs on their own.

What is measured:

- first response of every click of a person (gateway event to interaction callback request);
- event-loop lag: a task that asks to wake every 10 ms records how late it wakes, which is how
  long anything else (a click, a timer) would have waited at that moment;
- computer moves: how many decisions were made, the wall time of each, and how long a computer
  player waited for its decision from asking to answer (with its own thread, the queue).

    .venv/bin/python -m bench.ai_load --games 50 200 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import simcord

from bot.ai import Difficulty, Strategy, hard
from bot.ai.montecarlo import Rollouts
from bot.client import UnoBot
from bot.computer_turns import ComputerTurns
from bot.engine import Move, Phase, PlayerView

from .bot_load import (
    SETTLE_TIMEOUT,
    Recorder,
    _ids,
    custom_id,
    figures,
    game_channels,
    hand_buttons,
    make_settings,
    prepare_run,
    start_command,
    untrack_bot_work,
)

COMPUTER_PLAYERS = 3
LAG_TICK = 0.010  # seconds the lag monitor asks to sleep
IDLE_WAIT = 0.005  # seconds the driver waits when no person has a turn


@dataclass
class AiLoadResult:
    """Everything one run measured."""

    games: int
    difficulty: str
    seconds: float
    on_loop: bool
    first_response_ms: list[float] = field(default_factory=list)
    lag_ms: list[float] = field(default_factory=list)
    decision_ms: list[float] = field(default_factory=list)
    budget_ms: list[float] = field(default_factory=list)
    answer_ms: list[float] = field(default_factory=list)
    # Rollouts run by each decision that ran any (hard only; easy and normal never do).
    rollouts: list[int] = field(default_factory=list)
    errors: int = 0


@dataclass
class Seat:
    """One channel's person and their latest ephemeral hand."""

    channel: Any
    person: Any
    command: str
    hand: Any = None


def next_click(bot: UnoBot, seat: Seat, rng: random.Random) -> Callable[[], Any] | None:
    """The person's next click at this table, or None while it is not their move."""
    session = bot.sessions.by_channel.get(seat.channel.id)
    if session is None or session.state.game is None:
        return None
    game = session.state.game
    public = seat.channel.last_message
    if game.phase is Phase.ROUND_OVER:
        # A round ended by a computer player shows its button once the coalesced edit lands.
        button = custom_id(public, "Next round")
        if button is None:
            return None
        return lambda: seat.person.click(public, custom_id=button)
    if game.current_player != str(seat.person.id):
        return None
    moves: list[str] = []
    if seat.hand is not None:
        buttons = hand_buttons(seat.hand)
        if all(serial == str(session.state.serial) for serial, _, _ in buttons):
            moves = [code for _, code, on in buttons if on and code[:1] not in "rg"]
    if not moves:
        return lambda: seat.person.click(public, label="Hand")
    code = rng.choice(moves)
    target = next(c for c in _ids(seat.hand) if c.endswith(f":{code}"))
    return lambda: seat.person.click(seat.hand, custom_id=target)


async def play_seat(
    seat: Seat, call: Callable[[], Any], recorder: Recorder, out: list[float]
) -> None:
    """Make one click and record its first response."""
    result = await call()
    emitted, answered = await recorder.first_response(recorder.last)
    out.append((answered - emitted) * 1000)
    if result.response is not None and result.response.ephemeral:
        seat.hand = result.response


async def watch_lag(out: list[float], stop: asyncio.Event) -> None:
    """Record how late a 10 ms sleep wakes, until ``stop`` is set."""
    while not stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(LAG_TICK)
        out.append((time.perf_counter() - started - LAG_TICK) * 1000)


@dataclass(frozen=True)
class TimedStrategy:
    """A strategy that records the wall time of each of its decisions."""

    inner: Strategy
    out: list[float]
    budgets: list[float]

    @property
    def difficulty(self) -> str:
        """The inner strategy's difficulty."""
        return self.inner.difficulty

    def choose_move(self, view: PlayerView, rng: random.Random) -> Move:
        """The inner strategy's move, timed."""
        started = time.perf_counter()
        try:
            return self.inner.choose_move(view, rng)
        finally:
            self.out.append((time.perf_counter() - started) * 1000)

    def within(self, seconds: float) -> TimedStrategy:
        """The inner strategy within ``seconds``, still timed; the budget is recorded."""
        self.budgets.append(seconds * 1000)
        return TimedStrategy(self.inner.within(seconds), self.out, self.budgets)


@contextmanager
def timing_decisions(result: AiLoadResult) -> Iterator[None]:
    """Time every computer decision, and each wait for one from asking to answer (queue
    included); with ``result.on_loop``, decide on the event loop itself (as the bot did before
    decisions moved to their own thread), for comparison."""
    original_strategy = ComputerTurns._strategy
    original_think = ComputerTurns._think
    original_rollouts = hard.run_rollouts  # type: ignore[attr-defined]

    def counted_rollouts(*args: Any, **kwargs: Any) -> Rollouts:
        found = original_rollouts(*args, **kwargs)
        result.rollouts.append(found.runs)
        return found

    def timed_strategy(self: ComputerTurns, player: str) -> Strategy:
        return TimedStrategy(original_strategy(self, player), result.decision_ms, result.budget_ms)

    async def timed_think(self: ComputerTurns, strategy: Strategy, view: PlayerView) -> Move:
        started = time.perf_counter()
        try:
            if result.on_loop:
                return strategy.choose_move(view, self.rng)
            return await original_think(self, strategy, view)
        finally:
            result.answer_ms.append((time.perf_counter() - started) * 1000)

    ComputerTurns._strategy = timed_strategy  # type: ignore[method-assign]
    ComputerTurns._think = timed_think  # type: ignore[method-assign]
    hard.run_rollouts = counted_rollouts  # type: ignore[attr-defined]
    try:
        yield
    finally:
        ComputerTurns._strategy = original_strategy  # type: ignore[method-assign]
        ComputerTurns._think = original_think  # type: ignore[method-assign]
        hard.run_rollouts = original_rollouts  # type: ignore[attr-defined]


async def run_ai_load(
    games: int,
    seconds: float,
    difficulty: Difficulty = "hard",
    seed: int = 1,
    on_loop: bool = False,
    ai_delay: float | None = None,
) -> AiLoadResult:
    """Start the bot in SimCord, seat one person and three computer players per channel, play;
    ``ai_delay`` replaces the production pause before each computer move (the smoke test's
    few seconds must reach the person's turn whatever the deal)."""
    rng = random.Random(seed)
    result = AiLoadResult(games, difficulty, seconds, on_loop)
    with tempfile.TemporaryDirectory() as temp, timing_decisions(result):
        settings = make_settings(Path(temp))
        if ai_delay is not None:
            settings.ai_delay = ai_delay
        bot = UnoBot(settings, shard_count=1)
        async with simcord.run(bot, settle_timeout=SETTLE_TIMEOUT) as env:
            recorder = Recorder()
            recorder.install(env)
            seats = [
                Seat(channel, guild.add_member(env.create_user(f"p{index}")), start_command(played))
                for index, guild, channel, played in game_channels(env, games)
            ]
            await env.settle()
            # Untracked before the lobbies open: SimCord's settling slows down with every
            # session's timers (see bot_load), so each step waits for its callback instead.
            untrack_bot_work(env)
            for seat in seats:
                await seat.person.slash(
                    seat.channel, seat.command, ai=COMPUTER_PLAYERS, ai_difficulty=difficulty
                )
                await recorder.first_response(recorder.last)
            for seat in seats:
                await seat.person.click(seat.channel.last_message, label="Start")
                await recorder.first_response(recorder.last)
            result.decision_ms.clear()
            result.budget_ms.clear()
            result.answer_ms.clear()
            result.rollouts.clear()
            stop = asyncio.Event()
            monitor = asyncio.ensure_future(watch_lag(result.lag_ms, stop))
            deadline = time.perf_counter() + seconds
            while time.perf_counter() < deadline:
                started = 0
                for seat in seats:
                    call = next_click(bot, seat, rng)
                    if call is None:
                        continue
                    # One click in flight at a time keeps the recorder's "last" unambiguous.
                    await play_seat(seat, call, recorder, result.first_response_ms)
                    started += 1
                if not started:
                    await asyncio.sleep(IDLE_WAIT)
            stop.set()
            await monitor
            recorder.uninstall()
            result.errors = len(env.errors)
            await bot.close()
    return result


def summary(result: AiLoadResult) -> list[str]:
    """Markdown lines for one run."""
    moves = len(result.decision_ms)
    where = "on the event loop" if result.on_loop else "on their own thread"
    return [
        f"**{result.games} games** (one person, {COMPUTER_PLAYERS} {result.difficulty} computer "
        f"players each; decisions {where}), {result.seconds:.0f} s: "
        f"{len(result.first_response_ms):,} clicks by people, {moves:,} computer decisions "
        f"({moves / result.seconds:.1f}/s). Bot errors: {result.errors}.",
        "",
        "| measure | samples | figures |",
        "|---|---:|---|",
        f"| first response of a person's click | {len(result.first_response_ms):,} "
        f"| {figures(result.first_response_ms)} |",
        f"| event-loop lag (a 10 ms sleep woken late by) | {len(result.lag_ms):,} "
        f"| {figures(result.lag_ms)} |",
        f"| wall time of a computer decision (`choose_move`) | {moves:,} "
        f"| {figures(result.decision_ms)} |",
        f"| time offered to a decision (less while others queue; hard takes at most 50 ms) "
        f"| {len(result.budget_ms):,} "
        f"| {figures(result.budget_ms)} |",
        f"| a computer player's wait for its decision (queue included) "
        f"| {len(result.answer_ms):,} | {figures(result.answer_ms)} |",
        f"| rollouts per decision that ran rollouts (mean over all decisions: "
        f"{sum(result.rollouts) / max(moves, 1):.1f}) | {len(result.rollouts):,} "
        f"| {rollout_figures(result.rollouts)} |",
    ]


def rollout_figures(runs: list[int]) -> str:
    """Mean and quantiles of the rollouts per decision."""
    if not runs:
        return "none"
    ordered = sorted(runs)
    quantile = {q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] for q in (0.5, 0.99)}
    return (
        f"mean {sum(ordered) / len(ordered):.1f}, p50 {quantile[0.5]}, p99 {quantile[0.99]}, "
        f"max {ordered[-1]}"
    )


def main() -> None:
    """Run the load levels and print a markdown summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--difficulty", choices=["easy", "normal", "hard"], default="hard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--on-loop", action="store_true", help="decide on the event loop (the former way)"
    )
    args = parser.parse_args()
    prepare_run()
    for games in args.games:
        gc.collect()
        result = asyncio.run(
            run_ai_load(games, args.seconds, args.difficulty, args.seed, args.on_loop)
        )
        print("\n".join(["", *summary(result)]), flush=True)


if __name__ == "__main__":
    main()
