"""RULES.md section 2: UNO Flip's starting cards, the flip, dark effects and challenges."""

from __future__ import annotations

import pytest

from bot.engine import Color, Game, Phase, Side, view_for
from bot.engine.events import (
    CardsDrawn,
    ChallengeResolved,
    DirectionChanged,
    DrawStopped,
    Flipped,
    PileReshuffled,
    RoundStarted,
    TurnSkipped,
)
from bot.engine.moves import ACCEPT, CHALLENGE, DRAW, PASS, ChooseColor, PlayCard
from bot.engine.notation import faces, parse_face, setup

from . import card, dealt_with, of_type, play

# ------------------------------------------------------------------ starting cards


def test_starting_draw_one_makes_the_first_player_draw_and_skips_them() -> None:
    """Draw One turned up: the player left of the dealer draws 1 and is skipped."""
    game, out = dealt_with("R+1")
    assert len(game.hand("ben")) == 8
    assert TurnSkipped("ben") in out
    assert game.current_player == "cid"


def test_starting_reverse_lets_the_dealer_start_to_the_right() -> None:
    """Reverse turned up: the dealer starts and play goes to the right."""
    game, out = dealt_with("RR")
    assert DirectionChanged(-1) in out
    assert game.current_player == "ann"
    game.apply("ann", DRAW)
    if game.phase is Phase.DRAWN:
        game.apply("ann", PASS)
    assert game.current_player == "cid"


def test_starting_skip_skips_the_player_left_of_the_dealer() -> None:
    """Skip turned up: the player left of the dealer loses the turn."""
    game, out = dealt_with("RS")
    assert TurnSkipped("ben") in out
    assert game.current_player == "cid"
    assert len(game.hand("ben")) == 7


def test_starting_wild_lets_the_first_player_name_the_colour_then_play() -> None:
    """Wild turned up: the player left of the dealer names the colour and then plays."""
    game, _ = dealt_with("W")
    assert game.phase is Phase.CHOOSE_COLOR
    assert game.current_player == "ben"
    game.apply("ben", ChooseColor(Color.YELLOW))
    assert game.current_player == "ben"
    assert DRAW in game.legal_moves("ben")
    assert game.color is Color.YELLOW


def test_starting_wild_draw_two_is_put_back_and_another_turned() -> None:
    """Wild Draw Two turned up is shuffled back and the next card starts instead."""
    game, out = dealt_with("W+2 B4")
    (started,) = of_type(out, RoundStarted)
    assert started.starter == parse_face("B4")
    assert started.reshuffled_starters == 1
    assert len(game.draw_pile) == 112 - 21 - 1
    assert game.current_player == "ben"


def test_starting_flip_turns_to_the_dark_side_before_the_first_turn() -> None:
    """Flip turned up: the flip happens at once; the revealed dark action has no effect."""
    game, out = dealt_with("RF|P8")
    assert of_type(out, Flipped) == [Flipped("ann", Side.DARK, parse_face("P8"))]
    assert game.side is Side.DARK
    assert game.color is Color.PINK
    assert game.current_player == "ben"


def test_starting_flip_revealing_wild_draw_color_lets_the_first_player_name_it() -> None:
    """A Flip whose dark face is Wild Draw Color: the first player names a colour, draws none."""
    game, _ = dealt_with("GF|W+C")
    assert game.side is Side.DARK
    assert game.phase is Phase.CHOOSE_COLOR
    assert game.current_player == "ben"
    game.apply("ben", ChooseColor(Color.TEAL))
    assert game.current_player == "ben"
    assert DRAW in game.legal_moves("ben")
    assert all(len(hand) == 7 for hand in game.hands)


# ------------------------------------------------------------------ the flip


def _flip_table() -> Game:
    """ann holds a red Flip on a discard pile of three light cards."""
    return setup(
        {"ann": "RF B2", "ben": "G3 Y4", "cid": "B5 B6"},
        top="R7|U5 Y7 R9",
    )


def test_flip_turns_the_discard_pile_over() -> None:
    """The Flip goes to the bottom; the new top is the former bottom card's dark face."""
    game = _flip_table()
    bottom = game.discard[0]
    flip_card = card(game, "ann", "RF")
    play(game, "ann", "RF")
    assert game.discard[0] == flip_card
    assert game.discard[-1] == bottom
    assert game.top_face() == parse_face("U5")


def test_flip_turns_the_draw_pile_over() -> None:
    """The draw pile's former bottom card is the next card drawn."""
    game = _flip_table()
    bottom = game.draw_pile[0]
    play(game, "ann", "RF")
    assert game.draw_pile[-1] == bottom


def test_flip_turns_every_hand() -> None:
    """Everyone's hand now shows the dark faces; the others see the light ones."""
    game = _flip_table()
    play(game, "ann", "RF")
    view = view_for(game, "ben")
    assert game.side is Side.DARK
    assert [c.face for c in view.hand] == [game.face(c, Side.DARK) for c in game.hand("ben")]
    (cid,) = (o for o in view.opponents if o.player == "cid")
    assert cid.backs == tuple(game.face(c, Side.LIGHT) for c in game.hand("cid"))


def test_flip_passes_the_turn_as_normal() -> None:
    """After a flip the next player is on turn, in the colour of the revealed top."""
    game = _flip_table()
    out = play(game, "ann", "RF")
    assert of_type(out, Flipped) == [Flipped("ann", Side.DARK, parse_face("U5"))]
    assert game.color is Color.PURPLE
    assert game.current_player == "ben"


def test_flip_is_playable_on_another_flip() -> None:
    """A blue Flip matches a red Flip by symbol."""
    game = setup({"ann": "BF B2", "ben": "G3"}, top="RF")
    assert PlayCard(card(game, "ann", "BF")) in game.legal_moves("ann")


def test_revealed_top_action_has_no_effect() -> None:
    """A Draw Five revealed by a flip makes nobody draw and skips nobody."""
    game = setup({"ann": "RF B2", "ben": "G3 Y4", "cid": "B5 B6"}, top="R2|U+5 R9")
    play(game, "ann", "RF")
    assert game.top_face() == parse_face("U+5")
    assert len(game.hand("ben")) == 2
    assert game.current_player == "ben"


def test_revealed_wild_is_coloured_by_the_flipper() -> None:
    """A Wild revealed by a flip waits for the flipper's dark colour; then the next player."""
    game = setup({"ann": "RF B2", "ben": "G3 Y4", "cid": "B5 B6"}, top="BR|W R9")
    play(game, "ann", "RF")
    assert game.phase is Phase.CHOOSE_COLOR
    assert game.current_player == "ann"
    assert ChooseColor(Color.ORANGE) in game.legal_moves("ann")
    game.apply("ann", ChooseColor(Color.ORANGE))
    assert game.color is Color.ORANGE
    assert game.current_player == "ben"


def test_dark_flip_turns_back_to_the_light_side() -> None:
    """A Flip played on the dark side returns everything to the light side."""
    game = setup({"ann": "PF T2", "ben": "O3 O4"}, top="R7|O1 P9", side=Side.DARK)
    play(game, "ann", "PF")
    assert game.side is Side.LIGHT
    assert game.top_face() == parse_face("R7")


# ------------------------------------------------------------------ light and dark effects


def test_draw_one_makes_the_next_player_draw_one_and_lose_the_turn() -> None:
    """Draw One: the next player draws 1 and is skipped."""
    game = setup({"ann": "R+1 B2", "ben": "G3 Y4", "cid": "B5 B6"}, top="R9")
    out = play(game, "ann", "R+1")
    assert len(game.hand("ben")) == 3
    assert TurnSkipped("ben") in out
    assert game.current_player == "cid"


def test_skip_makes_the_next_player_lose_the_turn() -> None:
    """Skip: the next player loses the turn."""
    game = setup({"ann": "RS B2", "ben": "G3 Y4", "cid": "B5 B6"}, top="R9")
    play(game, "ann", "RS")
    assert game.current_player == "cid"


def test_reverse_changes_the_direction() -> None:
    """Reverse with three players: play goes back the other way."""
    game = setup({"ann": "RR B2", "ben": "G3 Y4", "cid": "B5 B6"}, top="R9")
    play(game, "ann", "RR")
    assert game.direction == -1
    assert game.current_player == "cid"


def test_draw_five_makes_the_next_player_draw_five_and_lose_the_turn() -> None:
    """Draw Five: the next player draws 5 and is skipped."""
    game = setup({"ann": "P+5 T2", "ben": "O3 O4", "cid": "U5 U6"}, top="P9", side=Side.DARK)
    play(game, "ann", "P+5")
    assert len(game.hand("ben")) == 7
    assert game.current_player == "cid"


def test_skip_everyone_lets_the_same_player_play_again() -> None:
    """Skip Everyone: every other player is skipped and the player goes again."""
    game = setup({"ann": "PSE T2", "ben": "O3 O4", "cid": "U5 U6"}, top="P9", side=Side.DARK)
    out = play(game, "ann", "PSE")
    assert of_type(out, TurnSkipped) == [TurnSkipped("ben"), TurnSkipped("cid")]
    assert game.current_player == "ann"
    assert game.phase is Phase.PLAY


def _draw_color(draw: str = "", hand: str = "W+C T2") -> Game:
    """ann has played a Wild Draw Color naming teal on ben, who must answer."""
    game = setup({"ann": hand, "ben": "O3 O4", "cid": "U5 U6"}, top="P9", side=Side.DARK, draw=draw)
    play(game, "ann", "W+C")
    game.apply("ann", ChooseColor(Color.TEAL))
    return game


def test_wild_draw_color_draws_until_the_named_colour() -> None:
    """The victim draws one card at a time until teal; a drawn wild does not count."""
    game = _draw_color(draw="P1 W O2 T3 P4")
    out = game.apply("ben", ACCEPT)
    (drawn,) = of_type(out, CardsDrawn)
    assert drawn.faces == tuple(faces("P1 W O2 T3"))
    assert len(game.hand("ben")) == 6
    assert game.current_player == "cid"


def test_wild_draw_color_reshuffles_mid_draw() -> None:
    """When the draw pile runs out mid-draw, the discard pile is reshuffled and drawing goes on."""
    game = _draw_color(hand="W+C T2")
    orange = [c for c in game.draw_pile if game.face(c).color is Color.ORANGE][:2]
    rest = [c for c in game.draw_pile if c not in orange]
    game.draw_pile = orange
    game.discard[:0] = rest
    out = game.apply("ben", ACCEPT)
    assert of_type(out, PileReshuffled)
    assert game.face(game.hand("ben")[-1]).color is Color.TEAL
    assert len(game.hand("ben")) > 4


def test_wild_draw_color_stops_when_nothing_is_left_to_draw() -> None:
    """With no teal left anywhere to draw, the draw stops and the penalty counts as served."""
    game = setup(
        {"ann": "W+C T2", "ben": "O3 O4", "cid": "U5 U6"}, top="P9", side=Side.DARK, draw="O1 O2"
    )
    game.draw_pile = game.draw_pile[-2:]
    play(game, "ann", "W+C")
    game.apply("ann", ChooseColor(Color.TEAL))
    out = game.apply("ben", ACCEPT)
    assert DrawStopped("ben") in out
    assert [game.face(c) for c in game.hand("ben")] == faces("O3 O4 O1 O2 P9")
    assert game.current_player == "cid"


# ------------------------------------------------------------------ Flip challenges


def _wild_draw_two(hand: str) -> Game:
    """ann has played a Wild Draw Two naming green on ben (red in play before)."""
    game = setup({"ann": hand, "ben": "Y3 Y4", "cid": "G7 G8"}, top="R9")
    play(game, "ann", "W+2")
    game.apply("ann", ChooseColor(Color.GREEN))
    return game


def test_guilty_wild_draw_two_draws_two() -> None:
    """A challenged Wild Draw Two played while holding red: its player draws 2."""
    game = _wild_draw_two("R2 W+2 B5")
    game.apply("ben", CHALLENGE)
    assert len(game.hand("ann")) == 4
    assert len(game.hand("ben")) == 2
    assert game.current_player == "ben"


def test_innocent_wild_draw_two_makes_the_challenger_draw_four() -> None:
    """A fair Wild Draw Two challenged: the challenger draws 4 and loses the turn."""
    game = _wild_draw_two("Y2 W+2 B5")
    game.apply("ben", CHALLENGE)
    assert len(game.hand("ben")) == 6
    assert len(game.hand("ann")) == 2
    assert game.current_player == "cid"


def test_accepted_wild_draw_two_draws_two() -> None:
    """An accepted Wild Draw Two: the victim draws 2 and is skipped."""
    game = _wild_draw_two("Y2 W+2 B5")
    game.apply("ben", ACCEPT)
    assert len(game.hand("ben")) == 4
    assert game.current_player == "cid"


def test_guilty_wild_draw_color_draws_until_the_colour() -> None:
    """A guilty Wild Draw Color: its player draws until the named colour; the victim plays."""
    game = _draw_color(draw="P1 O2 T3 P4", hand="W+C P2 O5")
    (resolved,) = of_type(game.apply("ben", CHALLENGE), ChallengeResolved)
    assert resolved.guilty
    assert [game.face(c) for c in game.hand("ann")] == faces("P2 O5 P1 O2 T3")
    assert game.current_player == "ben"
    assert game.phase is Phase.PLAY


def test_innocent_wild_draw_color_draws_until_the_colour_then_two_more() -> None:
    """A fair Wild Draw Color: the challenger draws until teal, then 2 more, and is skipped."""
    game = _draw_color(draw="P1 T3 P4 O6 U7", hand="W+C O2 O5")
    (resolved,) = of_type(game.apply("ben", CHALLENGE), ChallengeResolved)
    assert not resolved.guilty
    assert [game.face(c) for c in game.hand("ben")] == faces("O3 O4 P1 T3 P4 O6")
    assert game.current_player == "cid"


@pytest.mark.parametrize("token", ["USE", "UR"])
def test_two_player_skip_everyone_and_reverse_act_as_skip(token: str) -> None:
    """With two players Skip Everyone and Reverse bring the turn straight back."""
    game = setup({"ann": f"{token} T2", "ben": "O3 O4"}, top="U9", side=Side.DARK)
    play(game, "ann", token)
    assert game.current_player == "ann"
    assert game.direction == 1
