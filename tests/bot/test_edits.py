"""The table edit budget: fair order, merged requests, the rate and the per-table gap."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Hashable
from unittest.mock import Mock

import pytest
from pydantic import ValidationError

from bot.edits import Edit, EditBudget, process_share
from bot.servers import ServerSettingsBook
from bot.sessions import SessionManager

from .conftest import make_settings

# The budgets below count per 50 ms instead of per second, so a test runs in a fraction of one.
PER = 0.05


def most_in_any_window(times: list[float], window: float) -> int:
    """The most of ``times`` that fall in one half-open window [t, t + window)."""
    times = sorted(times)
    most = 0
    first = 0
    for last, time in enumerate(times):
        while times[first] <= time - window:
            first += 1
        most = max(most, last - first + 1)
    return most


class Recorder:
    """Edits that note which key ran, with which label, and when the budget started them."""

    def __init__(self) -> None:
        self.done: list[tuple[Hashable, str]] = []
        self.starts: list[tuple[Hashable, float]] = []

    def on_start(self, key: Hashable, dirty_since: float, started: float) -> None:
        assert started >= dirty_since
        self.starts.append((key, started))

    def edit(self, key: Hashable, label: str = "") -> Edit:
        async def run() -> None:
            self.done.append((key, label))

        return run


async def drain(budget: EditBudget) -> None:
    """Wait until nothing is pending or in flight."""
    for _ in range(400):
        await asyncio.sleep(PER / 5)
        if budget.pending == 0 and budget.in_flight == 0:
            return
    raise AssertionError("the budget never drained")


async def test_the_oldest_change_goes_first_and_repeated_requests_merge() -> None:
    """Tables are edited in the order of their first unshown change; a table asked twice
    while waiting gets one edit, drawn by the newest callable."""
    seen = Recorder()
    budget = EditBudget(rate=1, per=PER, min_interval=0.0, on_start=seen.on_start)
    budget.request("w", seen.edit("w"))  # takes the slot: the rest must wait their turn
    await asyncio.sleep(0)
    budget.request("a", seen.edit("a", "first"))
    budget.request("b", seen.edit("b"))
    budget.request("a", seen.edit("a", "second"))
    budget.request("c", seen.edit("c"))
    await drain(budget)
    assert seen.done == [("w", ""), ("a", "second"), ("b", ""), ("c", "")]
    await budget.stop()


async def test_a_change_during_a_tables_edit_waits_behind_older_changes() -> None:
    """A table changed while its edit is on its way is edited again, after tables that
    waited longer."""
    seen = Recorder()
    budget = EditBudget(rate=1, per=PER, min_interval=0.0, on_start=seen.on_start)
    release = asyncio.Event()

    async def slow() -> None:
        await release.wait()
        seen.done.append(("a", "slow"))

    budget.request("a", slow)
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    budget.request("b", seen.edit("b"))
    budget.request("a", seen.edit("a", "again"))
    release.set()
    await drain(budget)
    assert seen.done == [("a", "slow"), ("b", ""), ("a", "again")]
    await budget.stop()


async def test_a_table_is_never_edited_twice_within_its_interval() -> None:
    """The per-table gap holds, and a change inside it is still shown once the gap is over."""
    seen = Recorder()
    gap = 2 * PER
    budget = EditBudget(rate=100, per=PER, min_interval=gap, on_start=seen.on_start)
    for _ in range(5):
        budget.request("a", seen.edit("a"))
        await asyncio.sleep(PER / 2)
    await drain(budget)
    starts = [time for _, time in seen.starts]
    assert len(starts) >= 2
    assert all(later - earlier >= gap for earlier, later in itertools.pairwise(starts))
    await budget.stop()


async def random_traffic(
    budgets: list[EditBudget], seen: Recorder, seconds: float, min_asks: int = 0
) -> dict[Hashable, float]:
    """Many tables asking for edits at random moments, for ``seconds`` and at least
    ``min_asks`` asks (a starved test process must not ask too little to test anything); the
    loop time of each key's last ask."""
    loop = asyncio.get_running_loop()
    rng = random.Random(7)
    last_ask: dict[Hashable, float] = {}
    end = loop.time() + seconds
    asks = 0
    while loop.time() < end or asks < min_asks:
        for _ in range(rng.randint(1, 6)):
            key = rng.randrange(60)
            budget = budgets[key % len(budgets)]
            budget.request(key, seen.edit(key))
            last_ask[key] = loop.time()
            asks += 1
        await asyncio.sleep(rng.uniform(0, PER / 10))
    return last_ask


async def test_the_rate_is_never_exceeded_and_every_last_change_is_shown() -> None:
    """Under far more asks than the rate, no window of ``per`` holds more than ``rate``
    starts, they are spread out, and every table's last change is edited after it was asked
    for."""
    seen = Recorder()
    budget = EditBudget(rate=5, per=PER, min_interval=PER, on_start=seen.on_start)
    last_ask = await random_traffic([budget], seen, 6 * PER)
    await drain(budget)
    times = [time for _, time in seen.starts]
    assert len(times) > 5 * 6
    assert most_in_any_window(times, PER) <= 5
    # Spread out, not in bursts: one spacing never holds more than the bucket plus one.
    assert most_in_any_window(times, PER / 5) <= budget.burst + 1
    for key, asked in last_ask.items():
        assert max(time for k, time in seen.starts if k == key) >= asked
    await budget.stop()


async def test_one_off_calls_share_the_rate_and_go_before_waiting_edits() -> None:
    """Reminders, deletes and new messages (one-off calls) are never merged, go before the
    table edits waiting with them, and count in the same rate."""
    seen = Recorder()
    budget = EditBudget(rate=2, per=PER, min_interval=0.0, on_start=seen.on_start)
    budget.request("w", seen.edit("w"))  # takes a slot: the rest must wait their turn
    await asyncio.sleep(PER / 10)
    for key in ("a", "b", "c"):
        budget.request(key, seen.edit(key))
    for number in range(4):
        budget.call(seen.edit(None, f"call {number}"))
    assert budget.queued_calls == 4
    while budget.queued_calls or budget.pending or budget.in_flight:
        await drain(budget)
    assert [label or key for key, label in seen.done] == [
        "w",
        *(f"call {number}" for number in range(4)),
        "a",
        "b",
        "c",
    ]
    assert [key for key, _ in seen.starts].count(None) == 4
    assert most_in_any_window([time for _, time in seen.starts], PER) <= 2
    await budget.stop()


async def test_two_processes_sharing_the_total_stay_under_it_together() -> None:
    """Two processes of two shards each, each budget its shards' share of the total, never
    exceed the total together."""
    seen = Recorder()
    total = 9
    share = process_share(total, shards_here=2, shard_count=4)
    budgets = [
        EditBudget(rate=share, per=PER, min_interval=0.0, on_start=seen.on_start) for _ in range(2)
    ]
    # 300 asks over 60 tables reach nearly every table, and each asked table is edited once at
    # least: more starts than five windows' worth, so the window check below means something.
    await random_traffic(budgets, seen, 6 * PER, min_asks=300)
    for budget in budgets:
        await drain(budget)
    times = [time for _, time in seen.starts]
    assert len(times) > total * 5
    assert most_in_any_window(times, PER) <= total
    for budget in budgets:
        await budget.stop()


def test_a_share_follows_the_shards_rounded_down_and_never_zero() -> None:
    """Shares never add up to more than the total; a share of nothing is refused."""
    assert process_share(45) == 45
    assert process_share(45, 1, 2) == 22
    assert process_share(45, 3, 8) + process_share(45, 5, 8) == 16 + 28
    with pytest.raises(ValueError, match="none"):
        process_share(3, 1, 4)
    with pytest.raises(ValueError, match="between one and all"):
        process_share(45, 5, 4)


def test_a_budget_too_small_for_this_processs_shards_is_refused_at_start(tmp_path: object) -> None:
    """Settings that would leave this process no edit at all fail, naming the setting."""
    with pytest.raises(ValidationError, match="no edit a second"):
        make_settings(tmp_path, table_edits_per_second=3, shard_count=4, shard_ids="0")
    settings = make_settings(tmp_path, table_edits_per_second=3, shard_count=4, shard_ids="0-1")
    assert settings.table_edits_per_second == 3


async def test_a_failing_edit_does_not_stop_the_others() -> None:
    """An edit that raises is logged; later edits, of that table too, still run."""
    seen = Recorder()
    budget = EditBudget(rate=100, per=PER, min_interval=0.0)

    async def broken() -> None:
        raise RuntimeError("Discord said no")

    budget.request("a", broken)
    await drain(budget)
    budget.request("a", seen.edit("a", "after"))
    budget.request("b", seen.edit("b"))
    await drain(budget)
    assert sorted(seen.done) == [("a", "after"), ("b", "")]
    await budget.stop()


async def test_stop_cancels_edits_in_flight_and_ignores_later_requests() -> None:
    """stop() ends the worker and an edit stuck on its way; nothing runs afterwards."""
    seen = Recorder()
    budget = EditBudget(rate=100, per=PER, min_interval=0.0)
    stuck = asyncio.Event()
    cancelled = asyncio.Event()

    async def hangs() -> None:
        stuck.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.set()
            raise

    budget.request("a", hangs)
    await asyncio.wait_for(stuck.wait(), 1.0)
    await budget.stop()
    assert cancelled.is_set()
    budget.request("b", seen.edit("b"))
    await asyncio.sleep(PER)
    assert seen.done == []


async def test_discard_drops_a_waiting_edit_and_finished_tables_are_forgotten() -> None:
    """A discarded edit never runs, and tables edited and clean leave nothing behind."""
    seen = Recorder()
    budget = EditBudget(rate=1, per=PER, min_interval=PER)
    budget.request("w", seen.edit("w"))
    await asyncio.sleep(0)
    budget.request("a", seen.edit("a"))
    budget.discard("a")
    await drain(budget)
    await asyncio.sleep(2 * PER)
    budget.request("z", seen.edit("z"))  # wakes the worker, which forgets the clean tables
    await drain(budget)
    await asyncio.sleep(2 * PER)
    assert [key for key, _ in seen.done] == ["w", "z"]
    assert budget.tracked == 0
    await budget.stop()


async def test_the_processes_of_a_cluster_stay_under_the_bots_budget_together(
    tmp_path: object,
) -> None:
    """Three processes of one bot (shards 0-1, 2 and 3 of 4), each with the budget its own
    settings give it, flooded with table edits: together they never start more than the
    bot's table_edits_per_second in any second, and each gets its shards' share."""
    seen = Recorder()
    enough = asyncio.Event()
    starts: list[float] = []
    processes = []
    for shard_ids in ("0-1", "2", "3"):
        settings = make_settings(
            tmp_path, table_edits_per_second=45, shard_count=4, shard_ids=shard_ids
        )
        manager = SessionManager(Mock(), settings, None, ServerSettingsBook())
        processes.append(manager)

    def started(key: Hashable, dirty_since: float, now: float) -> None:
        starts.append(now)
        seen.on_start(key, dirty_since, now)
        if len(starts) >= 50:  # more than one second of the whole budget
            enough.set()

    for number, manager in enumerate(processes):
        manager.edits.on_start = started
        for table in range(100):
            manager.edits.request((number, table), seen.edit((number, table)))
    try:
        await asyncio.wait_for(enough.wait(), 10.0)
    finally:
        for manager in processes:
            await manager.edits.stop()
            manager.thinker.shutdown()
    assert [manager.edits.rate for manager in processes] == [22, 11, 11]
    assert most_in_any_window(starts, 1.0) <= 45
    processes_started = [key[0] for key, _ in seen.starts if isinstance(key, tuple)]
    by_process = [processes_started.count(n) for n in range(3)]
    assert by_process[0] >= by_process[1] + 5 and by_process[0] >= by_process[2] + 5
