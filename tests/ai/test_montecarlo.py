"""Rollout machinery: the policy mirrors normal, determinizations keep the view, the verdict."""

from __future__ import annotations

import random

import pytest

from bot.ai import NormalStrategy, Strategy
from bot.ai.montecarlo import (
    PRUNE_AFTER,
    Rollouts,
    Sampler,
    can_sample,
    policy_move,
    run_rollouts,
)
from bot.engine import Color, RuleSet, Side
from bot.engine.game import Phase
from bot.engine.moves import DRAW, ChooseColor, PlayCard
from bot.engine.notation import setup
from tests.ai.helpers import decisions

NUMBERS = "B2|O8 B3|U8 B5|P9 B7|O3 B8|T4"


@pytest.mark.parametrize("variant", ["flip", "classic"])
def test_policy_plays_exactly_like_normal(variant: str) -> None:
    """Over seeded rounds, the rollout policy picks normal's move at every decision."""
    normal = NormalStrategy(catch_rate=0.0)
    seats: list[Strategy] = [normal, normal, normal, normal]
    checked = 0
    for seed in range(6):
        for game, view, _, rng in decisions(RuleSet(variant=variant), seed, seats, 150):
            assert policy_move(game, view.player) == normal.choose_move(view, rng)
            checked += 1
    assert checked > 400


def test_sampled_drawn_card_decision_keeps_the_view() -> None:
    """After drawing a playable card, the determinization waits on the same card."""
    game = setup({"me": "G4|P8 B9|O5", "b": NUMBERS, "c": "Y2|T1 Y3|U1"}, "R5|P2", draw="R7|U5")
    game.apply("me", DRAW)
    view = game.view_for("me")
    assert view.phase == Phase.DRAWN and can_sample(view)
    sample = Sampler(view).sample(random.Random(2)).view_for("me")
    assert (sample.phase, sample.drawn_card, sample.legal_moves) == (
        view.phase,
        view.drawn_card,
        view.legal_moves,
    )
    assert sample.opponents == view.opponents


def test_sampled_colour_choice_keeps_the_penalty_pending() -> None:
    """Naming the colour for our Wild Draw Two: the sample's next player then faces a penalty."""
    game = setup({"me": "W+2|O4 B9 G1", "b": NUMBERS, "c": "Y2|T1 Y3|U1"}, "R5|P2")
    wild = next(c for c in game.hand("me") if game.face(c).color is None)
    game.apply("me", PlayCard(wild))
    view = game.view_for("me")
    assert view.phase == Phase.CHOOSE_COLOR and can_sample(view)
    sample = Sampler(view).sample(random.Random(5))
    assert sample.view_for("me").legal_moves == view.legal_moves
    sample.apply("me", ChooseColor(Color.BLUE))
    game.apply("me", ChooseColor(Color.BLUE))
    assert (sample.phase, sample.current_player, sample.pending_draw) == (
        game.phase,
        game.current_player,
        game.pending_draw,
    )


def test_best_takes_the_highest_mean_without_a_margin() -> None:
    """Without a margin the candidate with the best mean wins, however slight its lead."""
    rollouts = Rollouts(((0.0, 1.0, 0.0), (0.0, 1.0, 0.1)))
    assert rollouts.best(0, 0.0) == 1


def test_best_keeps_the_baseline_when_the_lead_is_noise() -> None:
    """A lead smaller than the margin's standard errors keeps the heuristic's choice."""
    rollouts = Rollouts(((0.0, 1.0, 0.0, 1.0), (1.0, 0.0, 0.1, 1.0)))
    assert rollouts.best(0, 1.5) == 0


def test_best_switches_on_a_clear_lead() -> None:
    """A lead on every shared deal beats the margin and changes the choice."""
    rollouts = Rollouts(((0.0, 1.0, 0.0, 1.0), (0.5, 1.4, 0.6, 1.5)))
    assert rollouts.best(0, 1.5) == 1


def test_pruning_stops_rolling_out_a_hopeless_candidate() -> None:
    """Skip Everyone then the last card wins at once; the plain 3 hands the next player the win."""
    hands = {"me": "TSE T3", "b": "T7", "c": "O2 O3 O4 P1"}
    game = setup(hands, "T5", side=Side.DARK)
    game.uno_declared = [True, True, False]
    view = game.view_for("me")
    skip_all, three = (PlayCard(c) for c in game.hand("me"))
    result = run_rollouts(
        view,
        [skip_all, three],
        random.Random(3),
        max_rollouts=60,
        deadline=None,
        clock=lambda: 0.0,
        prune_z=2.0,
    )
    # The cap would allow 30 rounds; the loser is dropped as soon as pruning starts.
    assert len(result.values[0]) == len(result.values[1]) == PRUNE_AFTER
    assert result.best() == 0
