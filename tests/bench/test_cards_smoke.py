"""The card art bench runs end to end and reports sane figures."""

from __future__ import annotations

import pytest

from bench.cards import time_faces, time_round_ends, time_tables
from bot.ui.cards import MAX_BYTES

# A bench's smoke run builds its whole world: the full run (CI) only, not the quick run.
pytestmark = pytest.mark.slow


def test_face_timings_and_cache_hits_are_reported() -> None:
    """Every row has ordered percentiles; a disk hit draws nothing (the bench checks it)."""
    rows = time_faces(height=60)
    assert set(rows) >= {
        "draw a face (fresh)",
        "CardArt memory hit",
        "CardArt disk hit (new CardArt)",
    }
    for p50, p99, worst in rows.values():
        assert 0 <= p50 <= p99 <= worst


def test_every_table_shape_is_measured_within_the_size_limit() -> None:
    """Flip and classic at 2, 4 and 10 players, dealt and 42-card hands: 12 rows, all <= 100 KB."""
    rows = time_tables(repeats=1)
    assert {(r.variant, r.players, r.cards) for r in rows} == {
        (v, p, c) for v in ("flip", "classic") for p in (2, 4, 10) for c in (7, 42)
    }
    assert all(0 < r.size <= MAX_BYTES for r in rows)


def test_round_ends_are_measured_within_the_size_limit() -> None:
    """Round-end pictures of Flip and classic at 4 and 10 players: 4 rows, all <= 100 KB."""
    rows = time_round_ends(repeats=1)
    assert {(r.variant, r.players) for r in rows} == {
        (v, p) for v in ("flip", "classic") for p in (4, 10)
    }
    assert all(0 < r.size <= MAX_BYTES and r.cards > 0 for r in rows)
