"""One budget for every table edit of this process, spent fairly.

Discord lets a bot make 50 REST requests a second across all its processes. Interaction
responses and follow-ups do not count, channel message edits do: a player's own hand stays
current through the response to their click, but the public table of each game is a message
edit. At 1,000 busy games the tables alone ask for about 140 edits a second; sent as asked,
discord.py would queue them behind its global limit and every table would fall further behind.

``EditBudget`` starts at most ``rate`` edits in any window of ``per`` seconds, and never two of
one table closer than ``min_interval``. Requests for a table that already waits are merged into
its one pending edit (the newest callable wins), and the table that has waited longest since its
first unshown change goes first: under load every table falls behind by about the same time,
rather than busy tables starving quiet ones. Edits go out evenly spread (a token bucket holding
a tenth of the rate): 45 edits drawn at once would hold up the clicks queued behind them.

Every other REST call a game makes outside an interaction (a turn reminder, its deletion, a
table posted anew after someone deleted it, a notice) spends the same budget through ``call``:
one-off calls, never merged, that go before the table edits (they are few, and a reminder is
only worth sending on time).

Discord counts a request when it arrives, somewhere between our sending it and its answer coming
back, so a budget counted at sending lets a burst the network delays together land in one
second. ``RequestWindow`` counts where Discord might: a request holds its slot from sending until
``per`` seconds after its answer. Every counted request of the process takes a slot, the
retries discord.py makes after a 429 and the start-up's card emoji included (``bot.rest_gate``
sees each attempt on the wire); the budget's own edits reserve theirs before they start.

Pure asyncio: it knows keys and callables, not Discord.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from contextvars import ContextVar
from dataclasses import dataclass

log = logging.getLogger(__name__)

Edit = Callable[[], Awaitable[None]]
# Told of every edit as it starts: its key (None for a one-off call), the loop time of its
# oldest change not shown yet (of its request, for a one-off call), and the loop time it starts.
StartHook = Callable[[Hashable, float, float], None]


def process_share(total: int, shards_here: int = 1, shard_count: int = 1) -> int:
    """Edits per second for a process running ``shards_here`` of the bot's ``shard_count``
    shards, out of ``total`` for the whole bot (a static split by shard).

    Rounded down, so the shares of all processes together never exceed the total.
    """
    if not 1 <= shards_here <= shard_count:
        raise ValueError("a process runs between one and all of the shards")
    share = total * shards_here // shard_count
    if share < 1:
        raise ValueError(f"{total} edits a second leave {shards_here} of {shard_count} shards none")
    return share


class Slot:
    """One counted request's place in a ``RequestWindow``: held from the moment it is taken
    until ``per`` seconds after its answer (at once, if it was never sent)."""

    __slots__ = ("_over", "_window", "sent")

    def __init__(self, window: RequestWindow) -> None:
        self._window = window
        self.sent = False
        self._over = False

    def answered(self) -> None:
        """The request's answer is back (or it failed): the slot frees ``per`` s from now."""
        if not self._over:
            self._over = True
            self._window._free_later()

    def unused(self) -> None:
        """The reserved slot was never sent on (the work made no request): free it now."""
        if not self._over and not self.sent:
            self._over = True
            self._window._free_now()


# The slot the budget reserved for the request its edit or call is about to make (a context
# variable: each edit runs in a task of its own, and the request is made inside it).
RESERVED: ContextVar[Slot | None] = ContextVar("RESERVED", default=None)


class RequestWindow:
    """At most ``limit`` counted requests in any ``per`` seconds, as Discord sees them.

    A request holds its slot from sending until ``per`` s after its answer came back: Discord
    counts it at its arrival, which lies between the two, so however long the network holds
    requests and however many it delivers together, no ``per``-second window at Discord's end
    holds more than ``limit``. Waiters are served first come, first served.
    """

    def __init__(self, limit: int, per: float = 1.0) -> None:
        """A window of ``limit`` requests per ``per`` seconds."""
        if limit < 1 or per <= 0:
            raise ValueError("limit must be at least 1 and per positive")
        self.limit = limit
        self.per = per
        self.held = 0
        self.taken = 0  # slots handed out in all (each one counted request, or an unused one)
        self._waiters: deque[asyncio.Future[Slot]] = deque()
        # Told whenever a slot frees (the edit budget's scheduler wakes on it).
        self.on_free: Callable[[], None] | None = None

    @property
    def free(self) -> int:
        """Slots nobody holds or waits for."""
        return max(0, self.limit - self.held - len(self._waiters))

    def try_take(self) -> Slot | None:
        """A slot now, or None when every slot is held or waited for."""
        if self.free < 1:
            return None
        return self._hand_out()

    async def take(self) -> Slot:
        """A slot, waiting in line for one."""
        slot = self.try_take()
        if slot is not None:
            return slot
        waiter: asyncio.Future[Slot] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                waiter.result().unused()  # handed over just as the wait was called off
            else:
                self._waiters.remove(waiter)
            raise

    async def for_request(self) -> Slot:
        """The slot a request about to be sent uses: the one the budget reserved for it, if
        still unused, else one waited for in line (a retry, a call outside the budget)."""
        reserved = RESERVED.get()
        if reserved is not None and not reserved.sent:
            slot = reserved
        else:
            slot = await self.take()
        slot.sent = True
        return slot

    def _hand_out(self) -> Slot:
        self.held += 1
        self.taken += 1
        return Slot(self)

    def _free_later(self) -> None:
        asyncio.get_running_loop().call_later(self.per, self._free_now)

    def _free_now(self) -> None:
        self.held -= 1
        while self._waiters and self.held < self.limit:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(self._hand_out())
        if self.on_free is not None:
            self.on_free()


@dataclass(slots=True)
class _Table:
    """What the budget knows of one table."""

    edit: Edit | None = None
    # Loop time of the oldest change not yet shown; None while the table is up to date.
    dirty_since: float | None = None
    last_start: float = float("-inf")
    running: bool = False


class EditBudget:
    """Schedules coalesced edits by key: oldest change first, within a rate and per-key gap."""

    def __init__(
        self,
        rate: int = 45,
        min_interval: float = 1.0,
        per: float = 1.0,
        on_start: StartHook | None = None,
    ) -> None:
        """At most ``rate`` edits started per ``per`` seconds, one table's at most once per
        ``min_interval`` seconds; ``on_start`` hears of each edit as it starts. Every counted
        request of the process shares ``window`` (``rate`` per ``per`` s) with them."""
        if rate < 1 or per <= 0 or min_interval < 0:
            raise ValueError("rate must be at least 1, per positive, min_interval not negative")
        self.window = RequestWindow(rate, per)
        self.window.on_free = self._on_window_free
        self.rate = rate
        self.per = per
        self.min_interval = min_interval
        self.on_start = on_start
        self.started = 0
        self._tables: dict[Hashable, _Table] = {}
        # (dirty_since, order, key): tables free to be edited now, the oldest change first.
        self._ready: list[tuple[float, int, Hashable]] = []
        # (free_at, order, key, dirty_since): tables waiting out their min_interval.
        self._cooling: list[tuple[float, int, Hashable, float]] = []
        # (until, key) in start order: when a clean table may be forgotten.
        self._expiry: deque[tuple[float, Hashable]] = deque()
        # The last ``rate`` start times: the next may start once the oldest is ``per`` old.
        self._recent: deque[float] = deque(maxlen=rate)
        # Token bucket for an even spread: at most ``burst`` edits at once, then one per
        # per/rate seconds.
        self.burst = max(1, rate // 10)
        self._tokens = float(self.burst)
        self._refilled = float("-inf")
        self._order = itertools.count()
        # The one pending wake-up of the scheduler (no task waits between edits) and its time.
        self._timer: asyncio.Handle | None = None
        self._timer_at = float("inf")
        self._edits: set[asyncio.Task[None]] = set()
        # One-off calls waiting for the budget, in request order: (requested at, call).
        self._calls: deque[tuple[float, Edit]] = deque()
        # One-off calls that wait for every table edit (an old table's delete).
        self._later: deque[tuple[float, Edit]] = deque()
        self._stopped = False

    @property
    def pending(self) -> int:
        """Tables with a change not yet sent (an edit in flight does not count)."""
        return sum(1 for table in self._tables.values() if table.dirty_since is not None)

    @property
    def queued_calls(self) -> int:
        """One-off calls waiting for the budget."""
        return len(self._calls) + len(self._later)

    @property
    def in_flight(self) -> int:
        """Edits started and not finished yet."""
        return len(self._edits)

    @property
    def tracked(self) -> int:
        """Tables remembered: waiting, in flight, or edited less than min_interval ago."""
        return len(self._tables)

    def oldest_pending_age(self) -> float:
        """Seconds the most out-of-date table has waited for its edit so far (0 if none)."""
        now = asyncio.get_running_loop().time()
        dirty = [t.dirty_since for t in self._tables.values() if t.dirty_since is not None]
        return now - min(dirty) if dirty else 0.0

    def request(self, key: Hashable, edit: Edit) -> None:
        """Have ``edit`` run soon for ``key``; merges with an edit of ``key`` still waiting.

        Call it after every change the table should show. ``edit`` should draw the table as it
        is when it runs, so the one edit shows every change made before it.
        """
        if self._stopped:
            return
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = _Table()
        table.edit = edit
        if table.dirty_since is not None:
            return  # merged: the waiting edit will show this change too
        now = asyncio.get_running_loop().time()
        table.dirty_since = now
        if not table.running:
            self._queue(key, table, now)

    def waiting(self, key: Hashable) -> bool:
        """Whether ``key`` has a change waiting for its edit (not yet started)."""
        table = self._tables.get(key)
        return table is not None and table.dirty_since is not None

    def call(self, send: Edit, *, last: bool = False) -> None:
        """Have ``send`` (one REST request, not a table edit) run soon within the budget,
        before any waiting table edit (``last``: only when none waits); never merged."""
        if self._stopped:
            return
        now = asyncio.get_running_loop().time()
        (self._later if last else self._calls).append((now, send))
        self._wake_at(now)

    def discard(self, key: Hashable) -> None:
        """Drop the waiting edit of ``key`` (the table was just drawn some other way)."""
        table = self._tables.get(key)
        if table is not None:
            table.edit = None
            table.dirty_since = None
            if self._forgettable(table, asyncio.get_running_loop().time()):
                del self._tables[key]

    def track(self, work: Edit) -> None:
        """Run ``work`` now, outside the budget (a request Discord does not count), and cancel
        it with the budget's edits at ``stop``."""
        if self._stopped:
            return
        task = asyncio.get_running_loop().create_task(self._run(work))
        self._edits.add(task)
        task.add_done_callback(self._edits.discard)

    @staticmethod
    async def _run(work: Edit) -> None:
        try:
            await work()
        except Exception:
            log.exception("uncounted call failed")

    async def stop(self) -> None:
        """Stop scheduling and cancel the edits in flight; later requests are ignored."""
        self._stopped = True
        self._calls.clear()
        self._later.clear()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        tasks = list(self._edits)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------------ scheduling

    def _queue(self, key: Hashable, table: _Table, now: float) -> None:
        assert table.dirty_since is not None
        free_at = table.last_start + self.min_interval
        if free_at <= now:
            heapq.heappush(self._ready, (table.dirty_since, next(self._order), key))
            self._wake_at(now)
        else:
            heapq.heappush(self._cooling, (free_at, next(self._order), key, table.dirty_since))
            self._wake_at(free_at)

    def _wake_at(self, when: float) -> None:
        """Run the scheduler at ``when`` (loop time), unless it is already due earlier."""
        if self._stopped or (self._timer is not None and self._timer_at <= when):
            return
        if self._timer is not None:
            self._timer.cancel()
        loop = asyncio.get_running_loop()
        # Due now: the next turn of the loop, not a timer (a timer at this very instant is the
        # same thing to asyncio, but a virtual clock may hold it back while time advances).
        due = when <= loop.time()
        self._timer = loop.call_soon(self._pump) if due else loop.call_at(when, self._pump)
        self._timer_at = when

    def _pump(self) -> None:
        """Start every edit the budget allows now, then sleep until the next one is due."""
        self._timer = None
        self._timer_at = float("inf")
        now = asyncio.get_running_loop().time()
        self._promote(now)
        self._expire(now)
        while self._ready or self._calls or self._later:
            wait = self._may_start(now)
            if wait > 0:
                self._wake_at(now + wait)
                break
            slot = self.window.try_take()
            if slot is None:
                break  # every slot is held: the window wakes the scheduler when one frees
            if self._calls or not self._ready:
                requested, send = (self._calls or self._later).popleft()
                self._spend(None, requested, now)
                self._launch(None, None, send, slot)
                continue
            dirty_since, _, key = heapq.heappop(self._ready)
            table = self._tables.get(key)
            if table is None or table.running or table.dirty_since != dirty_since:
                slot.unused()
                continue  # discarded, or already sent since it was queued
            self._start(key, table, now, slot)
        if self._cooling:
            self._wake_at(self._cooling[0][0])
        elif self._expiry:
            self._wake_at(self._expiry[0][0])

    def _on_window_free(self) -> None:
        if self._ready or self._calls or self._later:
            self._wake_at(asyncio.get_running_loop().time())

    def _promote(self, now: float) -> None:
        """Move the tables whose min_interval is over to the ready queue."""
        while self._cooling and self._cooling[0][0] <= now:
            _, order, key, dirty_since = heapq.heappop(self._cooling)
            heapq.heappush(self._ready, (dirty_since, order, key))

    def _expire(self, now: float) -> None:
        """Forget clean tables whose min_interval is over, so ended games leave nothing."""
        while self._expiry and self._expiry[0][0] <= now:
            _, key = self._expiry.popleft()
            table = self._tables.get(key)
            if table is not None and self._forgettable(table, now):
                del self._tables[key]

    def _forgettable(self, table: _Table, now: float) -> bool:
        return (
            not table.running
            and table.dirty_since is None
            and table.last_start + self.min_interval <= now
        )

    def _may_start(self, now: float) -> float:
        """Seconds to wait before the next edit may start (0: now)."""
        self._tokens = min(self.burst, self._tokens + (now - self._refilled) * self.rate / self.per)
        self._refilled = now
        wait = max(0.0, (1.0 - self._tokens) * self.per / self.rate)
        if len(self._recent) == self.rate:
            wait = max(wait, self._recent[0] + self.per - now)
        return wait

    def _start(self, key: Hashable, table: _Table, now: float, slot: Slot) -> None:
        edit, since = table.edit, table.dirty_since
        assert edit is not None and since is not None
        table.edit = None
        table.dirty_since = None
        table.running = True
        table.last_start = now
        self._expiry.append((now + self.min_interval, key))
        self._spend(key, since, now)
        self._launch(key, table, edit, slot)

    def _spend(self, key: Hashable, since: float, now: float) -> None:
        """Take one request from the budget (``key`` None: a one-off call)."""
        self._recent.append(now)
        self._tokens -= 1.0
        self.started += 1
        if self.on_start is not None:
            self.on_start(key, since, now)

    def _launch(self, key: Hashable, table: _Table | None, edit: Edit, slot: Slot) -> None:
        task = asyncio.get_running_loop().create_task(self._send(key, table, edit, slot))
        self._edits.add(task)
        task.add_done_callback(self._edits.discard)

    async def _send(self, key: Hashable, table: _Table | None, edit: Edit, slot: Slot) -> None:
        RESERVED.set(slot)  # this task's own context: its request takes the reserved slot
        try:
            await edit()
        except Exception:
            log.exception("REST call for %s failed", "a one-off call" if key is None else key)
        finally:
            slot.unused()  # made no request (nothing to edit, or failed before sending)
            if table is not None:
                self._finished(key, table)

    def _finished(self, key: Hashable, table: _Table) -> None:
        """A table's edit is over: queue its next change, or forget it when it has none."""
        table.running = False
        now = asyncio.get_running_loop().time()
        if table.dirty_since is not None:
            self._queue(key, table, now)  # changed again while this edit was on its way
        elif self._forgettable(table, now) and self._tables.get(key) is table:
            del self._tables[key]


class TokenAllowance:
    """Requests made through interaction tokens, by channel: not counted by the global limit,
    but Discord holds each channel's webhooks to about 30 a minute (ephemeral follow-ups
    included) and each interaction to about 5 in 2 s.

    A token bucket per channel: at most ``burst`` at once, refilled at ``rate`` per ``per``
    seconds, so any ``per`` seconds hold at most ``burst + rate`` (4 + 26 = 30 a minute) and
    any 2 s at most 5. A channel whose request was refused or held up is closed for a while.
    """

    def __init__(self, burst: int = 4, rate: int = 26, per: float = 60.0) -> None:
        """``burst`` at once, ``rate`` more per ``per`` seconds, per channel."""
        if burst < 1 or rate < 1 or per <= 0:
            raise ValueError("burst and rate must be at least 1, per positive")
        self.burst = burst
        self.rate = rate
        self.per = per
        self.taken = 0
        # Channel: (tokens, loop time of that count). A channel at rest is forgotten.
        self._buckets: dict[Hashable, tuple[float, float]] = {}

    def take(self, key: Hashable, keep: int = 0) -> bool:
        """Spend one request of ``key``'s channel if more than ``keep`` are left; whether it
        was spent (``keep`` > 0 leaves the rest for something that matters more)."""
        now = asyncio.get_running_loop().time()
        tokens = self.left(key, now)
        if tokens - 1.0 < keep:
            return False
        self._buckets[key] = (tokens - 1.0, now)
        self.taken += 1
        if len(self._buckets) > 4096:
            self._forget_full(now)
        return True

    def left(self, key: Hashable, now: float) -> float:
        """Requests ``key``'s channel may make now."""
        tokens, stamp = self._buckets.get(key, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - stamp) * self.rate / self.per)

    def close(self, key: Hashable, seconds: float) -> None:
        """Spend none of ``key``'s channel for ``seconds`` (Discord refused or held one)."""
        now = asyncio.get_running_loop().time()
        self._buckets[key] = (-seconds * self.rate / self.per, now)

    def _forget_full(self, now: float) -> None:
        for key in [k for k in self._buckets if self.left(k, now) >= self.burst]:
            del self._buckets[key]
