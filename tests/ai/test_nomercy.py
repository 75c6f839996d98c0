"""The computer players in No Mercy: legal moves only, stacking, the Mercy rule, 7s and 0s."""

from __future__ import annotations

import random

import pytest

from bot.ai import NormalStrategy
from bot.ai.montecarlo import determinize
from bot.ai.table import Table
from bot.engine import Color, Game, PlayCard, RuleSet, SwapWith, view_for
from bot.engine.moves import ACCEPT, ChooseColor
from bot.engine.notation import parse_face, setup
from tests.ai.helpers import STRATEGIES, decisions
from tests.engine import card, play

NM = RuleSet(variant="nomercy")
NORMAL = NormalStrategy()


def knock_out(game: Game, seat: int) -> None:
    """Put ``seat`` out of the hand as the Mercy rule would (its cards set aside)."""
    game.knocked_out.append(seat)
    game.set_aside[seat], game.hands[seat] = game.hands[seat], []


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_every_strategy_plays_only_legal_moves(difficulty: str) -> None:
    """Seeded No Mercy games of 2 to 6 players: every move chosen is a legal one."""
    strategy = STRATEGIES[difficulty]
    checked = 0
    for seed in range(8):
        seats = [strategy, STRATEGIES["normal"], STRATEGIES["easy"]][: 2 + seed % 2]
        seats += [STRATEGIES["normal"]] * (seed % 4)
        rules = RuleSet(variant="nomercy", scoring="standard", target=300) if seed % 2 else NM
        for _, view, player, rng in decisions(rules, seed, seats, 150):
            move = player.choose_move(view, rng)
            assert move in view.legal_moves, (view.phase, move)
            checked += 1
    assert checked >= 600


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_every_strategy_plays_legally_when_it_must_play_if_able(difficulty: str) -> None:
    """At a "must play if able" table no strategy draws while holding a playable card, and the
    move a timed-out turn makes is a legal one too."""
    rules = RuleSet(variant="nomercy", must_play="on")
    strategy = STRATEGIES[difficulty]
    seats = [strategy, STRATEGIES["normal"], STRATEGIES["easy"], strategy]
    checked = 0
    for seed in range(3):
        for game, view, player, rng in decisions(rules, seed, seats, 150):
            assert player.choose_move(view, rng) in view.legal_moves
            assert game.default_move(view.player) in view.legal_moves
            checked += 1
    assert checked >= 200


def test_a_knocked_out_opponent_is_not_in_the_turn_order() -> None:
    """The table reads only the players still in: the next player, the fewest cards."""
    game = setup({"ann": "R1 R2", "ben": "G4", "cid": "Y1 Y2 Y3"}, top="R5", rules=NM)
    knock_out(game, 1)
    table = Table(view_for(game, "ann"))
    assert [o.player for o in table.in_turn_order] == ["cid"]
    assert table.next_player.player == "cid" and table.fewest_cards == 3


def test_normal_stacks_the_smallest_draw_card_that_is_enough() -> None:
    """On a +2 it passes the stack on with a +2 and keeps the +10."""
    game = setup({"ann": "R+2 R1 R2", "ben": "W+10 G+2 G4", "cid": "Y1"}, top="R5", rules=NM)
    play(game, "ann", "R+2")
    move = NORMAL.choose_move(view_for(game, "ben"), random.Random(1))
    assert move == PlayCard(card(game, "ben", "G+2"))


def test_normal_takes_a_stack_it_cannot_answer() -> None:
    """Nothing worth enough in hand: it takes the stack."""
    game = setup({"ann": "W+6 R1 R2", "ben": "G+2 G+4 G4", "cid": "Y1"}, top="R5", rules=NM)
    play(game, "ann", "W+6")
    game.apply("ann", ChooseColor(Color.RED))
    assert NORMAL.choose_move(view_for(game, "ben"), random.Random(1)) == ACCEPT


def test_normal_hits_a_player_the_mercy_rule_would_knock_out() -> None:
    """A Draw Card that takes the next hand to 25 beats a high number."""
    big = " ".join(f"{c}{n}" for c in "YG" for n in (0, 2, 3, 5, 6, 7, 8, 9) for _ in range(2))
    game = setup(
        {"ann": "R9 R+4 B1 B2 B3", "ben": " ".join(big.split()[:22]), "cid": "B4 B5"},
        top="R5",
        rules=NM,
    )
    move = NORMAL.choose_move(view_for(game, "ann"), random.Random(1))
    assert move == PlayCard(card(game, "ann", "R+4"))


def test_normal_swaps_its_big_hand_with_the_smallest_still_in() -> None:
    """A 7 with many cards in hand goes to the smallest hand of a player still in."""
    game = setup(
        {"ann": "R7 B1 B2 B3 B4 B5 B6", "ben": "G4", "cid": "Y1 Y2", "dan": "G1 G2 G3"},
        top="R5",
        rules=NM,
    )
    knock_out(game, 1)
    rng = random.Random(1)
    assert NORMAL.choose_move(view_for(game, "ann"), rng) == PlayCard(card(game, "ann", "R7"))
    play(game, "ann", "R7")
    assert NORMAL.choose_move(view_for(game, "ann"), rng) == SwapWith("cid")


def test_a_roulette_victim_names_the_colour_least_in_sight() -> None:
    """Hit by a Roulette, normal names the colour it has seen least of."""
    game = setup(
        {"ann": "WCR R1 R4", "ben": "R2 R3 Y2 G2 G3", "cid": "Y1"},
        top="G5 G6 Y5 B7 R5",
        rules=NM,
    )
    play(game, "ann", "WCR")
    move = NORMAL.choose_move(view_for(game, "ben"), random.Random(1))
    assert move == ChooseColor(Color.BLUE)


def test_a_determinized_game_keeps_the_knocked_out_and_their_set_aside_count() -> None:
    """The hard player's sampled game: the same players out, as many cards set aside,
    and still every card of the deck."""
    game = setup(
        {"ann": "R1 R2 R3", "ben": "G4 G5 G6 G7", "cid": "Y1 Y2", "dan": "B1"},
        top="R5",
        rules=NM,
    )
    knock_out(game, 1)
    sampled = determinize(view_for(game, "ann"), random.Random(3))
    assert sampled.knocked_out == [1]
    assert len(sampled.set_aside[1]) == 4 and sampled.hands[1] == []
    held = [c for h in sampled.hands for c in h] + [c for s in sampled.set_aside for c in s]
    assert sorted(held + sampled.draw_pile + sampled.discard) == list(range(168))
    assert sampled.face(sampled.discard[-1]) == parse_face("R5")
