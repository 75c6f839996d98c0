"""The physical decks: classic 108/112 and the 112-card Flip deck from package data."""

from __future__ import annotations

import csv
import io
from collections import Counter
from functools import cache
from importlib import resources

from .cards import DARK_COLORS, LIGHT_COLORS, Card, Color, Face, Kind, Side
from .rules import Edition, RuleSet


class DeckError(ValueError):
    """The packaged deck data does not describe a real deck."""


def _face(color: str, kind: str, number: str) -> Face:
    return Face(Color(color) if color else None, Kind(kind), int(number) if number else None)


def parse_flip_csv(text: str) -> tuple[Card, ...]:
    """Parse the light/dark pairing CSV into cards and verify it is the real Flip deck."""
    rows = list(csv.DictReader(io.StringIO(text)))
    cards = tuple(
        Card(
            _face(r["light_color"], r["light_kind"], r["light_number"]),
            _face(r["dark_color"], r["dark_kind"], r["dark_number"]),
        )
        for r in rows
    )
    verify_flip_deck(cards)
    return cards


def _expected_side(colors: tuple[Color, ...], actions: dict[Kind, int]) -> Counter[Face]:
    expected: Counter[Face] = Counter()
    for color in colors:
        for number in range(1, 10):
            expected[Face(color, Kind.NUMBER, number)] = 2
        for kind in (Kind.REVERSE, Kind.FLIP, *actions):
            if kind in actions and actions[kind] == 0:
                continue
            expected[Face(color, kind)] = 2
    return expected


def verify_flip_deck(cards: tuple[Card, ...]) -> None:
    """Raise DeckError unless ``cards`` has the 112 cards and per-side counts of GDR44."""
    if len(cards) != 112:
        raise DeckError(f"the Flip deck must have 112 cards, found {len(cards)}")
    light = _expected_side(LIGHT_COLORS, {Kind.DRAW_ONE: 2, Kind.SKIP: 2})
    light[Face(None, Kind.WILD)] = 4
    light[Face(None, Kind.WILD_DRAW_TWO)] = 4
    dark = _expected_side(DARK_COLORS, {Kind.DRAW_FIVE: 2, Kind.SKIP_EVERYONE: 2})
    dark[Face(None, Kind.WILD)] = 4
    dark[Face(None, Kind.WILD_DRAW_COLOR)] = 4
    for side_name, expected, seen in (
        ("light", light, Counter(c.light for c in cards)),
        ("dark", dark, Counter(c.face(Side.DARK) for c in cards)),
    ):
        if seen != expected:
            diff = (seen - expected) + (expected - seen)
            raise DeckError(f"the Flip deck's {side_name} side is wrong near {sorted(diff)[:3]}")


@cache
def flip_deck() -> tuple[Card, ...]:
    """The 112 Flip cards, loaded once from the packaged CSV and verified."""
    text = resources.files("bot.engine").joinpath("data/uno_flip_deck.csv").read_text("utf-8")
    return parse_flip_csv(text)


@cache
def classic_deck(edition: Edition = "standard") -> tuple[Card, ...]:
    """The 108-card classic deck, or a 112-card edition with its four special wilds."""
    faces: list[Face] = []
    for color in LIGHT_COLORS:
        faces.append(Face(color, Kind.NUMBER, 0))
        for _ in range(2):
            faces.extend(Face(color, Kind.NUMBER, n) for n in range(1, 10))
            faces.extend(Face(color, k) for k in (Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO))
    faces.extend([Face(None, Kind.WILD)] * 4 + [Face(None, Kind.WILD_DRAW_FOUR)] * 4)
    if edition != "standard":
        special = Kind.WILD_SHUFFLE_HANDS if edition == "shuffle_hands" else Kind.WILD_SWAP_HANDS
        faces.append(Face(None, special))
        faces.extend([Face(None, Kind.WILD_CUSTOMIZABLE)] * 3)
    return tuple(Card(face) for face in faces)


# UNO Show 'Em No Mercy's 168 cards (RULES-VARIANTS.md section 1.1): the community breakdown,
# as the sheet prints only the total. Per colour: two of each number 0-9 and these actions.
NO_MERCY_SIZE = 168
NO_MERCY_COLOR_ACTIONS: dict[Kind, int] = {
    Kind.DRAW_TWO: 3,
    Kind.DRAW_FOUR: 2,
    Kind.SKIP: 3,
    Kind.SKIP_EVERYONE: 2,
    Kind.REVERSE: 3,
    Kind.DISCARD_ALL: 3,
}
NO_MERCY_WILDS: dict[Kind, int] = {
    Kind.WILD_REVERSE_DRAW_FOUR: 8,
    Kind.WILD_DRAW_SIX: 4,
    Kind.WILD_DRAW_TEN: 4,
    Kind.WILD_COLOR_ROULETTE: 8,
}


def parse_counted_csv(text: str) -> tuple[Card, ...]:
    """Cards from a ``color,kind,number,count`` CSV: ``count`` copies of each row's face."""
    cards: list[Card] = []
    for row in csv.DictReader(io.StringIO(text)):
        count = int(row["count"])
        if count < 1:
            raise DeckError(f"a deck row needs a count of at least 1: {row}")
        cards.extend([Card(_face(row["color"], row["kind"], row["number"]))] * count)
    return tuple(cards)


def verify_no_mercy_deck(cards: tuple[Card, ...]) -> None:
    """Raise DeckError unless ``cards`` are the 168 No Mercy cards of the section 1.1 table."""
    expected: Counter[Face] = Counter()
    for color in LIGHT_COLORS:
        for number in range(10):
            expected[Face(color, Kind.NUMBER, number)] = 2
        for kind, count in NO_MERCY_COLOR_ACTIONS.items():
            expected[Face(color, kind)] = count
    for kind, count in NO_MERCY_WILDS.items():
        expected[Face(None, kind)] = count
    seen = Counter(card.light for card in cards)
    if len(cards) != NO_MERCY_SIZE or seen != expected:
        diff = (seen - expected) + (expected - seen)
        raise DeckError(
            f"the No Mercy deck must have {NO_MERCY_SIZE} cards as in its table, found "
            f"{len(cards)}, wrong near {sorted(diff)[:3]}"
        )


@cache
def no_mercy_deck() -> tuple[Card, ...]:
    """The 168 No Mercy cards, loaded once from the packaged CSV and verified."""
    text = resources.files("bot.engine").joinpath("data/uno_nomercy_deck.csv").read_text("utf-8")
    cards = parse_counted_csv(text)
    verify_no_mercy_deck(cards)
    return cards


def deck_for(rules: RuleSet) -> tuple[Card, ...]:
    """The physical deck a game with ``rules`` is played with."""
    if rules.variant == "nomercy":
        return no_mercy_deck()
    return flip_deck() if rules.variant == "flip" else classic_deck(rules.edition)
