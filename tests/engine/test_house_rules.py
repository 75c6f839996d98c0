"""RULES.md section 4: stacking, Seven-O, jump-in, draw until playable, forced play."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.engine import Color, Game, IllegalMove, Phase, RuleSet, Side
from bot.engine.events import (
    CardPlayed,
    Event,
    HandsRotated,
    HandsSwapped,
    PenaltyStacked,
    RoundEnded,
)
from bot.engine.moves import ACCEPT, CHALLENGE, DRAW, ChooseColor, PlayCard, SwapWith
from bot.engine.notation import faces, parse_face, setup

from . import card, dealt_with, of_type, play

STACKING = RuleSet(variant="classic", stacking=True)
STACKING_FLIP = RuleSet(stacking=True)
STACK_FOUR_ON_TWO = RuleSet(variant="classic", stacking=True, stack_wild_draw_four_on_draw_two=True)
SEVEN_O = RuleSet(variant="classic", seven_o=True)
JUMP_IN = RuleSet(jump_in=True)


def _hand_faces(game: Game, player: str) -> list[object]:
    return [game.face(c) for c in game.hand(player)]


# ------------------------------------------------------------------ stacking


def _play_draw_card(game: Game, player: str, token: str) -> list[Event]:
    """Play a draw card, naming blue if it is a wild."""
    out = play(game, player, token)
    if game.phase is Phase.CHOOSE_COLOR:
        out += game.apply(player, ChooseColor(Color.BLUE))
    return out


@pytest.mark.parametrize(
    ("rules", "first", "second", "total"),
    [
        (STACKING, "R+2", "B+2", 4),
        (STACKING, "W+4", "W+4", 8),
        (STACK_FOUR_ON_TWO, "R+2", "W+4", 6),
        (STACKING_FLIP, "R+1", "B+1", 2),
        (STACKING_FLIP, "W+2", "W+2", 4),
    ],
)
def test_stacked_draw_card_passes_the_total_on(
    rules: RuleSet, first: str, second: str, total: int
) -> None:
    """A draw card stacked on its own kind adds up; the next player draws the total."""
    game = setup({"ann": f"{first} R1", "ben": f"{second} B3", "cid": "G1"}, top="R9", rules=rules)
    _play_draw_card(game, "ann", first)
    assert game.phase is Phase.PENALTY
    out = _play_draw_card(game, "ben", second)
    assert PenaltyStacked("ben", total) in out
    game.apply("cid", ACCEPT)
    assert len(game.hand("cid")) == 1 + total
    assert game.current_player == "ann"


def test_stacking_victim_may_accept_instead() -> None:
    """With stacking on, the victim of a Draw Two may simply draw 2 and lose the turn."""
    game = setup({"ann": "R+2 R1", "ben": "B+2 B3", "cid": "G1"}, top="R9", rules=STACKING)
    play(game, "ann", "R+2")
    game.apply("ben", ACCEPT)
    assert len(game.hand("ben")) == 4
    assert game.current_player == "cid"


@pytest.mark.parametrize(("token", "side"), [("B+1", Side.LIGHT), ("T+5", Side.DARK)])
def test_flip_draw_cards_stack_on_their_own_kind(token: str, side: Side) -> None:
    """Draw One stacks on Draw One and Draw Five on Draw Five."""
    first = "R+1" if side is Side.LIGHT else "P+5"
    other = "R1" if side is Side.LIGHT else "P1"
    game = setup(
        {"ann": f"{first} {other}", "ben": f"{token} {other}"},
        top=first[0] + "9",
        rules=STACKING_FLIP,
        side=side,
    )
    play(game, "ann", first)
    assert PlayCard(card(game, "ben", token)) in game.legal_moves("ben")


def test_draw_one_does_not_stack_on_wild_draw_two() -> None:
    """Only the same kind stacks: a Draw One cannot answer a Wild Draw Two."""
    game = setup({"ann": "W+2 R1", "ben": "G+1 G3"}, top="R9", rules=STACKING_FLIP)
    play(game, "ann", "W+2")
    game.apply("ann", ChooseColor(Color.GREEN))
    assert PlayCard(card(game, "ben", "G+1")) not in game.legal_moves("ben")


def test_wild_draw_four_on_draw_two_needs_its_sub_option() -> None:
    """Without the sub-option a Wild Draw Four cannot answer a Draw Two."""
    game = setup({"ann": "R+2 R1", "ben": "W+4 B3"}, top="R9", rules=STACKING)
    play(game, "ann", "R+2")
    assert PlayCard(card(game, "ben", "W+4")) not in game.legal_moves("ben")


def test_draw_two_never_stacks_on_wild_draw_four() -> None:
    """The sub-option is one way: a Draw Two cannot answer a Wild Draw Four."""
    game = setup({"ann": "W+4 R1", "ben": "B+2 B3"}, top="R9", rules=STACK_FOUR_ON_TWO)
    play(game, "ann", "W+4")
    game.apply("ann", ChooseColor(Color.BLUE))
    assert PlayCard(card(game, "ben", "B+2")) not in game.legal_moves("ben")


def test_nothing_stacks_on_wild_draw_color() -> None:
    """A Wild Draw Color cannot be answered by another Wild Draw Color."""
    game = setup({"ann": "W+C P1", "ben": "W+C T3"}, top="P9", side=Side.DARK, rules=STACKING_FLIP)
    play(game, "ann", "W+C")
    game.apply("ann", ChooseColor(Color.TEAL))
    assert PlayCard(card(game, "ben", "W+C")) not in game.legal_moves("ben")


def _stacked_four_on_two(ben_hand: str) -> Game:
    """ann played a red Draw Two, ben answered with a Wild Draw Four; cid challenges."""
    game = setup(
        {"ann": "R+2 R1", "ben": ben_hand, "cid": "G1 G2"}, top="R9", rules=STACK_FOUR_ON_TWO
    )
    play(game, "ann", "R+2")
    play(game, "ben", "W+4")
    game.apply("ben", ChooseColor(Color.GREEN))
    game.apply("cid", CHALLENGE)
    return game


def test_guilty_stacked_draw_wild_draws_the_whole_pending_total() -> None:
    """A guilty stacked Wild Draw Four: its player draws the total (2 + 4); the victim plays."""
    game = _stacked_four_on_two("W+4 R3")
    assert len(game.hand("ben")) == 1 + 6
    assert len(game.hand("cid")) == 2
    assert game.current_player == "cid"


def test_innocent_stacked_draw_wild_makes_the_challenger_draw_total_plus_two() -> None:
    """A fair stacked Wild Draw Four: the challenger draws the total (6) plus 2."""
    game = _stacked_four_on_two("W+4 B3")
    assert len(game.hand("cid")) == 2 + 8
    assert game.current_player == "ann"


def test_without_stacking_a_draw_two_is_applied_at_once() -> None:
    """With stacking off the victim gets no choice: the cards are drawn immediately."""
    game = setup(
        {"ann": "R+2 R1", "ben": "B+2 B3", "cid": "G1"}, top="R9", rules=RuleSet(variant="classic")
    )
    play(game, "ann", "R+2")
    assert len(game.hand("ben")) == 4
    assert game.current_player == "cid"


def test_last_card_stacked_draw_two_makes_the_next_player_draw_the_total() -> None:
    """Going out by stacking: the next player draws the whole total and it is scored."""
    game = setup(
        {"ann": "R+2 R1", "ben": "B+2", "cid": "G1"}, top="R9", rules=STACKING, draw="G2 G3 G4 G5"
    )
    play(game, "ann", "R+2")
    out = play(game, "ben", "B+2")
    (ended,) = of_type(out, RoundEnded)
    assert dict(ended.hand_points)["cid"] == 1 + 2 + 3 + 4 + 5


# ------------------------------------------------------------------ Seven-O


def test_seven_swaps_hands_with_a_chosen_player() -> None:
    """Seven-O: after a 7, its player picks a player and the two swap hands."""
    game = setup({"ann": "R7 R1", "ben": "G1 G2", "cid": "B1 B2 B3"}, top="R9", rules=SEVEN_O)
    play(game, "ann", "R7")
    assert game.phase is Phase.SWAP_TARGET
    out = game.apply("ann", SwapWith("cid"))
    assert HandsSwapped("ann", "cid") in out
    assert _hand_faces(game, "ann") == faces("B1 B2 B3")
    assert _hand_faces(game, "cid") == faces("R1")
    assert game.current_player == "ben"


def test_zero_passes_every_hand_in_the_direction_of_play() -> None:
    """Seven-O: after a 0 each hand goes to the next player in the direction of play."""
    game = setup({"ann": "R0 R1", "ben": "G1 G2", "cid": "B1 B2 B3"}, top="R9", rules=SEVEN_O)
    out = play(game, "ann", "R0")
    assert HandsRotated(1) in out
    assert _hand_faces(game, "ben") == faces("R1")
    assert _hand_faces(game, "cid") == faces("G1 G2")
    assert _hand_faces(game, "ann") == faces("B1 B2 B3")
    assert game.current_player == "ben"


def test_zero_rotates_the_other_way_after_a_reverse() -> None:
    """Counter-clockwise play passes the hands to the right."""
    game = setup(
        {"ann": "R0 R1", "ben": "G1 G2", "cid": "B1 B2 B3"},
        top="R9",
        rules=SEVEN_O,
        direction=-1,
    )
    play(game, "ann", "R0")
    assert _hand_faces(game, "cid") == faces("R1")
    assert _hand_faces(game, "ann") == faces("G1 G2")


def test_seven_and_zero_do_nothing_without_seven_o() -> None:
    """Without the house rule a 7 is just a number."""
    game = setup({"ann": "R7 R1", "ben": "G1 G2"}, top="R9", rules=RuleSet(variant="classic"))
    play(game, "ann", "R7")
    assert game.current_player == "ben"
    assert game.phase is Phase.PLAY


def test_going_out_with_a_seven_ends_the_round_without_a_swap() -> None:
    """A 7 as the last card ends the round; nobody swaps."""
    game = setup({"ann": "R7", "ben": "G1 G2"}, top="R9", rules=SEVEN_O)
    out = play(game, "ann", "R7")
    assert of_type(out, RoundEnded)
    assert not of_type(out, HandsSwapped)
    assert len(game.hand("ben")) == 2


def test_going_out_with_a_zero_ends_the_round_without_rotating() -> None:
    """A 0 as the last card ends the round; the hands stay where they are."""
    game = setup({"ann": "R0", "ben": "G1 G2", "cid": "B1"}, top="R9", rules=SEVEN_O)
    out = play(game, "ann", "R0")
    assert of_type(out, RoundEnded)
    assert not of_type(out, HandsRotated)
    assert len(game.hand("ben")) == 2


@pytest.mark.parametrize("token", ["R7", "R0"])
def test_starting_seven_or_zero_has_no_effect(token: str) -> None:
    """A 7 or 0 turned up to start the round swaps and rotates nothing."""
    game, out = dealt_with(token, SEVEN_O)
    assert not of_type(out, HandsRotated)
    assert game.phase is Phase.PLAY
    assert game.current_player == "ben"


def test_seven_o_is_rejected_for_flip() -> None:
    """RuleSet validation: the Flip deck has no 0, so Seven-O needs classic."""
    with pytest.raises(ValidationError, match="Seven-O needs classic UNO"):
        RuleSet(variant="flip", seven_o=True)


def test_flip_cannot_use_a_classic_edition() -> None:
    """RuleSet validation: the 112-card editions are classic decks."""
    with pytest.raises(ValidationError, match="editions are classic"):
        RuleSet(variant="flip", edition="swap_hands")


def test_wild_draw_four_on_draw_two_needs_stacking() -> None:
    """RuleSet validation: the sub-option needs stacking turned on."""
    with pytest.raises(ValidationError, match="turn stacking on"):
        RuleSet(variant="classic", stack_wild_draw_four_on_draw_two=True)


def test_every_house_rule_is_off_by_default() -> None:
    """A default RuleSet is plain UNO Flip to 500 with standard scoring."""
    rules = RuleSet()
    assert (rules.variant, rules.target, rules.scoring) == ("flip", 500, "standard")
    assert not any(
        (rules.stacking, rules.seven_o, rules.jump_in, rules.draw_until_playable, rules.forced_play)
    )


# ------------------------------------------------------------------ jump-in


def test_identical_card_may_jump_in_out_of_turn() -> None:
    """Jump-in: cid plays an identical red 9 on ann's turn; play continues from cid."""
    game = setup(
        {"ann": "B1 B2", "ben": "G1 G2", "cid": "R9 Y3", "dee": "Y1 Y2"},
        top="R9",
        rules=JUMP_IN,
    )
    out = play(game, "cid", "R9")
    assert CardPlayed("cid", parse_face("R9"), jump_in=True) in out
    assert game.current_player == "dee"


def test_jump_in_keeps_the_card_effect() -> None:
    """A jumped-in Skip skips the player after the jumper."""
    game = setup(
        {"ann": "B1 B2", "ben": "RS G2", "cid": "G1", "dee": "Y1"}, top="RS", rules=JUMP_IN
    )
    play(game, "ben", "RS")
    assert game.current_player == "dee"


def test_jump_in_needs_the_identical_card() -> None:
    """Same number but another colour is no jump-in."""
    game = setup({"ann": "B1 B2", "ben": "G9 G2"}, top="R9", rules=JUMP_IN)
    with pytest.raises(IllegalMove, match=r"only jump in with a card identical"):
        play(game, "ben", "G9")


def test_jump_in_is_never_with_a_wild() -> None:
    """A Wild on a Wild is not an identical card: no jump-in."""
    game = setup({"ann": "B1 B2", "ben": "W G2"}, top="W", color=Color.RED, rules=JUMP_IN)
    assert PlayCard(card(game, "ben", "W")) not in game.legal_moves("ben")


def test_jump_in_is_off_by_default() -> None:
    """Without the house rule an identical card out of turn is rejected."""
    game = setup({"ann": "B1 B2", "ben": "R9 G2"}, top="R9")
    with pytest.raises(IllegalMove, match=r"It is not your turn"):
        play(game, "ben", "R9")


# ------------------------------------------------------------------ drawing house rules


def test_draw_until_playable_keeps_drawing() -> None:
    """Draw until playable: unplayable cards are kept and drawing stops at a playable one."""
    game = setup(
        {"ann": "B1 B2", "ben": "G1"},
        top="R9",
        draw="Y1 G4 R5 Y7",
        rules=RuleSet(draw_until_playable=True),
    )
    game.apply("ann", DRAW)
    assert _hand_faces(game, "ann") == faces("B1 B2 Y1 G4 R5")
    assert game.phase is Phase.DRAWN


def test_forced_play_plays_a_playable_drawn_card() -> None:
    """Forced play: a playable drawn card is played at once."""
    game = setup(
        {"ann": "B1 B2", "ben": "G1"}, top="R9", draw="R5", rules=RuleSet(forced_play=True)
    )
    game.apply("ann", DRAW)
    assert game.top_face() == parse_face("R5")
    assert game.current_player == "ben"


def test_forced_play_of_a_drawn_wild_asks_for_the_colour() -> None:
    """Forced play of a drawn Wild still lets its player name the colour."""
    game = setup({"ann": "B1 B2", "ben": "G1"}, top="R9", draw="W", rules=RuleSet(forced_play=True))
    game.apply("ann", DRAW)
    assert game.phase is Phase.CHOOSE_COLOR
    assert game.current_player == "ann"
