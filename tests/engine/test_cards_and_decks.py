"""The physical decks (RULES.md 2 and 3) and the card points tables."""

from __future__ import annotations

from collections import Counter
from importlib import resources

import pytest

from bot.engine import Face, Kind, RuleSet, Side
from bot.engine.cards import DARK_COLORS, LIGHT_COLORS
from bot.engine.decks import DeckError, deck_for, deck_of, parse_deck
from bot.engine.notation import parse_face
from bot.engine.rules import Edition
from bot.engine.scoring import face_points
from bot.engine.variants import CLASSIC, FLIP


def _packaged_csv() -> str:
    return resources.files("bot.engine").joinpath("data/uno_flip_deck.csv").read_text("utf-8")


def _kinds(faces: list[Face]) -> Counter[Kind]:
    return Counter(face.kind for face in faces)


def test_flip_deck_loads_112_cards_from_package_data() -> None:
    """The Flip deck comes from the packaged CSV and has 112 double-sided cards."""
    deck = deck_of(FLIP)
    assert len(deck) == 112
    assert all(card.dark is not None for card in deck)


def test_flip_light_side_has_the_gdr44_counts() -> None:
    """Light side: 72 numbers 1-9, 8 each of Draw One/Reverse/Skip/Flip, 4+4 wilds."""
    light = [card.face(Side.LIGHT) for card in deck_of(FLIP)]
    assert _kinds(light) == {
        Kind.NUMBER: 72,
        Kind.DRAW_ONE: 8,
        Kind.REVERSE: 8,
        Kind.SKIP: 8,
        Kind.FLIP: 8,
        Kind.WILD: 4,
        Kind.WILD_DRAW_TWO: 4,
    }
    assert {face.color for face in light if face.color} == set(LIGHT_COLORS)
    assert {face.number for face in light if face.kind is Kind.NUMBER} == set(range(1, 10))


def test_flip_dark_side_has_the_gdr44_counts() -> None:
    """Dark side: 72 numbers, 8 each of Draw Five/Reverse/Skip Everyone/Flip, 4+4 wilds."""
    dark = [card.face(Side.DARK) for card in deck_of(FLIP)]
    assert _kinds(dark) == {
        Kind.NUMBER: 72,
        Kind.DRAW_FIVE: 8,
        Kind.REVERSE: 8,
        Kind.SKIP_EVERYONE: 8,
        Kind.FLIP: 8,
        Kind.WILD: 4,
        Kind.WILD_DRAW_COLOR: 4,
    }
    assert {face.color for face in dark if face.color} == set(DARK_COLORS)


def test_corrupted_flip_csv_raises_deck_error() -> None:
    """A CSV with one face changed is not the real deck: DeckError names the side."""
    lines = _packaged_csv().splitlines()
    lines[1] = lines[1].replace("orange,number,4", "orange,number,5")
    with pytest.raises(DeckError, match=r"dark side"):
        parse_deck("\n".join(lines), FLIP.deck, "flip")


def test_flip_csv_with_a_missing_card_raises_deck_error() -> None:
    """A CSV with 111 cards raises DeckError with the count."""
    lines = _packaged_csv().splitlines()
    with pytest.raises(DeckError, match=r"112 cards, found 111"):
        parse_deck("\n".join(lines[:-1]), FLIP.deck, "flip")


def test_classic_deck_has_108_cards() -> None:
    """Classic: per colour one 0, two of 1-9, Skip, Reverse, Draw Two; 4 Wild, 4 WD4."""
    deck = deck_of(CLASSIC)
    faces = [card.light for card in deck]
    assert len(deck) == 108
    assert all(card.dark is None for card in deck)
    assert _kinds(faces) == {
        Kind.NUMBER: 76,
        Kind.SKIP: 8,
        Kind.REVERSE: 8,
        Kind.DRAW_TWO: 8,
        Kind.WILD: 4,
        Kind.WILD_DRAW_FOUR: 4,
    }
    assert Counter(faces)[parse_face("R0")] == 1
    assert Counter(faces)[parse_face("R7")] == 2


@pytest.mark.parametrize(
    ("edition", "special", "absent"),
    [
        ("shuffle_hands", Kind.WILD_SHUFFLE_HANDS, Kind.WILD_SWAP_HANDS),
        ("swap_hands", Kind.WILD_SWAP_HANDS, Kind.WILD_SHUFFLE_HANDS),
    ],
)
def test_112_card_editions_add_one_special_and_three_customizable_wilds(
    edition: Edition, special: Kind, absent: Kind
) -> None:
    """Each 112-card edition is the 108 plus its special wild and three Customizable wilds."""
    kinds = _kinds([card.light for card in deck_of(CLASSIC, edition)])
    assert sum(kinds.values()) == 112
    assert kinds[special] == 1
    assert kinds[Kind.WILD_CUSTOMIZABLE] == 3
    assert kinds[absent] == 0
    assert kinds[Kind.WILD] == kinds[Kind.WILD_DRAW_FOUR] == 4


def test_rule_set_picks_the_deck() -> None:
    """A RuleSet's variant and edition choose the physical deck."""
    assert deck_for(RuleSet()) is deck_of(FLIP)
    assert len(deck_for(RuleSet(variant="classic"))) == 108
    assert len(deck_for(RuleSet(variant="classic", edition="swap_hands"))) == 112


@pytest.mark.parametrize(
    ("token", "points"),
    [
        ("R7", 7),
        ("R+1", 10),
        ("T+5", 20),
        ("RR", 20),
        ("RS", 20),
        ("RF", 20),
        ("TSE", 30),
        ("W", 40),
        ("W+2", 50),
        ("W+C", 60),
    ],
)
def test_flip_card_points(token: str, points: int) -> None:
    """Flip points follow the GDR44 table."""
    assert face_points(parse_face(token), "flip") == points


@pytest.mark.parametrize(
    ("token", "points"),
    [
        ("B0", 0),
        ("B9", 9),
        ("B+2", 20),
        ("BR", 20),
        ("BS", 20),
        ("W", 50),
        ("W+4", 50),
        ("WSH", 40),
        ("WSW", 40),
        ("WCU", 40),
    ],
)
def test_classic_card_points(token: str, points: int) -> None:
    """Classic points: numbers face value, actions 20, Wild/WD4 50, special wilds 40."""
    assert face_points(parse_face(token), "classic") == points


def test_face_names_read_like_the_printed_card() -> None:
    """Faces name themselves as players say them."""
    assert parse_face("T+5").name() == "Teal Draw Five"
    assert parse_face("R5").name() == "Red 5"
    assert parse_face("W+C").name() == "Wild Draw Color"
