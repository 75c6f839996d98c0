"""The engine's shuffle deals exactly what ``random.shuffle`` would (it replays seeded games)."""

from __future__ import annotations

import random

import pytest

from bot.engine.game import shuffle


@pytest.mark.parametrize("length", [0, 1, 2, 3, 7, 64, 65, 108, 112, 113, 300])
def test_shuffle_draws_as_random_shuffle(length: int) -> None:
    """Same order and same generator state afterwards, lengths past the step table included."""
    for seed in range(40):
        ours, theirs = list(range(length)), list(range(length))
        ours_rng, theirs_rng = random.Random(seed), random.Random(seed)
        shuffle(ours_rng, ours)
        theirs_rng.shuffle(theirs)
        assert ours == theirs
        assert ours_rng.getstate() == theirs_rng.getstate()
