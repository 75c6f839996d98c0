"""Tests for bench/loop_trace.py: it names the long callbacks and splits wall from CPU time."""

from __future__ import annotations

import asyncio
import time

import pytest

from bench.bot_load import run_load, summary
from bench.loop_trace import LoopTrace


def busy(seconds: float) -> None:
    """Run on the CPU for ``seconds`` of this thread's CPU time."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


async def test_long_callbacks_are_named_with_their_cpu_time() -> None:
    """A busy callback shows its CPU time, a blocked one (sleeping thread) almost none, and a
    short one is not kept."""
    loop = asyncio.get_running_loop()
    trace = LoopTrace(threshold_ms=5.0)
    trace.install(loop)
    try:
        start = trace.snapshot()
        loop.call_soon(busy, 0.02)
        loop.call_soon(time.sleep, 0.02)
        loop.call_soon(busy, 0.0)
        await asyncio.sleep(0.05)
        await asyncio.sleep(0.03)  # nothing else to run: the loop waits in its selector
        end = trace.snapshot()
    finally:
        trace.uninstall()
    window = trace.window(start, end, 0, 0.0)
    by_name = {event.what: event for event in window.callbacks}
    assert set(by_name) == {"busy", "sleep"}
    # (the two clocks differ by microseconds)
    assert by_name["busy"].cpu >= 0.02 and by_name["busy"].wall >= 0.0195
    assert by_name["sleep"].wall >= 0.02 and by_name["sleep"].cpu < 0.01
    assert any(event.what.startswith("timeout") for event in window.waits)
    wall, cpu, _, _ = window.split_ms()
    assert wall >= 80 and 20 <= cpu < wall
    assert asyncio.events.Handle._run.__name__ == "_run"  # put back


@pytest.mark.slow
async def test_the_bench_traces_every_click_slower_than_the_threshold() -> None:
    """With a threshold of 0 ms every timed click gets a window, each move's showing its wait
    for the save, and the report lists them."""
    result = await run_load(games=2, clicks_per_game=3, seed=3, trace_slow_ms=0.0)
    assert result.slow is not None
    assert len(result.slow.windows) == len(result.samples) == 6
    moves = [window for kind, _, window in result.slow.windows if kind.startswith("move")]
    # Every move is answered once it is saved: its window shows that wait.
    assert moves and all(
        any("waited for its save" in note.what for note in window.notes) for window in moves
    )
    assert any(line.startswith("Loop trace: 6 clicks slower than 0 ms") for line in summary(result))
