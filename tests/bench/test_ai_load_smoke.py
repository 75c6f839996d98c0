"""Smoke test for bench/ai_load.py: two tables of one person and three computer players."""

from __future__ import annotations

import pytest

from bench.ai_load import run_ai_load, summary


@pytest.mark.slow
async def test_people_and_computer_players_both_move_and_everything_is_measured() -> None:
    """In six real seconds the computer players decide, people click, and the lag is sampled.

    The computer players pause 0.2 s instead of 1.5 s: with the production pause a deal that
    skips the person (three computer turns, a Skip or a Draw Two) can use up the six seconds
    on a busy machine before the person's first turn, and no click is measured.
    """
    result = await run_ai_load(games=2, seconds=6.0, difficulty="normal", seed=2, ai_delay=0.2)
    assert result.decision_ms and result.first_response_ms and result.lag_ms
    assert result.errors == 0
    assert summary(result)[0].startswith("**2 games**")
