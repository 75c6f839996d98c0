"""Smoke test for bench/restore.py: a few saved games and lobbies come back, timed."""

from __future__ import annotations

import pytest

from bench.restore import run, summary

# A bench's smoke run builds its whole world: the full run (CI) only, not the quick run.
pytestmark = pytest.mark.slow


async def test_every_saved_game_and_lobby_is_restored_and_timed() -> None:
    """The games and lobbies written through the store all come back, and the summary says so."""
    result = await run(games=30, lobbies=5, seed=2)
    assert (result.games, result.lobbies) == (30, 5)
    assert result.read_s > 0 and result.total_s > 0
    assert result.longest_stall_ms >= 0 and result.first_click_s >= result.read_s
    assert all(ms >= 0 for ms in result.on_demand_ms + result.full_gc_ms)
    assert summary(result)[0].startswith("Restored 30 live games and 5 open lobbies")
