"""A cluster cannot be split: the database records its shard count, every process agrees.

Shard leases are locks on shard ids, which cannot see two processes that disagree on the
count (shard 1 of 2 and shard 3 of 4 both run server 3 << 22). These tests start processes
(stores claiming shards) of other shapes, and reshard a stopped cluster without losing a game.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.store import ClusterShapeError, Shards, ShardTakenError, Store, process_shards
from bot.store.cluster import main as cluster_main

from .conftest import TEST_POOL
from .factories import new_game


def guild_on(shard: int, count: int, n: int = 1) -> int:
    """A server id that Discord puts on ``shard`` of ``count``."""
    return ((n * count + shard) << 22) | 777


def test_a_process_without_shard_ids_runs_every_shard() -> None:
    """No shard_ids: every shard of shard_count, or the one shard of a single process."""
    assert process_shards(None, None) == Shards(1, frozenset({0}))
    assert process_shards(3, None) == Shards(3, frozenset({0, 1, 2}))
    assert process_shards(4, [1, 3]) == Shards(4, frozenset({1, 3}))


async def test_a_process_of_another_shard_count_is_refused(
    pg_store: Store, shared_pg_url: str
) -> None:
    """Shard 1 of 2 runs; shard 3 of 4 (the same servers in part) is refused with one line,
    and still refused once the first process has stopped: the shape outlives it."""
    await pg_store.claim_shards(Shards(2, frozenset({1})))
    other = await Store.open_postgres(shared_pg_url, TEST_POOL)
    try:
        with pytest.raises(ClusterShapeError, match="serves a cluster of 2 shards") as refused:
            await other.claim_shards(Shards(4, frozenset({3})), lease_timeout=0.2)
        assert "\n" not in str(refused.value)
        assert other.lease is None
        await pg_store.close()
        with pytest.raises(ClusterShapeError, match="shard 3 of 4"):
            await other.claim_shards(Shards(4, frozenset({3})), lease_timeout=0.2)
    finally:
        await other.close()


async def test_a_process_without_shard_ids_is_refused_while_a_cluster_exists(
    pg_store: Store, shared_pg_url: str
) -> None:
    """A process claiming every shard of one is refused by a cluster of two at once, and one
    claiming every shard of two is refused by the process running shard 1."""
    await pg_store.claim_shards(Shards(2, frozenset({1})))
    single = await Store.open_postgres(shared_pg_url, TEST_POOL)
    try:
        with pytest.raises(ClusterShapeError, match="shard 0 of 1"):
            await single.claim_shards(process_shards(None, None), lease_timeout=0.2)
        with pytest.raises(ShardTakenError, match="shard 1 of 2"):
            await single.claim_shards(process_shards(2, None), lease_timeout=0.2)
    finally:
        await single.close()


async def test_a_single_process_keeps_a_cluster_from_starting(
    pg_store: Store, shared_pg_url: str
) -> None:
    """The other way round: a process running everything keeps out a process of a cluster."""
    await pg_store.claim_shards(process_shards(None, None))
    late = await Store.open_postgres(shared_pg_url, TEST_POOL)
    try:
        with pytest.raises(ClusterShapeError, match="cluster of 1 shards"):
            await late.claim_shards(Shards(2, frozenset({0})), lease_timeout=0.2)
    finally:
        await late.close()


async def test_resharding_a_stopped_cluster_keeps_every_game(
    pg_store: Store, shared_pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Refused while a process runs; once all stopped, 2 shards become 3, and the three new
    processes restore every game between them, each exactly once."""
    games = {
        (await new_game(pg_store, guild_id=guild_on(shard, 6, n))).id
        for shard in range(6)
        for n in range(1, 3)
    }
    old = [await Store.open_postgres(shared_pg_url, TEST_POOL) for _ in range(2)]
    for shard, process in enumerate(old):
        await process.claim_shards(Shards(2, frozenset({shard})))
    assert await asyncio.to_thread(cluster_main, [shared_pg_url, "--reshard", "3"]) == 1
    assert "shards 0, 1 still run" in capsys.readouterr().err
    for process in old:
        await process.close()
    assert await asyncio.to_thread(cluster_main, [shared_pg_url, "--reshard", "3"]) == 0
    assert "shard count 2 -> 3" in capsys.readouterr().out
    new = [await Store.open_postgres(shared_pg_url, TEST_POOL) for _ in range(3)]
    try:
        restored: list[int] = []
        for shard, process in enumerate(new):
            await process.claim_shards(Shards(3, frozenset({shard})))
            restored += [live.game.id for live in await process.snapshots.load_live_games()]
        assert await asyncio.to_thread(cluster_main, [shared_pg_url]) == 0
        assert "serves 3 shards; shards run now: 0, 1, 2" in capsys.readouterr().out
    finally:
        for process in new:
            await process.close()
    assert sorted(restored) == sorted(games)
