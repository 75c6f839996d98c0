"""RULES.md section 3: classic UNO's starting cards, action cards and special wilds."""

from __future__ import annotations

import pytest

from bot.engine import Color, Game, Phase, RuleSet
from bot.engine.events import (
    DirectionChanged,
    HandsShuffled,
    HandsSwapped,
    RoundEnded,
    RoundStarted,
    TurnSkipped,
)
from bot.engine.moves import ACCEPT, CHALLENGE, DRAW, ChooseColor, PlayCard, SwapWith
from bot.engine.notation import faces, parse_face, setup

from . import card, dealt_with, of_type, play

CLASSIC = RuleSet(variant="classic")
SHUFFLE_EDITION = RuleSet(variant="classic", edition="shuffle_hands")
SWAP_EDITION = RuleSet(variant="classic", edition="swap_hands")

# ------------------------------------------------------------------ starting cards


def test_starting_draw_two_makes_the_first_player_draw_two_and_skips_them() -> None:
    """Draw Two turned up: the player left of the dealer draws 2 and is skipped."""
    game, out = dealt_with("R+2", CLASSIC)
    assert len(game.hand("ben")) == 9
    assert TurnSkipped("ben") in out
    assert game.current_player == "cid"


def test_starting_reverse_lets_the_dealer_start_to_the_right() -> None:
    """Reverse turned up: the dealer plays first and play goes to the right."""
    game, out = dealt_with("BR", CLASSIC, dealer=1)
    assert DirectionChanged(-1) in out
    assert game.current_player == "ben"
    assert game.direction == -1


def test_starting_skip_skips_the_first_player() -> None:
    """Skip turned up: the player left of the dealer is skipped."""
    game, out = dealt_with("GS", CLASSIC)
    assert TurnSkipped("ben") in out
    assert game.current_player == "cid"


@pytest.mark.parametrize(
    ("token", "rules"),
    [("W", CLASSIC), ("WSH", SHUFFLE_EDITION), ("WSW", SWAP_EDITION), ("WCU", SWAP_EDITION)],
)
def test_starting_wild_lets_the_first_player_name_the_colour(token: str, rules: RuleSet) -> None:
    """Any plain or special wild turned up: the first player names the colour, then plays."""
    game, _ = dealt_with(token, rules)
    hands_before = [list(hand) for hand in game.hands]
    assert game.phase is Phase.CHOOSE_COLOR
    assert game.current_player == "ben"
    game.apply("ben", ChooseColor(Color.RED))
    assert game.current_player == "ben"
    assert DRAW in game.legal_moves("ben")
    assert game.hands == hands_before


def test_starting_wild_draw_four_is_put_back_and_another_turned() -> None:
    """Wild Draw Four turned up is shuffled back and the next card starts instead."""
    game, out = dealt_with("W+4 Y6", CLASSIC)
    (started,) = of_type(out, RoundStarted)
    assert started.starter == parse_face("Y6")
    assert started.reshuffled_starters == 1
    assert game.current_player == "ben"


# ------------------------------------------------------------------ action cards


def test_draw_two_makes_the_next_player_draw_two_and_lose_the_turn() -> None:
    """Draw Two: the next player draws 2 at once and is skipped."""
    game = setup({"ann": "R+2 B2", "ben": "G3 Y4", "cid": "B5 B6"}, top="R9", rules=CLASSIC)
    out = play(game, "ann", "R+2")
    assert len(game.hand("ben")) == 4
    assert TurnSkipped("ben") in out
    assert game.current_player == "cid"


def test_zero_matches_zero() -> None:
    """A blue 0 may be played on a red 0."""
    game = setup({"ann": "B0 B2", "ben": "G3"}, top="R0", rules=CLASSIC)
    assert PlayCard(card(game, "ann", "B0")) in game.legal_moves("ann")


def test_two_player_reverse_acts_as_skip() -> None:
    """With two players a Reverse brings the turn straight back to its player."""
    game = setup({"ann": "RR B2", "ben": "G3 Y4"}, top="R9", rules=CLASSIC)
    out = play(game, "ann", "RR")
    assert TurnSkipped("ben") in out
    assert game.current_player == "ann"


def test_two_player_draw_two_brings_the_turn_back() -> None:
    """With two players a Draw Two makes the other draw and returns the turn."""
    game = setup({"ann": "R+2 B2", "ben": "G3 Y4"}, top="R9", rules=CLASSIC)
    play(game, "ann", "R+2")
    assert len(game.hand("ben")) == 4
    assert game.current_player == "ann"


# ------------------------------------------------------------------ Wild Draw Four


def _challenged_wild_draw_four(hand: str) -> Game:
    """ann played a Wild Draw Four naming blue on red; ben challenged it."""
    game = setup({"ann": hand, "ben": "Y3 Y4", "cid": "G7 G8"}, top="R9", rules=CLASSIC)
    play(game, "ann", "W+4")
    game.apply("ann", ChooseColor(Color.BLUE))
    game.apply("ben", CHALLENGE)
    return game


def test_guilty_wild_draw_four_draws_four() -> None:
    """A challenged Wild Draw Four played while holding red: its player draws 4."""
    game = _challenged_wild_draw_four("R2 W+4 B5")
    assert len(game.hand("ann")) == 6
    assert len(game.hand("ben")) == 2
    assert game.current_player == "ben"


def test_innocent_wild_draw_four_makes_the_challenger_draw_six() -> None:
    """A fair Wild Draw Four challenged: the challenger draws 6 and loses the turn."""
    game = _challenged_wild_draw_four("Y2 W+4 B5")
    assert len(game.hand("ann")) == 2
    assert len(game.hand("ben")) == 8
    assert game.current_player == "cid"


def test_accepted_wild_draw_four_draws_four() -> None:
    """An accepted Wild Draw Four: the victim draws 4 and is skipped."""
    game = setup({"ann": "W+4 B5", "ben": "Y3 Y4", "cid": "G7"}, top="R9", rules=CLASSIC)
    play(game, "ann", "W+4")
    game.apply("ann", ChooseColor(Color.BLUE))
    game.apply("ben", ACCEPT)
    assert len(game.hand("ben")) == 6
    assert game.current_player == "cid"


# ------------------------------------------------------------------ special wilds


def test_shuffle_hands_deals_all_hands_out_evenly_from_the_left() -> None:
    """Shuffle Hands collects every hand and deals them out starting left of its player."""
    game = setup(
        {"ann": "WSH R1 R2", "ben": "G3 G4 G5", "cid": "B5 B6 B7 B8"},
        top="R9",
        rules=SHUFFLE_EDITION,
    )
    pool = sorted(c for hand in game.hands for c in hand if c != card(game, "ann", "WSH"))
    out = play(game, "ann", "WSH")
    assert of_type(out, HandsShuffled) == [HandsShuffled("ann", "ben")]
    assert sorted(c for hand in game.hands for c in hand) == pool
    assert [len(game.hand(p)) for p in ("ann", "ben", "cid")] == [3, 3, 3]


def test_shuffle_hands_player_names_the_colour() -> None:
    """After the shuffle its player names the colour and the next player is on turn."""
    game = setup({"ann": "WSH R1", "ben": "G3 G4", "cid": "B5"}, top="R9", rules=SHUFFLE_EDITION)
    play(game, "ann", "WSH")
    assert game.phase is Phase.CHOOSE_COLOR
    game.apply("ann", ChooseColor(Color.GREEN))
    assert game.current_player == "ben"


def test_shuffle_hands_as_last_card_keeps_the_round_going() -> None:
    """Going out with Shuffle Hands: the player is dealt cards again and the round goes on."""
    game = setup(
        {"ann": "WSH", "ben": "G3 G4 G5", "cid": "B5 B6 B7"}, top="R9", rules=SHUFFLE_EDITION
    )
    out = play(game, "ann", "WSH")
    assert not of_type(out, RoundEnded)
    assert len(game.hand("ann")) == 2
    game.apply("ann", ChooseColor(Color.BLUE))
    assert game.current_player == "ben"


def test_swap_hands_swaps_with_the_chosen_player_then_names_the_colour() -> None:
    """Swap Hands: choose a player, swap hands with them, then name a colour."""
    game = setup({"ann": "WSW R1", "ben": "G3 G4", "cid": "B5 B6 B7"}, top="R9", rules=SWAP_EDITION)
    cid_hand = game.hand("cid")
    play(game, "ann", "WSW")
    assert game.phase is Phase.SWAP_TARGET
    assert set(game.legal_moves("ann")) >= {SwapWith("ben"), SwapWith("cid")}
    out = game.apply("ann", SwapWith("cid"))
    assert HandsSwapped("ann", "cid") in out
    assert game.hand("ann") == cid_hand
    assert [game.face(c) for c in game.hand("cid")] == faces("R1")
    assert ChooseColor(Color.BLUE) in game.legal_moves("ann")
    game.apply("ann", ChooseColor(Color.BLUE))
    assert game.current_player == "ben"


def test_customizable_wild_plays_as_a_plain_wild() -> None:
    """Wild Customizable: name a colour, the next player is on turn, nothing else."""
    game = setup({"ann": "WCU R1", "ben": "G3 G4"}, top="R9", rules=SWAP_EDITION)
    hands = [list(hand) for hand in game.hands]
    play(game, "ann", "WCU")
    game.apply("ann", ChooseColor(Color.GREEN))
    assert game.current_player == "ben"
    assert game.hands == [[card(game, "ann", "R1")], hands[1]]


def test_going_out_with_swap_hands_ends_the_round_without_a_swap() -> None:
    """Swap Hands as the last card ends the round; nobody's hand changes."""
    game = setup({"ann": "WSW", "ben": "G3 G4"}, top="R9", rules=SWAP_EDITION)
    out = play(game, "ann", "WSW")
    assert of_type(out, RoundEnded)
    assert not of_type(out, HandsSwapped)
    assert len(game.hand("ben")) == 2
