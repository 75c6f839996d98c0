"""No Mercy's words: its cards, its events and its refusal, in English and Finnish."""

from __future__ import annotations

from bot.engine import Color, RuleSet, view_for
from bot.engine import events as ev
from bot.engine.moves import ChooseColor
from bot.engine.notation import faces, parse_face, setup
from bot.ui import words
from bot.ui.i18n import Lang, t
from tests.engine import play
from tests.ui.games import name

EN, FI = Lang("en"), Lang("fi")
NM = RuleSet(variant="nomercy")


def test_the_new_cards_have_their_sheet_names() -> None:
    """Coloured Draw Four and Discard All, and the four wilds, in English and Finnish."""
    shown = [words.card_name(EN, face) for face in faces("R+4 GDA WR+4 W+6 W+10 WCR")]
    assert shown == [
        "Red Draw Four",
        "Green Discard All",
        "Wild Reverse Draw Four",
        "Wild Draw Six",
        "Wild Draw Ten",
        "Wild Colour Roulette",
    ]
    assert words.card_name(FI, parse_face("GDA")) == "vihreä heitä kaikki"
    assert words.card_label(FI, parse_face("GDA")) == "Vihreä heitä kaikki"


def test_a_knockout_and_a_roulette_are_narrated() -> None:
    """The Mercy rule's knockout and the Roulette's victim read in both languages."""
    batch: list[ev.Event] = [ev.RouletteColorAsked("p1"), ev.PlayerKnockedOut("p2", 25)]
    assert words.narrate(EN, batch, name) == [
        "Ben names a colour, then turns up cards until one of that colour shows.",
        "Cara holds 25 cards and is knocked out by the Mercy rule; the cards are set aside.",
    ]
    assert words.narrate(FI, batch, name)[1] == (
        "Cara pitää 25 korttia ja putoaa armosäännön vuoksi; kortit pannaan sivuun."
    )


def test_a_discard_all_and_the_ignored_opening_cards_are_narrated() -> None:
    """How many cards went with the Discard All, and how many were turned up first."""
    batch: list[ev.Event] = [
        ev.OpeningCardsIgnored(tuple(faces("W+10 RS"))),
        ev.CardsDiscarded("p0", tuple(faces("B1 B2 B3"))),
    ]
    assert words.narrate(EN, batch, name) == [
        "2 action cards turned up first stay under the starting card, without effect.",
        "Anna discarded 3 more cards of that colour.",
    ]


def test_the_stack_refusal_is_said_in_the_language() -> None:
    """The engine's stack sentence is recognised and keeps its value."""
    english = "Answer the stack first: take it, or stack a Draw Card of +6 or more."
    assert words.illegal_move_text(EN, english) == english
    assert words.illegal_move_text(FI, english) == t(
        FI, "illegal.penalty.stack_threshold", value="6"
    )


def test_the_hand_and_the_table_say_the_stack_and_its_threshold() -> None:
    """ "+8 on you: stack a Draw Card of +6 or more, or take 8." and the table's line."""
    game = setup({"p0": "R+2 R1 R2", "p1": "W+6 G4 G5", "p2": "W+10 Y1"}, top="R5", rules=NM)
    play(game, "p0", "R+2")
    play(game, "p1", "W+6")
    game.apply("p1", ChooseColor(Color.RED))
    view = view_for(game, "p2")
    assert words.hand_prompt(EN, view, name) == (
        "+8 on you: stack a Draw Card of +6 or more, or take 8."
    )
    assert words.turn_prompt(EN, view, name) == (
        "Cara faces a stack of +8: stack +6 or more, or take it."
    )


def test_a_hand_that_cannot_stack_is_told_to_take_it() -> None:
    """Nothing worth enough: the hand says so."""
    game = setup({"p0": "W+10 R1 R2", "p1": "G+2 G4", "p2": "Y1"}, top="R5", rules=NM)
    play(game, "p0", "W+10")
    game.apply("p0", ChooseColor(Color.RED))
    assert words.hand_prompt(EN, view_for(game, "p1"), name) == (
        "+10 on you: nothing in your hand is worth +10 or more, so take 10."
    )


def test_the_roulette_victim_is_told_what_happens() -> None:
    """The hand of the player a Roulette hit says they name the colour and keep the cards."""
    game = setup({"p0": "WCR R1 R2", "p1": "G4 G5", "p2": "Y1"}, top="R5", rules=NM)
    play(game, "p0", "WCR")
    assert words.hand_prompt(EN, view_for(game, "p1"), name).startswith(
        "A Wild Colour Roulette hit you: name a colour"
    )


def test_the_rules_summary_names_no_fixed_rule_as_a_house_rule() -> None:
    """No Mercy always draws until playable: the summary says one hand, and no house rules."""
    summary = words.rules_summary(EN, NM, 45, True).splitlines()
    assert summary[:2] == ["UNO Show 'Em No Mercy", "One hand is the game (no score kept)."]
    assert summary[-1] == t(EN, "summary.house.none")
    scored = RuleSet(variant="nomercy", scoring="standard")
    assert words.rules_summary(FI, scored, 45, True).splitlines()[1] == (
        "Peli 1\xa0000 pisteeseen, tavallinen pisteytys."
    )
