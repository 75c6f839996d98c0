"""The metrics time every store transaction on both backends (bot/metrics.py, time_store)."""

from __future__ import annotations

from prometheus_client.exposition import generate_latest

from bot.metrics import Metrics
from bot.store import Store

from .factories import ANNA, BEN, new_game


async def test_every_transaction_is_timed_on_either_backend(store: Store) -> None:
    """A write and a statement are each observed once, and the store works as before."""
    metrics = Metrics()
    metrics.time_store(store.database)
    await new_game(store, (ANNA, BEN))  # one write transaction
    assert (await store.standings.stats(ANNA)).name == "Anna"  # one statement
    exposed = generate_latest(metrics.registry).decode()
    assert 'unoflip_store_seconds_count{operation="write"} 1.0' in exposed
    assert 'unoflip_store_seconds_count{operation="statement"} 1.0' in exposed
