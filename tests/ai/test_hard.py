"""The hard player: Flip timing, challenges by card counting, budgeted rollouts."""

from __future__ import annotations

import dataclasses
import itertools
import random

from bot.ai import HardStrategy, NormalStrategy
from bot.ai.montecarlo import determinize, run_rollouts
from bot.ai.table import Table
from bot.engine import Color, Game, PlayerView, Side, view_for
from bot.engine.moves import ACCEPT, CHALLENGE, DRAW, ChooseColor, PlayCard
from bot.engine.notation import face_code, setup

NO_CLOCK = HardStrategy(budget_seconds=None, max_rollouts=None)
# Hands pinned to real light|dark pairs of the Flip deck.
WEAK_BACKS = "Y2|T1 Y3|U1 Y7|O2 Y8|P1 Y9|U4"
NUMBERS = "B2|O8 B3|U8 B5|P9 B7|O3 B8|T4"


def _played(game: Game, move: object) -> str:
    assert isinstance(move, PlayCard)
    return face_code(game.face(move.card))


def test_flips_when_its_dark_side_is_strong_and_theirs_weak() -> None:
    """Our backs are draw-wilds and Skip Everyone, theirs plain numbers: the Flip beats the 9."""
    hands = {"me": "RF|P8 R9|U5 G6|W+C R3|W+C B1|USE", "b": NUMBERS, "c": WEAK_BACKS}
    game = setup(hands, "R5|P2")
    assert (
        _played(game, NormalStrategy().choose_move(view_for(game, "me"), random.Random(0))) == "R9"
    )
    assert _played(game, NO_CLOCK.choose_move(view_for(game, "me"), random.Random(0))) == "RF"


def test_keeps_the_flip_when_their_dark_side_is_strong() -> None:
    """The next player's backs are Draw Fives and draw-wilds, ours numbers: no Flip."""
    strong = "B4|T+5 B6|TSE G6|W+C GF|W+C G2|T+5"
    game = setup({"me": "RF|P8 R1|P3 G5|O7 B2|O8", "b": strong, "c": WEAK_BACKS}, "R5|P2")
    assert (
        _played(game, NormalStrategy().choose_move(view_for(game, "me"), random.Random(0))) == "RF"
    )
    assert _played(game, NO_CLOCK.choose_move(view_for(game, "me"), random.Random(0))) == "G5"


def _victim_view(source_hand: str) -> PlayerView:
    """ "b" plays Wild Draw Two on red 5 and names green; the view of "me", who must answer."""
    game = setup({"b": source_hand, "me": "B3|U8 G1|O5 Y3|U1", "c": "Y2|T1 Y7|O2"}, "R5|P2")
    wild = next(c for c in game.hand("b") if game.face(c).color is None)
    game.apply("b", PlayCard(wild))
    game.apply("b", ChooseColor(Color.GREEN))
    assert game.current_player == "me"
    return view_for(game, "me")


def test_accepts_when_the_player_cannot_have_held_the_colour() -> None:
    """Every visible back of their hand pairs only with non-red faces: no challenge."""
    view = _victim_view("W+2|O4 G5|O7 Y5|U9 G6|P5")
    assert CHALLENGE in view.legal_moves
    assert NO_CLOCK.choose_move(view, random.Random(0)) == ACCEPT


def test_challenges_when_the_player_surely_held_the_colour() -> None:
    """Their backs pair only with red faces: they bluffed, so the hard player challenges."""
    view = _victim_view("W+2|O4 R1|P3 R7|U5 R8|T7")
    assert NormalStrategy().choose_move(view, random.Random(0)) == ACCEPT
    assert NO_CLOCK.choose_move(view, random.Random(0)) == CHALLENGE


def test_rollouts_stop_at_the_rollout_cap() -> None:
    """With a cap and no clock, exactly the capped number of rollouts (rounded down) runs."""
    game = setup({"me": "R2 R9 G4", "b": "G1 G2", "c": "Y1 Y2 Y3"}, "R5")
    view = view_for(game, "me")
    plays = [m for m in view.legal_moves if isinstance(m, PlayCard)]
    runs = run_rollouts(
        view, plays, random.Random(1), max_rollouts=10, deadline=None, clock=lambda: 0.0
    ).runs
    assert runs == 10 // len(plays) * len(plays)


def test_rollouts_stop_before_the_deadline() -> None:
    """A clock ticking once per call: two rounds fit before the deadline, a third would not."""
    game = setup({"me": "R2 R9 G4", "b": "G1 G2", "c": "Y1 Y2 Y3"}, "R5")
    view = view_for(game, "me")
    plays = [m for m in view.legal_moves if isinstance(m, PlayCard)]
    ticks = itertools.count()
    runs = run_rollouts(
        view, plays, random.Random(1), max_rollouts=None, deadline=5, clock=lambda: next(ticks)
    ).runs
    assert runs == 2 * len(plays)


def test_rollout_decisions_repeat_with_the_same_seed() -> None:
    """The same view and rng seed give the same rollout choice."""
    game = setup({"me": "R2 R9 G4 RS", "b": "G1 G2", "c": "Y1 Y2 Y3"}, "R5")
    view = view_for(game, "me")
    strategy = HardStrategy(budget_seconds=None, max_rollouts=30)
    first = strategy.choose_move(view, random.Random(7))
    assert all(strategy.choose_move(view, random.Random(7)) == first for _ in range(3))


def test_determinized_game_matches_everything_the_view_shows() -> None:
    """A determinization deals hidden cards so that our view of it is unchanged."""
    game = setup(
        {"me": "R2|U+5 G4|P8 B9|O5", "b": NUMBERS, "c": WEAK_BACKS}, "G7|O6 R5|P2", side=Side.LIGHT
    )
    view = view_for(game, "me")
    sample = determinize(view, random.Random(3))
    again = view_for(sample, "me")
    assert again.hand == view.hand
    assert again.opponents == view.opponents
    assert (again.top, again.under_top, again.draw_pile_back) == (
        view.top,
        view.under_top,
        view.draw_pile_back,
    )
    assert (again.draw_pile_count, again.discard_count) == (
        view.draw_pile_count,
        view.discard_count,
    )


def test_rollouts_overrule_a_heuristic_blind_to_the_next_players_colour() -> None:
    """The next player's last card is surely red: rollouts switch to blue where 9 keeps red."""
    hands = {"me": "R9 B5", "b": "R7|U5", "c": "Y2|T1 Y3|U1 Y7|O2 Y8|P1"}
    game = setup(hands, "R5|P2")
    game.uno_declared = [True, True, False]
    view = view_for(game, "me")
    blind = HardStrategy(budget_seconds=None, max_rollouts=None, next_color_penalty=0.0)
    assert _played(game, blind.choose_move(view, random.Random(0))) == "R9"
    rolled = dataclasses.replace(blind, max_rollouts=40)
    assert _played(game, rolled.choose_move(view, random.Random(0))) == "B5"


def test_colour_choice_by_rollouts_avoids_the_next_players_colour() -> None:
    """After our wild, rollouts name a colour other than the red the next player surely holds."""
    hands = {"me": "W R9 R3", "b": "R7|U5", "c": "Y2|T1 Y3|U1 Y7|O2 Y8|P1"}
    game = setup(hands, "G5")
    wild = next(c for c in game.hand("me") if game.face(c).color is None)
    game.apply("me", PlayCard(wild))
    game.uno_declared = [True, True, False]
    view = view_for(game, "me")
    blind = NormalStrategy()
    assert blind.choose_move(view, random.Random(0)) == ChooseColor(Color.RED)
    rolled = HardStrategy(budget_seconds=None, max_rollouts=40, next_color_penalty=0.0)
    assert rolled.choose_move(view, random.Random(0)) != ChooseColor(Color.RED)


def test_bluffs_and_draws_are_rolled_out_only_when_asked() -> None:
    """A bluffed Wild Draw Two and drawing join the candidates only with their switches on."""
    game = setup({"me": "W+2|O4 R2 R9", "b": NUMBERS, "c": WEAK_BACKS}, "R5|P2")
    table = Table(view_for(game, "me"))
    narrow = dataclasses.replace(NO_CLOCK, rollout_bluffs=False, rollout_draw=False)
    plain = narrow.rollout_candidates_for(table, PlayCard(game.hand("me")[2]))
    assert len(plain) == 2 and DRAW not in plain
    wide = dataclasses.replace(narrow, rollout_bluffs=True, rollout_draw=True)
    candidates = wide.rollout_candidates_for(table, PlayCard(game.hand("me")[2]))
    assert PlayCard(game.hand("me")[0]) in candidates and DRAW in candidates
    assert len(candidates) == 4
