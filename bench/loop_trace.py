"""What the event loop ran, and whether the process had the CPU, during slow clicks (bench only).

``LoopTrace`` wraps ``asyncio.events.Handle._run`` (every callback, task step and timer of every
asyncio loop in the process; never done in the bot) and the loop's selector, and registers a
``gc`` callback. It keeps the callbacks, selector waits and collections longer than a threshold,
each with its start, wall time and the main thread's CPU time. ``snapshot()`` reads the
process's clocks and the kernel's scheduler counters; two snapshots around a click tell
whether its wall time was the loop's work (main-thread CPU time) or waiting for a CPU the
machine gave to someone else (the thread's run-queue wait, from /proc/thread-self/schedstat,
and the steal time of its CPU, from /proc/stat).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import resource
import selectors
import time
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

# Linux reports /proc/stat in clock ticks (USER_HZ).
TICK_S = 1.0 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01
KEPT = 200_000  # most events of each kind kept (oldest dropped): bounds a long run's memory


@dataclass(frozen=True)
class Snapshot:
    """The process's and its CPU's clocks at one moment (seconds; ticks for /proc/stat)."""

    wall: float
    thread_cpu: float
    process_cpu: float
    run_queue: float  # the main thread's time runnable but not running
    involuntary: int  # the main thread's involuntary context switches
    cpu_busy_ticks: int  # the pinned CPU's user+nice+system+irq+softirq, every process
    cpu_steal_ticks: int  # the pinned CPU's time taken by the hypervisor
    helper_ticks: int  # CPU time of the helper processes (the bot's drawing process)
    ready: int  # callbacks waiting in the loop's ready queue


@dataclass(frozen=True)
class Event:
    """One callback, selector wait or collection longer than the threshold."""

    start: float
    wall: float
    cpu: float
    what: str


@dataclass
class Window:
    """What happened between two snapshots (a click's first-response window)."""

    start: Snapshot
    end: Snapshot
    callbacks: list[Event]
    waits: list[Event]
    collections: list[Event]
    notes: list[Event]
    callback_count: int
    callback_s: float

    def split_ms(self) -> tuple[float, float, float, float]:
        """(wall, main thread's CPU, main thread waiting for a CPU, stolen from its CPU) ms."""
        a, b = self.start, self.end
        return (
            (b.wall - a.wall) * 1000,
            (b.thread_cpu - a.thread_cpu) * 1000,
            (b.run_queue - a.run_queue) * 1000,
            (b.cpu_steal_ticks - a.cpu_steal_ticks) * TICK_S * 1000,
        )

    def lines(self) -> list[str]:
        """A short account: where the wall time went, then the long events in order."""
        a, b = self.start, self.end
        wall, thread, queued, steal = self.split_ms()
        others = (b.process_cpu - a.process_cpu) * 1000 - thread
        busy = (b.cpu_busy_ticks - a.cpu_busy_ticks) * TICK_S * 1000
        helpers = (b.helper_ticks - a.helper_ticks) * TICK_S * 1000
        lines = [
            f"  wall {wall:.1f} ms: main thread on a CPU {thread:.1f} ms, runnable but waiting "
            f"for the CPU {queued:.1f} ms ({b.involuntary - a.involuntary} involuntary "
            f"switches); the process's other threads {others:.1f} ms of CPU, its drawing "
            f"process {helpers:.0f} ms; its CPU busy {busy:.0f} ms (every process; these three "
            f"in 10 ms ticks), stolen by the host {steal:.0f} ms",
            f"  loop: {self.callback_count} callbacks, {self.callback_s * 1000:.1f} ms in them; "
            f"{a.ready} callbacks ready when it began",
        ]
        events = sorted(
            [("callback", e) for e in self.callbacks]
            + [("waited in select", e) for e in self.waits]
            + [("collection", e) for e in self.collections]
            + [("", e) for e in self.notes],
            key=lambda pair: pair[1].start,
        )
        for kind, event in events:
            at = (event.start - a.wall) * 1000
            if not kind:  # a note: its own words
                lines.append(f"    +{at:6.1f} ms {event.what} {event.wall * 1000:.1f} ms")
                continue
            cpu = f", CPU {event.cpu * 1000:.1f} ms" if kind != "waited in select" else ""
            lines.append(f"    +{at:6.1f} ms {kind} {event.wall * 1000:.1f} ms{cpu}: {event.what}")
        return lines


def describe(callback: Callable[..., Any]) -> str:
    """A short name for a loop callback: a task step names the task's coroutine chain."""
    while isinstance(callback, partial):
        callback = callback.func
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        return "task " + coroutine_chain(owner.get_coro())
    return str(getattr(callback, "__qualname__", type(callback).__qualname__))


def coroutine_chain(coro: Any) -> str:
    """'outer > ... > inner' qualnames of a coroutine and what it awaits, at most 4 deep."""
    names: list[str] = []
    while coro is not None and len(names) < 4:
        name = getattr(coro, "__qualname__", None)
        if name is None:
            names.append(type(coro).__qualname__)
            break
        names.append(name)
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return " > ".join(names)


class LoopTrace:
    """Times every event-loop callback, selector wait and garbage collection of the process,
    keeping those over ``threshold_ms``; ``snapshot()`` reads the scheduler's counters."""

    def __init__(
        self, threshold_ms: float = 2.0, cpu: int | None = None, helpers: Iterable[int] = ()
    ) -> None:
        self.threshold = threshold_ms / 1000
        self.cpu = cpu
        self.helpers = list(helpers)
        self.callbacks: deque[Event] = deque(maxlen=KEPT)
        self.waits: deque[Event] = deque(maxlen=KEPT)
        self.collections: deque[Event] = deque(maxlen=KEPT)
        self.notes: deque[Event] = deque(maxlen=KEPT)
        self._ready: Any = ()
        self.callback_count = 0
        self.callback_s = 0.0
        self.long_by_name: Counter[str] = Counter()
        self.long_s_by_name: defaultdict[str, float] = defaultdict(float)
        self._gc_started = (0.0, 0.0)
        self._schedstat = -1
        self._stat = -1
        self._helper_stats: list[int] = []
        self._undo: list[Callable[[], None]] = []

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        """Start tracing (call on the loop's thread: the scheduler counters are its own)."""
        self._ready = getattr(loop, "_ready", ())
        with contextlib.suppress(OSError):
            self._schedstat = os.open("/proc/thread-self/schedstat", os.O_RDONLY)
        with contextlib.suppress(OSError):
            self._stat = os.open("/proc/stat", os.O_RDONLY)
        for pid in self.helpers:
            with contextlib.suppress(OSError):
                self._helper_stats.append(os.open(f"/proc/{pid}/stat", os.O_RDONLY))
        original_run = asyncio.events.Handle._run
        trace = self

        def timed_run(handle: asyncio.Handle) -> None:
            callback = handle._callback  # type: ignore[attr-defined]
            # Named before it runs: a task step's chain is where it resumes.
            name = describe(callback) if callback is not None else "cancelled"
            started, cpu_started = time.perf_counter(), time.thread_time()
            original_run(handle)
            wall = time.perf_counter() - started
            trace.callback_count += 1
            trace.callback_s += wall
            if wall >= trace.threshold:
                cpu = time.thread_time() - cpu_started
                trace.callbacks.append(Event(started, wall, cpu, name))
                trace.long_by_name[name] += 1
                trace.long_s_by_name[name] += wall

        asyncio.events.Handle._run = timed_run  # type: ignore[method-assign,assignment]
        self._undo.append(lambda: setattr(asyncio.events.Handle, "_run", original_run))
        selector: selectors.BaseSelector = loop._selector  # type: ignore[attr-defined]
        original_select = selector.select

        def timed_select(timeout: float | None = None) -> Any:
            started = time.perf_counter()
            events = original_select(timeout)
            wall = time.perf_counter() - started
            if wall >= trace.threshold:
                what = f"timeout {timeout * 1000:.1f} ms" if timeout is not None else "no timeout"
                trace.waits.append(Event(started, wall, 0.0, f"{what}, {len(events)} ready"))
            return events

        selector.select = timed_select  # type: ignore[method-assign]
        self._undo.append(lambda: delattr(selector, "select"))
        gc.callbacks.append(self._on_gc)
        self._undo.append(lambda: gc.callbacks.remove(self._on_gc))

    def uninstall(self) -> None:
        """Stop tracing; what was kept stays."""
        while self._undo:
            self._undo.pop()()
        for fd in (self._schedstat, self._stat, *self._helper_stats):
            if fd >= 0:
                os.close(fd)
        self._schedstat = self._stat = -1
        self._helper_stats = []

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = (time.perf_counter(), time.thread_time())
            return
        started, cpu = self._gc_started
        wall = time.perf_counter() - started
        if wall >= self.threshold or info["generation"] == 2:
            what = f"generation {info['generation']}, {info['collected']} freed"
            self.collections.append(Event(started, wall, time.thread_time() - cpu, what))

    def note(self, start: float, wall: float, what: str) -> None:
        """Keep something the caller timed (perf_counter start, seconds), shown in windows."""
        self.notes.append(Event(start, wall, 0.0, what))

    def snapshot(self) -> Snapshot:
        """The clocks now."""
        run_queue = 0.0
        if self._schedstat >= 0:
            # "<ns on a CPU> <ns runnable, waiting for one> <timeslices>"
            run_queue = int(os.pread(self._schedstat, 128, 0).split()[1]) / 1e9
        busy = steal = 0
        if self._stat >= 0 and self.cpu is not None:
            prefix = f"cpu{self.cpu} ".encode()
            for line in os.pread(self._stat, 8192, 0).splitlines():
                if line.startswith(prefix):
                    ticks = [int(x) for x in line.split()[1:9]]
                    busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6]
                    steal = ticks[7]
                    break
        helpers = 0
        for fd in self._helper_stats:
            # After "(name)": state is field 3, utime and stime fields 14 and 15.
            fields = os.pread(fd, 1024, 0).rsplit(b")", 1)[1].split()
            helpers += int(fields[11]) + int(fields[12])
        return Snapshot(
            time.perf_counter(),
            time.thread_time(),
            time.process_time(),
            run_queue,
            resource.getrusage(resource.RUSAGE_THREAD).ru_nivcsw,
            busy,
            steal,
            helpers,
            len(self._ready),
        )

    def window(self, start: Snapshot, end: Snapshot, count: int, seconds: float) -> Window:
        """The events that overlap the time between two snapshots, and the callbacks run since
        the totals were ``count`` and ``seconds``."""

        def overlapping(events: deque[Event]) -> list[Event]:
            return [e for e in events if e.start < end.wall and e.start + e.wall > start.wall]

        return Window(
            start,
            end,
            overlapping(self.callbacks),
            overlapping(self.waits),
            overlapping(self.collections),
            overlapping(self.notes),
            self.callback_count - count,
            self.callback_s - seconds,
        )

    def totals(self) -> tuple[int, float]:
        """(callbacks run, seconds in them) so far."""
        return self.callback_count, self.callback_s


@dataclass
class SlowClicks:
    """The windows of clicks slower than ``slow_ms``, found by snapshots around every click."""

    trace: LoopTrace
    slow_ms: float
    windows: list[tuple[str, float, Window]] = field(default_factory=list)

    def start(self) -> tuple[Snapshot, int, float]:
        """Call when a click's event is emitted."""
        return (self.trace.snapshot(), *self.trace.totals())

    def end(self, kind: str, begun: tuple[Snapshot, int, float]) -> None:
        """Call when its first response arrives: keeps the window if the click was slow."""
        end = self.trace.snapshot()
        start, count, seconds = begun
        ms = (end.wall - start.wall) * 1000
        if ms > self.slow_ms:
            self.windows.append((kind, ms, self.trace.window(start, end, count, seconds)))

    def report(self, slowest: int = 10) -> list[str]:
        """The slowest clicks' windows, then the longest callbacks of the whole run by name."""
        trace = self.trace
        lines = [
            f"Loop trace: {len(self.windows)} clicks slower than {self.slow_ms:g} ms; events "
            f"kept from {trace.threshold * 1000:g} ms ({trace.callback_count:,} callbacks run, "
            f"{len(trace.callbacks):,} of them that long).",
        ]
        if self.windows:
            splits = [w.split_ms() for _, _, w in self.windows]
            wall, cpu, queued, steal = (sum(parts) for parts in zip(*splits, strict=True))
            # Had the process had its CPU throughout, a window could not be shorter than the
            # main thread's CPU time in it: those over slow_ms are the loop's own doing.
            cpus = [split[1] for split in splits]
            own = sum(1 for ms in cpus if ms > self.slow_ms)
            lines.append(
                f"Their windows together: {wall:,.0f} ms of wall time, the main thread on a CPU "
                f"{cpu:,.0f} ms ({cpu / wall:.0%}), runnable but waiting for the CPU "
                f"{queued:,.0f} ms ({queued / wall:.0%}); stolen by the host {steal:,.0f} ms. "
                f"The most CPU time the main thread had in one window: {max(cpus):.1f} ms; "
                f"windows with more than {self.slow_ms:g} ms of it: {own}."
            )
        for kind, ms, window in sorted(self.windows, key=lambda w: -w[1])[:slowest]:
            lines += ["", f"- {kind}: {ms:.1f} ms", *window.lines()]
        full = [e for e in trace.collections if e.what.startswith("generation 2")]
        if full:
            lines += [
                "",
                f"Full collections while tracing: {len(full)}, CPU max "
                f"{max(e.cpu for e in full) * 1000:.1f} ms, wall max "
                f"{max(e.wall for e in full) * 1000:.1f} ms.",
            ]
        lines += [
            "",
            "Longest callbacks by the main thread's CPU time (CPU ms, of it in garbage "
            "collections, wall ms):",
        ]
        for event in sorted(trace.callbacks, key=lambda e: -e.cpu)[:slowest]:
            inside = sum(
                c.cpu
                for c in trace.collections
                if event.start <= c.start < event.start + event.wall
            )
            lines.append(
                f"  {event.cpu * 1000:.1f} / {inside * 1000:.1f} / {event.wall * 1000:.1f}: "
                f"{event.what}"
            )
        lines += ["", "Callbacks over the threshold, by name (count, total ms, max ms):"]
        longest: dict[str, float] = {}
        for event in trace.callbacks:
            longest[event.what] = max(longest.get(event.what, 0.0), event.wall)
        by_total = sorted(trace.long_s_by_name.items(), key=lambda item: -item[1])
        for name, seconds in by_total[:15]:
            lines.append(
                f"  {trace.long_by_name[name]:,} / {seconds * 1000:,.0f} ms / "
                f"{longest.get(name, 0.0) * 1000:.1f} ms: {name}"
            )
        return lines
