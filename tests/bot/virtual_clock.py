"""An event loop on a fake clock: when nothing is ready, time jumps to the next timer.

Timers, sleeps and ``call_later`` run in their order and at their virtual times, however long
they are, and a test takes no real time waiting for them. Real sockets still work (the loop
polls them without waiting), so a local test server can stand in for Discord.
"""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class _JumpingSelector:
    """The loop's selector, polled without waiting; a wait it was asked for moves the clock."""

    def __init__(self, real: selectors.BaseSelector, loop: VirtualClockLoop) -> None:
        self._real = real
        self._loop = loop

    def select(self, timeout: float | None = None) -> list[Any]:
        events = self._real.select(0)
        if not events and timeout:
            self._loop.now += timeout
        return events

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class VirtualClockLoop(asyncio.SelectorEventLoop):
    """A selector event loop whose ``time()`` is virtual (starts at 0)."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0
        real: Any = self._selector  # type: ignore[has-type]
        self._selector = _JumpingSelector(real, self)

    def time(self) -> float:
        """The virtual time."""
        return self.now


def run_on_fake_clock(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` to its end on a new virtual-clock loop."""
    loop = VirtualClockLoop()
    try:
        return loop.run_until_complete(main)
    finally:
        loop.close()
