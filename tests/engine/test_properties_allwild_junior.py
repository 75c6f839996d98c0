"""Property tests of UNO All Wild and UNO Junior: random legal games, checked after every move.

The all-players random agent of ``test_properties.py`` (UNO calls and catches out of turn)
plays whole matches. ``derandomize`` keeps the examples the same on every run; the quick run
caps their number (tests/conftest.py).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Game, Phase, RuleSet
from bot.engine.moves import Catch, Challenge, ChooseColor
from bot.engine.simulate import RandomAgent

from .test_properties import NO_SHRINKING, SEEDS, every_offered_move_applies

PROPERTIES = settings(
    max_examples=min(40, settings().max_examples),  # the quick run caps it
    derandomize=True,
    deadline=None,
    phases=NO_SHRINKING,
)
# The slow run's count of seeded games of each variant.
HUNDREDS = 500
ALL_WILD_RULES = st.sampled_from(
    [
        RuleSet(variant="allwild", target=200),
        RuleSet(variant="allwild", target=200, scoring="alternative"),
        RuleSet(variant="allwild", target=200, stacking=True, forced_play=True),
    ]
)
JUNIOR_RULES = st.sampled_from(
    [RuleSet.model_validate({"variant": "junior", "level": n}) for n in (1, 2, 3)]
    + [RuleSet.model_validate({"variant": "junior", "catching": "off"})]
)


def cards_in_play(game: Game) -> list[int]:
    """Hands and both piles, sorted."""
    return sorted([c for hand in game.hands for c in hand] + game.draw_pile + game.discard)


def play_checked(game: Game, agent: RandomAgent) -> int:
    """Play ``game`` to its end checking the properties after every move; the moves made."""
    deck = list(range(len(game.deck)))
    all_wild = game.rules.variant == "allwild"
    moves = 0
    rounds = 0
    while game.phase is not Phase.MATCH_OVER:
        if game.phase is Phase.ROUND_OVER:
            rounds += 1
            agent.next_round(game)
            continue
        for player in game.players:
            for move in game.legal_moves(player):
                assert not isinstance(move, Challenge), "a challenge was offered"
                friendly = game.rules.catching == "off"
                assert not (friendly and isinstance(move, Catch)), "a friendly table caught"
                if all_wild:
                    assert not isinstance(move, ChooseColor), "All Wild asked for a colour"
        agent.step(game)
        moves += 1
        assert cards_in_play(game) == deck, "a card was lost or doubled"
        if all_wild:
            assert game.color is None and game.phase is not Phase.CHOOSE_COLOR
            # Turns are owed only with two players (section 2.9).
            assert len(game.players) == 2 or not any(game.lost_turns)
    if game.rules.variant == "junior":
        assert rounds == 0, "a Junior game went on after the first player out"
    return moves


@given(rules=ALL_WILD_RULES, players=st.integers(2, 10), seed=SEEDS)
@PROPERTIES
def test_all_wild_games_keep_every_rule_property(rules: RuleSet, players: int, seed: int) -> None:
    """Cards are conserved, no colour is ever asked or named, nothing is challenged."""
    game = Game.new([f"p{i}" for i in range(players)], rules, seed)
    assert len(game.deck) == 112
    assert play_checked(game, RandomAgent(seed)) > 0
    assert game.match_winner is not None


@given(rules=JUNIOR_RULES, players=st.integers(2, 4), seed=SEEDS)
@PROPERTIES
def test_junior_games_keep_every_rule_property(rules: RuleSet, players: int, seed: int) -> None:
    """Cards are conserved, nothing is challenged, a friendly table catches nobody, and the
    first player out ends the game."""
    game = Game.new([f"p{i}" for i in range(players)], rules, seed)
    assert len(game.deck) == {1: 36, 2: 52, 3: 56}[rules.level]
    assert play_checked(game, RandomAgent(seed)) > 0
    assert game.match_winner == game.history[0].winner


@given(rules=ALL_WILD_RULES | JUNIOR_RULES, players=st.integers(2, 4), seed=SEEDS)
@PROPERTIES
def test_every_offered_move_applies_and_every_state_round_trips(
    rules: RuleSet, players: int, seed: int
) -> None:
    """No illegal move is ever offered; the saved JSON restores an equal game; views build."""
    game = Game.new([f"p{i}" for i in range(players)], rules, seed)
    every_offered_move_applies(game, RandomAgent(seed))


@given(rules=ALL_WILD_RULES | JUNIOR_RULES, players=st.integers(3, 4), seed=SEEDS)
@PROPERTIES
def test_timeouts_and_players_leaving_keep_every_card_and_a_turn_to_take(
    rules: RuleSet, players: int, seed: int
) -> None:
    """Timed-out turns (targets and swaps chosen for the player) and players leaving mid-round
    lose no card, and whoever holds the turn always has a move."""
    game = Game.new([f"p{i}" for i in range(players)], rules, seed)
    agent, rng = RandomAgent(seed), random.Random(seed)
    while game.phase is not Phase.MATCH_OVER and game.phase is not Phase.ABANDONED:
        if game.phase is Phase.ROUND_OVER:
            agent.next_round(game)
            continue
        current = game.current_player
        assert current is not None and game.legal_moves(current)
        chance = rng.random()
        if chance < 0.1:
            game.auto_play(current)
        elif chance < 0.12 and len(game.players) > 2:
            game.remove_player(rng.choice(game.players))
        else:
            agent.step(game)
        assert cards_in_play(game) == list(range(len(game.deck))), "a card was lost or doubled"


@pytest.mark.slow
def test_many_seeded_games_of_each_keep_every_rule_property() -> None:
    """The same checks over 500 seeded games of each variant, every player count."""
    for seed in range(HUNDREDS):
        all_wild = RuleSet(variant="allwild", target=200, stacking=seed % 3 == 0)
        game = Game.new([f"p{i}" for i in range(2 + seed % 9)], all_wild, seed)
        play_checked(game, RandomAgent(seed))
        junior = RuleSet.model_validate({"variant": "junior", "level": 1 + seed % 3})
        game = Game.new([f"p{i}" for i in range(2 + seed % 3)], junior, seed)
        play_checked(game, RandomAgent(seed))
