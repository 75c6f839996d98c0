"""The table-text bench runs end to end and reports sane figures."""

from __future__ import annotations

from bench.table_text import measure


def test_a_short_run_measures_every_table_drawn() -> None:
    """One seed, a few turns: a line count per table, within the issue's limit at ten."""
    counts, longest = measure("flip", 10, seeds=1, turns=5)
    assert 0 < len(counts) <= 5 and all(0 < lines <= 18 for lines in counts)
    assert longest > 0
