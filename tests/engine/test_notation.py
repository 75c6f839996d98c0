"""The card notation used by tests and docs: parse_face, face_code, faces and setup."""

from __future__ import annotations

import pytest

from bot.engine import Color, Face, Kind, Phase, RuleSet, Side
from bot.engine.notation import face_code, faces, parse_face, setup

from . import card


@pytest.mark.parametrize(
    ("token", "face"),
    [
        ("R5", Face(Color.RED, Kind.NUMBER, 5)),
        ("b0", Face(Color.BLUE, Kind.NUMBER, 0)),
        ("T+5", Face(Color.TEAL, Kind.DRAW_FIVE)),
        ("USE", Face(Color.PURPLE, Kind.SKIP_EVERYONE)),
        ("GF", Face(Color.GREEN, Kind.FLIP)),
        ("W+C", Face(None, Kind.WILD_DRAW_COLOR)),
        ("WSW", Face(None, Kind.WILD_SWAP_HANDS)),
    ],
)
def test_tokens_name_faces(token: str, face: Face) -> None:
    """Each token names one face, case-insensitively."""
    assert parse_face(token) == face


@pytest.mark.parametrize("token", ["X5", "R", "R10", "W+9", "RSS"])
def test_unknown_tokens_are_rejected(token: str) -> None:
    """A token that names no card raises ValueError."""
    with pytest.raises(ValueError, match="not a card"):
        parse_face(token)


def test_face_code_is_the_inverse_of_parse_face() -> None:
    """Every face of both decks writes back to a token that parses to it."""
    game = setup({"ann": "R1", "bob": "R2"}, top="R3")
    for side in Side:
        for index in range(len(game.deck)):
            face = game.face(index, side)
            assert parse_face(face_code(face)) == face


def test_faces_reads_a_space_separated_list() -> None:
    """faces() parses a whole hand in order."""
    assert faces("R1 W P+5") == [parse_face("R1"), parse_face("W"), parse_face("P+5")]


def test_setup_deals_exactly_the_given_hands() -> None:
    """Hands, top card and colour in play are as written; the game waits on the first player."""
    game = setup({"ann": "R1 W", "ben": "G7"}, top="B2 R3")
    assert [game.face(c) for c in game.hand("ann")] == faces("R1 W")
    assert game.top_face() == parse_face("R3")
    assert game.color is Color.RED
    assert game.current_player == "ann"
    assert game.phase is Phase.PLAY


def test_setup_keeps_the_deck_complete() -> None:
    """Every card is in exactly one place: hands, discard pile or draw pile."""
    game = setup({"ann": "R1 W", "ben": "G7"}, top="B2 R3", draw="Y4 Y5")
    everywhere = [c for hand in game.hands for c in hand] + game.discard + game.draw_pile
    assert sorted(everywhere) == list(range(112))


def test_setup_draw_lists_the_next_cards_first_drawn_first() -> None:
    """The draw string is the order cards come off the pile."""
    game = setup({"ann": "R1", "ben": "G7"}, top="R3", draw="Y4 Y5")
    assert [game.face(c) for c in game.draw_pile[-2:]] == faces("Y5 Y4")


def test_setup_pins_both_faces_of_a_flip_card() -> None:
    """``R7|O1`` picks the red 7 whose dark face is an orange 1."""
    game = setup({"ann": "R7|O1", "ben": "G7"}, top="R3")
    held = card(game, "ann", "R7")
    assert game.face(held, Side.DARK) == parse_face("O1")


def test_setup_on_the_dark_side_reads_dark_tokens() -> None:
    """With side=DARK the tokens name dark faces."""
    game = setup({"ann": "T+5", "ben": "P7"}, top="U3", side=Side.DARK)
    assert game.top_face() == parse_face("U3")
    assert game.face(game.hand("ann")[0]) == parse_face("T+5")


def test_setup_rejects_a_card_the_deck_does_not_have() -> None:
    """Asking for a third red 5 in classic fails with the variant named."""
    with pytest.raises(ValueError, match="no card 'R5' left in the classic deck"):
        setup({"ann": "R5 R5 R5", "ben": "G7"}, top="R3", rules=RuleSet(variant="classic"))


def test_setup_needs_a_colour_for_a_wild_on_top() -> None:
    """A Wild on top without color= is rejected."""
    with pytest.raises(ValueError, match="needs color"):
        setup({"ann": "R5", "ben": "G7"}, top="W")
