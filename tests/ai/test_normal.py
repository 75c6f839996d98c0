"""The normal player follows the seeds' advice in small, hand-built positions."""

from __future__ import annotations

import random

from bot.ai import NormalStrategy
from bot.engine import Color, RuleSet, view_for
from bot.engine.moves import CALL_UNO, ChooseColor, Move, PlayCard, SwapWith
from bot.engine.notation import parse_face, setup

B_HAND = "B5 B6 B7 B8 Y6 Y7 Y8"
C_HAND = "Y1 Y2 Y3 Y4 Y5 G7 G8"
D_HAND = "R1 R3 R4 G5 G6 Y9 B9"


def _choose(hands: dict[str, str], top: str, **options: object) -> tuple[Move, str]:
    """Normal's move for the first player, and that move's card in notation (or "")."""
    game = setup(hands, top, **options)  # type: ignore[arg-type]
    move = NormalStrategy().choose_move(view_for(game, "me"), random.Random(0))
    if isinstance(move, PlayCard):
        face = game.face(move.card)
        name = next(code for code in _codes(hands["me"]) if parse_face(code) == face)
        return move, name
    return move, ""


def _codes(hand: str) -> list[str]:
    return hand.split()


def test_sheds_the_highest_number_first() -> None:
    """With several reds to play, the red 9 goes before the red 2."""
    _, card = _choose({"me": "R2 R9 G4 B3", "b": B_HAND, "c": C_HAND}, "R5")
    assert card == "R9"


def test_keeps_a_wild_while_the_round_is_young() -> None:
    """A wild stays in hand when a coloured card can be played."""
    _, card = _choose({"me": "W R2 G4 B3", "b": B_HAND, "c": C_HAND}, "R5")
    assert card == "R2"


def test_never_bluffs_a_draw_wild() -> None:
    """Wild Draw Four is not played while holding the colour in play."""
    _, card = _choose(
        {"me": "W+4 R1 G4 B3", "b": B_HAND, "c": C_HAND}, "R5", rules=RuleSet(variant="classic")
    )
    assert card == "R1"


def test_dumps_expensive_cards_when_someone_is_at_one_card() -> None:
    """Someone at one card: the 20-point Skip goes before the red 9."""
    _, card = _choose({"me": "RS R9 G4 B3", "b": B_HAND, "c": "G9"}, "R5")
    assert card == "RS"


def test_holds_action_cards_while_nobody_is_close() -> None:
    """Nobody close to going out: the red 9 goes before the Skip."""
    _, card = _choose({"me": "RS R9 G4 B3", "b": B_HAND, "c": C_HAND}, "R5")
    assert card == "R9"


def test_hits_a_next_player_close_to_going_out() -> None:
    """The next player holds two cards: the Draw One lands on them instead of shedding the 9."""
    _, card = _choose({"me": "R+1 R9 G4 B3", "b": "G1 G2", "c": C_HAND}, "R5")
    assert card == "R+1"


def test_names_the_colour_it_holds_most_of() -> None:
    """After a wild, the colour named is the one most cards in hand share."""
    game = setup({"me": "W B1 B2 G3 B3", "b": B_HAND, "c": C_HAND}, "R5")
    wild = next(c for c in game.hand("me") if game.face(c).color is None)
    game.apply("me", PlayCard(wild))
    move = NormalStrategy().choose_move(view_for(game, "me"), random.Random(0))
    assert move == ChooseColor(Color.BLUE)


def test_calls_uno_before_playing_its_second_to_last_card() -> None:
    """Holding two cards, the first move is the UNO call."""
    move, _ = _choose({"me": "R2 G4", "b": B_HAND, "c": C_HAND}, "R5")
    assert move == CALL_UNO


def test_seven_o_swaps_with_the_smallest_hand() -> None:
    """Playing a 7 under Seven-O, the swap goes to the player with the fewest cards."""
    rules = RuleSet(variant="classic", seven_o=True)
    game = setup({"me": "R7 G4 B3 Y2", "b": B_HAND, "c": "G1 G2", "d": D_HAND}, "R5", rules=rules)
    seven = next(c for c in game.hand("me") if game.face(c).number == 7)
    game.apply("me", PlayCard(seven))
    move = NormalStrategy().choose_move(view_for(game, "me"), random.Random(0))
    assert move == SwapWith("c")
