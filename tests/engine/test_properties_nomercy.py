"""Property tests of No Mercy: random legal games of 2 to 6 players, one hand or scored.

The all-players random agent of ``test_properties.py`` (UNO calls and catches out of turn)
plays whole matches; after every move the checks below hold. ``derandomize`` keeps the
examples the same on every run; the quick run caps their number (tests/conftest.py).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Game, Phase, RuleSet
from bot.engine import events as ev
from bot.engine.cards import STACK_VALUE
from bot.engine.moves import Accept
from bot.engine.simulate import RandomAgent
from bot.engine.variants import NO_MERCY

from .test_properties import NO_SHRINKING, SEEDS, every_offered_move_applies

DECK = 168
PROPERTIES = settings(
    max_examples=min(60, settings().max_examples),  # the quick run caps it
    derandomize=True,
    deadline=None,
    phases=NO_SHRINKING,
)
# A hand longer than this many moves is stuck (random play ends one in a few hundred).
MAX_MOVES = 5_000
# The slow run's count of seeded games, beside hypothesis's examples.
THOUSANDS = 2_000
# Each example plays whole matches; a scored one to a low target keeps them short.
RULES = st.sampled_from(
    [RuleSet(variant="nomercy"), RuleSet(variant="nomercy", scoring="standard", target=300)]
)


def cards_in_play(game: Game) -> list[int]:
    """Hands, both piles and the hands set aside by the Mercy rule."""
    held = [c for hand in game.hands for c in hand] + [c for s in game.set_aside for c in s]
    return held + game.draw_pile + game.discard


def play_checked(game: Game, agent: RandomAgent) -> int:
    """Play ``game`` to its end, checking every rule property after every move; the moves."""
    moves = 0
    stack = 0  # the values of the Draw Cards played into the stack pending now
    while game.phase is not Phase.MATCH_OVER:
        if game.phase is Phase.ROUND_OVER:
            agent.next_round(game)
            assert game.knocked_out == []
            continue
        gone = [game.players[s] for s in game.knocked_out]
        for player in gone:
            assert game.legal_moves(player) == [], "a knocked-out player was offered a move"
        player, move = agent.choose(game)
        assert player not in gone
        pending = game.pending_draw
        events = game.apply(player, move)
        agent.moves_this_round += 1
        moves += 1
        assert agent.moves_this_round < MAX_MOVES, "a hand did not end"
        assert sorted(cards_in_play(game)) == list(range(DECK)), "a card was lost or doubled"
        for event in events:
            if isinstance(event, ev.CardPlayed) and event.face.kind in STACK_VALUE:
                stack += STACK_VALUE[event.face.kind]
            if isinstance(event, ev.CardsDrawn) and isinstance(move, Accept):
                assert event.count <= pending, "the taker drew more than the stack"
        if game.phase is Phase.PENALTY:
            assert game.pending_draw == stack, "the stack total is not what was played"
        elif game.phase is not Phase.CHOOSE_COLOR:
            stack = 0
        assert all(len(hand) < NO_MERCY.mercy_limit for hand in game.hands)
        if game.current_player is not None:  # (None: the hand or the game is over)
            assert game.current not in game.knocked_out, "a knocked-out player holds the turn"
    return moves


@given(rules=RULES, players=st.integers(2, 6), seed=SEEDS)
@PROPERTIES
def test_random_games_keep_every_rule_property(rules: RuleSet, players: int, seed: int) -> None:
    """Cards are conserved, knocked-out players never act, the stack is what was played."""
    game = Game.new([f"p{i}" for i in range(players)], rules, seed)
    assert sorted(cards_in_play(game)) == list(range(DECK))
    assert play_checked(game, RandomAgent(seed)) > 0
    assert game.match_winner is not None


@given(players=st.integers(2, 6), seed=SEEDS)
@PROPERTIES
def test_every_offered_move_applies_and_every_state_round_trips(players: int, seed: int) -> None:
    """No illegal move is ever offered; the saved JSON restores an equal game; views build."""
    game = Game.new([f"p{i}" for i in range(players)], RuleSet(variant="nomercy"), seed)
    every_offered_move_applies(game, RandomAgent(seed))


@pytest.mark.slow
def test_two_thousand_seeded_games_keep_every_rule_property() -> None:
    """The same checks over 2,000 seeded games of 2 to 6 players, half of them scored."""
    for seed in range(THOUSANDS):
        scored = RuleSet(variant="nomercy", scoring="standard", target=300)
        rules = scored if seed % 2 else RuleSet(variant="nomercy")
        game = Game.new([f"p{i}" for i in range(2 + seed % 5)], rules, seed)
        play_checked(game, RandomAgent(seed))
        assert game.match_winner is not None


@given(players=st.integers(3, 6), seed=SEEDS)
@PROPERTIES
def test_timeouts_and_players_leaving_keep_the_properties(players: int, seed: int) -> None:
    """Timed-out turns and players leaving mid-hand (knocked out or not): every card stays,
    nobody knocked out holds the turn, and the game ends."""
    game = Game.new([f"p{i}" for i in range(players)], RuleSet(variant="nomercy"), seed)
    agent = RandomAgent(seed)
    rng = random.Random(seed)
    for _ in range(MAX_MOVES):
        if game.phase is Phase.MATCH_OVER or game.phase is Phase.ABANDONED:
            break
        roll = rng.random()
        current = game.current_player
        assert current is not None
        if roll < 0.01 and len(game.players) > 2:
            game.remove_player(rng.choice(game.players), "left")
        elif roll < 0.05:
            game.auto_play(current)
        else:
            agent.step(game)
        assert sorted(cards_in_play(game)) == list(range(DECK)), "a card was lost or doubled"
        if game.current_player is not None:
            assert game.current not in game.knocked_out, "a knocked-out player holds the turn"
            assert game.legal_moves(game.current_player), "the player to move has no move"
    assert game.phase is Phase.MATCH_OVER or game.phase is Phase.ABANDONED
