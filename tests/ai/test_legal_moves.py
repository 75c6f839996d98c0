"""Every strategy only ever returns a legal move, under every rule set."""

from __future__ import annotations

import pytest

from tests.ai.helpers import RULE_SETS, STRATEGIES, decisions


def _check(difficulty: str, seeds: range, per_game: int) -> int:
    strategy = STRATEGIES[difficulty]
    others = [STRATEGIES["easy"], STRATEGIES["normal"], strategy]
    checked = 0
    for seed in seeds:
        rules = RULE_SETS[seed % len(RULE_SETS)]
        seats = [strategy, *others[: 2 + seed % 3]]
        for _, view, player, rng in decisions(rules, seed, seats, per_game):
            move = player.choose_move(view, rng)
            assert move in view.legal_moves, (rules, view.phase, move)
            checked += 1
    return checked


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_strategy_returns_legal_moves(difficulty: str) -> None:
    """A few hundred seeded positions: the chosen move is always among the legal moves."""
    assert _check(difficulty, range(10), 40) >= 300


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_strategy_returns_legal_moves_soak(difficulty: str) -> None:
    """Thousands of seeded positions over whole matches: still only legal moves."""
    assert _check(difficulty, range(100, 160), 200) >= 5000
