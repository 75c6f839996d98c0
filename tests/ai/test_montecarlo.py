"""Rollout machinery: the policy mirrors normal, determinizations keep the view, the verdict."""

from __future__ import annotations

import random

import pytest

from bot.ai import NormalStrategy, Strategy
from bot.ai.montecarlo import (
    EVAL_EXPONENT,
    POINT_VALUE,
    PRUNE_AFTER,
    Rollouts,
    Sampler,
    can_sample,
    policy_move,
    position_value,
    rollout_value,
    run_rollouts,
)
from bot.engine import Color, RuleSet, Side, view_for
from bot.engine.game import TERMINAL_PHASES, Phase
from bot.engine.moves import DRAW, ChooseColor, PlayCard
from bot.engine.notation import setup
from bot.engine.snapshot import dump_state
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
    view = view_for(game, "me")
    assert view.phase == Phase.DRAWN and can_sample(view)
    sample = view_for(Sampler(view).sample(random.Random(2)), "me")
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
    view = view_for(game, "me")
    assert view.phase == Phase.CHOOSE_COLOR and can_sample(view)
    sample = Sampler(view).sample(random.Random(5))
    assert view_for(sample, "me").legal_moves == view.legal_moves
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
    view = view_for(game, "me")
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
    # The cap would allow 30 rounds; the loser is dropped within a few rounds of pruning
    # starting (how many depends on how often the next player's guessed card cannot follow).
    assert len(result.values[0]) == len(result.values[1])
    assert PRUNE_AFTER <= len(result.values[0]) < 10
    assert result.best() == 0


# ---------------------------------------------------------------------- short rollouts


def _value(game_hands: dict[str, str], player: str) -> float:
    game = setup(game_hands, "R5", rules=RuleSet(variant="classic"))
    return position_value(game, player, POINT_VALUE, EVAL_EXPONENT)


def test_position_value_prefers_the_smaller_hand() -> None:
    """With everything else equal, two cards fewer is worth more than two cards more."""
    small = _value({"me": "R1 B2", "b": "G3 G4 Y5 Y6", "c": "G7 Y8 B9 B1"}, "me")
    large = _value({"me": "R1 B2 G3 G4 Y5 Y6", "b": "G7 Y8 B9 B1"}, "me")
    assert 0 < large < small < 1 + POINT_VALUE * 100


def test_position_value_counts_points_left_against_us() -> None:
    """Holding the same number of cards, a hand of nines is worth less than a hand of ones."""
    ones = _value({"me": "R1 B1", "b": "G2 Y2"}, "me")
    nines = _value({"me": "R9 B9", "b": "G2 Y2"}, "me")
    assert nines < ones


def test_position_value_leaves_the_bigger_hand_a_real_chance() -> None:
    """Four cards against eight is far from decided. The power law fitted to normal rounds
    (bench/ai_position.py) gives the eight cards about a third; exp(-cards), which predicted
    winners worse than a quarter each, gave them under 2%."""
    four, eight = "R1 B2 G3 Y4", "R5 B6 G7 Y8 R9 B1 G2 Y3"

    def chance(mine: str, theirs: str) -> float:
        game = setup({"me": mine, "b": theirs}, "R5", rules=RuleSet(variant="classic"))
        return position_value(game, "me", 0.0, EVAL_EXPONENT)

    small, large = chance(four, eight), chance(eight, four)
    assert small + large == pytest.approx(1.0)
    assert 0.25 < large < 0.4


def test_rollout_cut_at_depth_zero_scores_the_position() -> None:
    """A rollout cut before any move is exactly the position's value."""
    game = setup({"me": "R1 B2 G3", "b": "G4 Y5"}, "R5", rules=RuleSet(variant="classic"))
    expected = position_value(game, "me", POINT_VALUE, EVAL_EXPONENT)
    assert rollout_value(game, "me", depth=0) == expected


def test_round_ended_by_the_last_move_allowed_scores_as_ended() -> None:
    """A rollout whose depth runs out on the winning move is a win, not a position."""
    game = setup({"me": "R1", "b": "G4 Y5 B7"}, "R5", rules=RuleSet(variant="classic"))
    moves = 0
    replay = game.fork(0)
    while replay.phase not in TERMINAL_PHASES:
        current = replay.players[replay.current]
        replay.apply(current, policy_move(replay, current))
        moves += 1
    assert replay.history[-1].winner == "me"
    won = 1 + replay.history[-1].awarded["me"] * POINT_VALUE
    assert rollout_value(game.fork(0), "me", depth=moves) == pytest.approx(won)
    assert rollout_value(game.fork(0), "me", depth=moves - 1) < won


def test_fork_leaves_the_deal_untouched_and_replays_identically() -> None:
    """Two forks of one deal with one seed play out alike; the deal itself never changes."""
    for _, view, _, _ in decisions(RuleSet(variant="classic"), 4, [NormalStrategy()] * 4, 40):
        if view.phase != Phase.PLAY:
            continue
        deal = Sampler(view).sample(random.Random(1))
        before = dump_state(deal)
        first, second = deal.fork(9), deal.fork(9)
        assert rollout_value(first, view.player) == rollout_value(second, view.player)
        assert dump_state(deal) == before
        assert dump_state(first) == dump_state(second)


@pytest.mark.parametrize("variant", ["flip", "classic"])
def test_sampled_discard_pile_is_the_one_everyone_saw(variant: str) -> None:
    """Every determinization deals the discard pile exactly as played (both sides in Flip)."""
    checked = 0
    seats: list[Strategy] = [NormalStrategy()] * 4
    for _, view, _, _ in decisions(RuleSet(variant=variant), 2, seats, 120):
        if view.phase != Phase.PLAY or not can_sample(view):
            continue
        sample = Sampler(view).sample(random.Random(checked))
        assert tuple(sample.face(c) for c in sample.discard) == view.discards
        if view.discard_backs is not None:
            back = Side.DARK if view.side is Side.LIGHT else Side.LIGHT
            assert tuple(sample.face(c, back) for c in sample.discard) == view.discard_backs
        checked += 1
    assert checked > 30


def test_rollouts_do_not_keep_the_round_memory() -> None:
    """Determinizations play on without recording turns (the policy never reads them)."""
    for _, view, _, _ in decisions(RuleSet(variant="classic"), 5, [NormalStrategy()] * 4, 30):
        if view.phase != Phase.PLAY:
            continue
        deal = Sampler(view).sample(random.Random(2))
        rollout_value(deal, view.player, depth=12)
        assert deal.turn_log == [[] for _ in deal.players]
