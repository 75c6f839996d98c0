"""Smoke test for bench/ai_rollouts.py: fixed positions, repeatable rollouts, a digest."""

from __future__ import annotations

from bench.ai_rollouts import compiled_modules, measure, positions
from bot.ai.montecarlo import can_sample


def test_positions_are_rolled_out_alike_every_time() -> None:
    """Four positions at which hard rolls out; two passes agree on every value, a seed does not."""
    found = positions(4, 3, 1)
    assert len(found) == 4
    assert all(can_sample(view) and len(candidates) >= 2 for view, candidates in found)
    first = measure(found, 12, 1)
    again = measure(found, 12, 1)
    other = measure(found, 12, 2)
    assert 0 < first.rollouts <= 4 * 12 and first.cpu_seconds > 0
    assert (again.rollouts, again.digest) == (first.rollouts, first.digest)
    assert other.digest != first.digest
    assert all(name.startswith(("bot.ai", "bot.engine")) for name in compiled_modules())
