"""Freezing the survivors of full collections keeps them out of the next ones."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from bot.memory import (
    FULL_EVERY,
    freeze_after_full_collections,
    freeze_long_lived,
    reclaim_frozen,
    stop_freezing,
)


@pytest.fixture(autouse=True)
def fresh_collector() -> Iterator[None]:
    """Each test starts and ends with nothing frozen and no freezing installed."""
    stop_freezing()
    gc.unfreeze()
    yield
    stop_freezing()
    gc.unfreeze()


def test_a_full_collection_freezes_what_survived_it() -> None:
    """Objects alive through a full collection are frozen; a young collection freezes nothing."""
    freeze_after_full_collections()
    gc.disable()  # only the collections below: an automatic one could be full
    try:
        survivors = [[n] for n in range(1000)]
        gc.collect(0)
        assert gc.get_freeze_count() == 0
    finally:
        gc.enable()
    gc.collect()
    assert gc.get_freeze_count() >= len(survivors)
    # Frozen objects are in no generation the collector visits.
    visited = {id(obj) for obj in gc.get_objects()}
    assert not any(id(s) in visited for s in survivors)


def test_installing_twice_adds_one_callback_and_stopping_removes_it() -> None:
    """The callback is installed once, and after stop_freezing collections freeze nothing."""
    freeze_after_full_collections()
    freeze_after_full_collections()
    assert len([c for c in gc.callbacks if c.__module__ == "bot.memory"]) == 1
    stop_freezing()
    gc.collect()
    assert gc.get_freeze_count() == 0


def test_after_freezing_the_long_lived_full_collections_follow_new_survivors_only() -> None:
    """Frozen with the count of old objects reset, a heap of 200,000 long-lived objects does
    not hold the next full collection back until 50,000 new ones have survived."""
    threshold = gc.get_threshold()
    long_lived = [[n] for n in range(200_000)]
    gc.collect()
    freeze_long_lived()
    assert gc.get_freeze_count() >= len(long_lived)
    gc.set_threshold(threshold[0], threshold[1], 1)  # a full collection as soon as allowed
    try:
        before = gc.get_stats()[2]["collections"]
        survivors = [[n] for n in range(30_000)]
        assert gc.get_stats()[2]["collections"] > before, len(survivors)
    finally:
        gc.set_threshold(*threshold)


def test_freezing_collects_fully_more_often_and_stopping_restores_the_thresholds() -> None:
    """While freezing, a full collection comes every FULL_EVERY young ones (each is short:
    only new survivors); stopping puts Python's thresholds back."""
    before = gc.get_threshold()
    freeze_after_full_collections()
    assert gc.get_threshold() == (before[0], before[1], FULL_EVERY)
    stop_freezing()
    assert gc.get_threshold() == before


def test_reclaiming_frees_the_cyclic_garbage_that_freezing_kept() -> None:
    """A cycle that dies after it was frozen stays until a reclaim, which frees it and keeps
    the living frozen."""

    class Node:
        pass

    living = [[n] for n in range(1000)]
    cycles = [Node() for _ in range(500)]
    for node in cycles:
        node.self = node  # type: ignore[attr-defined]
    freeze_long_lived()
    witness = [weakref.ref(node) for node in cycles]
    del cycles, node
    gc.collect()
    assert all(ref() is not None for ref in witness)  # frozen: no collection frees them
    assert reclaim_frozen() >= 500
    assert all(ref() is None for ref in witness)
    visited = {id(obj) for obj in gc.get_objects()}
    assert not any(id(item) in visited for item in living)  # the living are frozen again
