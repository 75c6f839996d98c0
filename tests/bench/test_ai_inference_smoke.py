"""The inference bench runs end to end and its scores are in range."""

from __future__ import annotations

from bench.ai_inference import measure


def test_scores_are_in_range() -> None:
    """One short game: Brier scores between 0 and 1, a face match share, some positions."""
    colour, wild, match, pairs = measure(games=1, samples=2, decisions=60)
    assert pairs > 0
    assert 0.0 <= colour <= 1.0
    assert 0.0 <= wild <= 1.0
    assert 0.0 < match <= 1.0
