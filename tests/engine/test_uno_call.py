"""Calling UNO and catching a player who did not, with the exact catch window."""

from __future__ import annotations

import pytest

from bot.engine import Color, Game, IllegalMove, RuleSet, view_for
from bot.engine.events import UnoCalled, UnoCaught
from bot.engine.moves import ACCEPT, CALL_UNO, DRAW, Catch, ChooseColor
from bot.engine.notation import setup
from bot.engine.snapshot import dump_state

from . import play


def _down_to_one() -> Game:
    """ann has just played her second-to-last card without calling UNO."""
    game = setup({"ann": "R2 R3", "ben": "G9 Y9 R5", "cid": "Y7 B7"}, top="R9", draw="B1 B2")
    play(game, "ann", "R2")
    return game


def test_player_down_to_one_card_without_calling_can_be_caught() -> None:
    """Every other player is offered a Catch against the exposed player."""
    game = _down_to_one()
    assert game.catchable() == "ann"
    assert Catch("ann") in game.legal_moves("ben")
    assert Catch("ann") in game.legal_moves("cid")


def test_caught_player_draws_two() -> None:
    """A catch makes the exposed player draw 2 and closes the window."""
    game = _down_to_one()
    out = game.apply("cid", Catch("ann"))
    assert UnoCaught("cid", "ann") in out
    assert len(game.hand("ann")) == 3
    assert game.catchable() is None


def test_catch_window_closes_when_the_next_player_plays() -> None:
    """Once the next player plays, the exposed player is safe."""
    game = _down_to_one()
    play(game, "ben", "R5")
    assert game.catchable() is None
    with pytest.raises(IllegalMove, match=r"ann cannot be caught"):
        game.apply("cid", Catch("ann"))


def test_catch_window_closes_when_the_next_player_draws() -> None:
    """Drawing also begins the next player's turn and closes the window."""
    game = _down_to_one()
    game.apply("ben", DRAW)
    assert game.catchable() is None


def test_catch_window_stays_open_until_the_next_player_acts() -> None:
    """The next player may themselves catch before playing."""
    game = _down_to_one()
    game.apply("ben", Catch("ann"))
    assert len(game.hand("ann")) == 3
    assert game.current_player == "ben"


def test_calling_uno_after_playing_is_safe_before_a_catch() -> None:
    """Calling UNO with one card before anyone catches closes the window."""
    game = _down_to_one()
    assert game.apply("ann", CALL_UNO) == [UnoCalled("ann")]
    assert game.catchable() is None
    assert Catch("ann") not in game.legal_moves("ben")


def test_calling_uno_early_with_two_cards_is_safe() -> None:
    """Calling UNO with two cards, then playing the second-to-last card, leaves nothing to catch."""
    game = setup({"ann": "R2 R3", "ben": "G9 Y9"}, top="R9")
    game.apply("ann", CALL_UNO)
    play(game, "ann", "R2")
    assert game.catchable() is None


def test_calling_uno_with_three_cards_is_rejected() -> None:
    """CallUno is only possible with two cards or fewer."""
    game = setup({"ann": "R2 R3 R4", "ben": "G9 Y9"}, top="R9")
    with pytest.raises(IllegalMove, match=r"^You can only call UNO with two cards or fewer.$"):
        game.apply("ann", CALL_UNO)


def test_false_catch_is_rejected_and_changes_nothing() -> None:
    """Catching a player who called UNO is an IllegalMove and the state is untouched."""
    game = _down_to_one()
    game.apply("ann", CALL_UNO)
    before = dump_state(game)
    with pytest.raises(
        IllegalMove, match=r"^ann cannot be caught: they called UNO or it is too late.$"
    ):
        game.apply("ben", Catch("ann"))
    assert dump_state(game) == before


def test_catching_a_player_with_several_cards_is_rejected() -> None:
    """A player with more than one card cannot be caught."""
    game = _down_to_one()
    with pytest.raises(IllegalMove, match=r"cid cannot be caught"):
        game.apply("ben", Catch("cid"))


def test_drawing_a_card_needs_a_new_call() -> None:
    """Drawing cancels an earlier UNO call: it has to be made again."""
    game = setup({"ann": "R2 B3", "ben": "G9 Y9"}, top="R9", draw="Y1 G4")
    game.apply("ann", CALL_UNO)
    game.apply("ann", DRAW)
    assert not view_for(game, "ann").called_uno


def test_exposure_survives_an_automatic_draw_two_of_the_skipped_player() -> None:
    """Without stacking, the Draw Two victim never starts a turn: the window stays open."""
    game = setup(
        {"ann": "R+2 R3", "ben": "G9 Y9", "cid": "B1 B2"},
        top="R9",
        rules=RuleSet(variant="classic"),
    )
    play(game, "ann", "R+2")
    assert game.current_player == "cid"
    assert game.catchable() == "ann"
    game.apply("ben", Catch("ann"))
    assert len(game.hand("ann")) == 3


def test_exposure_ends_when_the_draw_wild_victim_answers() -> None:
    """A victim who accepts a draw-wild has begun their turn: the window closes."""
    game = setup({"ann": "W+2 R3", "ben": "G9 Y9", "cid": "B1 B2"}, top="R9")
    play(game, "ann", "W+2")
    game.apply("ann", ChooseColor(Color.BLUE))
    assert game.catchable() == "ann"
    game.apply("ben", ACCEPT)
    assert game.catchable() is None
