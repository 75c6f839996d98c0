"""The computer players' thread: decisions queued behind others get less time, none is lost."""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from dataclasses import dataclass, field

from bot.ai import HardStrategy, NormalStrategy, Strategy
from bot.ai.thinking import MIN_BUDGET_SECONDS, QUEUE_SECONDS, Thinker, budget_for
from bot.engine import Game, Move, PlayerView, RuleSet, view_for


@dataclass
class Recording:
    """Records the time offered to each decision; may hold the thread until released."""

    offered: list[float] = field(default_factory=list)
    release: threading.Event | None = None
    started: threading.Event = field(default_factory=threading.Event)
    difficulty: str = "normal"

    def within(self, seconds: float) -> Strategy:
        self.offered.append(seconds)
        return self

    def choose_move(self, view: PlayerView, rng: random.Random) -> Move:
        self.started.set()
        if self.release is not None:
            self.release.wait(timeout=10)
        return view.legal_moves[0]


def _view() -> PlayerView:
    game = Game.new(["a", "b"], RuleSet(variant="classic"), seed=3)
    player = game.current_player
    assert player is not None
    return view_for(game, player)


async def busy_thinker() -> tuple[Thinker, PlayerView, Recording, asyncio.Future[Move]]:
    """A thinker whose thread is held by a first decision (``release`` lets it finish)."""
    thinker = Thinker()
    view = _view()
    busy = Recording(release=threading.Event())
    first = asyncio.ensure_future(thinker.decide(busy, view, random.Random(0)))
    await asyncio.to_thread(busy.started.wait, 10)
    return thinker, view, busy, first


def release(busy: Recording) -> None:
    """Let the decision holding the thread finish."""
    assert busy.release is not None
    busy.release.set()


def test_an_idle_thread_gives_the_whole_budget_and_a_long_queue_the_least() -> None:
    """Nothing waiting: more than hard's own budget, so hard keeps its 50 ms."""
    assert budget_for(0) == QUEUE_SECONDS >= HardStrategy().budget_seconds  # type: ignore[operator]
    assert budget_for(1) > budget_for(4) > budget_for(9)
    assert budget_for(10_000) == MIN_BUDGET_SECONDS


def test_hard_only_ever_gets_quicker() -> None:
    """``within`` lowers hard's budget, never raises it; unbudgeted players stay as they are."""
    hard = HardStrategy()
    assert hard.within(0.01).budget_seconds == 0.01
    assert hard.within(1.0) is hard
    unclocked = HardStrategy(budget_seconds=None, max_rollouts=10)
    assert unclocked.within(0.001) is unclocked
    normal = NormalStrategy()
    assert normal.within(0.001) is normal


async def test_decisions_queued_behind_others_share_the_time() -> None:
    """Four decisions queue behind a busy thread: each gets the share for those behind it."""
    thinker, view, busy, first = await busy_thinker()
    queued = Recording()
    rest = [asyncio.ensure_future(thinker.decide(queued, view, random.Random(0))) for _ in range(4)]
    await asyncio.sleep(0)
    assert thinker.waiting == 4
    release(busy)
    moves = await asyncio.gather(first, *rest)
    assert all(move in view.legal_moves for move in moves)
    assert busy.offered == [budget_for(0)]
    assert queued.offered == [budget_for(3), budget_for(2), budget_for(1), budget_for(0)]
    assert thinker.waiting == 0
    thinker.shutdown()


async def test_a_decision_cancelled_in_the_queue_is_not_counted_as_waiting() -> None:
    """A turn cancelled while its decision waits (AI removed) leaves the count right."""
    thinker, view, busy, first = await busy_thinker()
    dropped = Recording()
    cancelled = asyncio.ensure_future(thinker.decide(dropped, view, random.Random(0)))
    await asyncio.sleep(0)
    assert thinker.waiting == 1
    cancelled.cancel()
    # Once the cancelled turn has ended, its queued decision can no longer start.
    with contextlib.suppress(asyncio.CancelledError):
        await cancelled
    release(busy)
    await first
    later = Recording()
    await thinker.decide(later, view, random.Random(0))
    assert dropped.offered == []
    assert thinker.waiting == 0
    assert later.offered == [budget_for(0)]
    thinker.shutdown()
