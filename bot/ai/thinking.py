"""Where computer players think: one thread of their own, with less time each when busy.

Decisions run on a single thread so the event loop keeps answering clicks (more threads would
only share the GIL with the loop more ways). Under load, decisions queue for that thread; a
decision that starts with others waiting behind it gets a share of ``QUEUE_SECONDS`` instead of
the strategy's full budget, so the queue drains and a computer player's move still lands soon
after its delay. When the thread is idle, every decision gets its full budget.
"""

from __future__ import annotations

import asyncio
import random
import threading
from concurrent.futures import Future, ThreadPoolExecutor

from bot.ai import Strategy
from bot.engine import Move, PlayerView

# The time the decisions queued at one moment should take together, in seconds.
QUEUE_SECONDS = 0.1
# Never less than this per decision: a hard player still checks a few rollouts.
MIN_BUDGET_SECONDS = 0.005


def budget_for(waiting: int) -> float:
    """Seconds a decision may take when ``waiting`` other decisions are queued behind it."""
    return max(MIN_BUDGET_SECONDS, QUEUE_SECONDS / (waiting + 1))


class Thinker:
    """Runs strategies' decisions on one thread, counting those that wait for it."""

    def __init__(self) -> None:
        """A thinker with its thread (started on the first decision)."""
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ai")
        self._waiting = 0
        self._lock = threading.Lock()

    @property
    def waiting(self) -> int:
        """Decisions asked for and not yet started."""
        return self._waiting

    async def decide(self, strategy: Strategy, view: PlayerView, rng: random.Random) -> Move:
        """``strategy``'s move for ``view``, worked out on the thinking thread."""
        with self._lock:
            self._waiting += 1
        future = self.executor.submit(self._decide, strategy, view, rng)
        # A turn cancelled while queued (its AI removed, the game over) never starts.
        future.add_done_callback(self._forget_if_cancelled)
        return await asyncio.wrap_future(future)

    def _decide(self, strategy: Strategy, view: PlayerView, rng: random.Random) -> Move:
        with self._lock:
            self._waiting -= 1
            behind = self._waiting
        return strategy.within(budget_for(behind)).choose_move(view, rng)

    def _forget_if_cancelled(self, future: Future[Move]) -> None:
        if future.cancelled():
            with self._lock:
                self._waiting -= 1

    def shutdown(self) -> None:
        """Drop queued decisions and let the thread end after the current one."""
        self.executor.shutdown(wait=False, cancel_futures=True)
