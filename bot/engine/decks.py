"""The physical decks: each variant's data file, parsed and checked against its spec at load."""

from __future__ import annotations

import csv
from collections import Counter
from functools import cache
from importlib import resources

from .cards import Card, Color, Face, Kind, Side
from .rules import RuleSet
from .variants import WHOLE_DECK, DeckSpec, Variant, variant


class DeckError(ValueError):
    """The packaged deck data does not describe a real deck."""


# Which side's columns a face is read from, in the deck file's header.
_SIDE_PREFIXES = ("light", "dark")


def _face(row: dict[str, str], prefix: str) -> Face:
    color, number = row[f"{prefix}_color"], row[f"{prefix}_number"]
    return Face(
        Color(color) if color else None,
        Kind(row[f"{prefix}_kind"]),
        int(number) if number else None,
    )


def parse_deck(text: str, spec: DeckSpec, name: str) -> tuple[tuple[Card, frozenset[str]], ...]:
    """Every card of a deck file with the decks it belongs to (empty: all), checked against
    ``spec``; ``name`` names the deck in a DeckError."""
    rows: list[tuple[Card, frozenset[str]]] = []
    # Lines starting with "#" are the file's notes (where its counts come from), not cards.
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    for row in csv.DictReader(lines):
        faces = [_face(row, prefix) for prefix in _SIDE_PREFIXES[: spec.sides]]
        card = Card(faces[0], faces[1] if len(faces) > 1 else None)
        decks = frozenset((row.get("decks") or "").split())
        rows.extend([(card, decks)] * int(row.get("count") or 1))
    _verify(tuple(card for card, _ in rows), spec, name)
    for choice, size in spec.sizes.items():
        found = sum(1 for _, decks in rows if _holds(decks, choice))
        if found != size:
            raise DeckError(f"the {name} deck {choice!r} must have {size} cards, found {found}")
    return tuple(rows)


def _holds(decks: frozenset[str], choice: str) -> bool:
    return not decks or choice in decks


def _verify(cards: tuple[Card, ...], spec: DeckSpec, name: str) -> None:
    expected = sum(spec.composition[0].values())
    if len(cards) != expected:
        raise DeckError(f"the {name} deck must have {expected} cards, found {len(cards)}")
    for side, composition in enumerate(spec.composition):
        seen = Counter(card.face(Side(side)) for card in cards)
        if seen != Counter(composition):
            diff = (seen - Counter(composition)) + (Counter(composition) - seen)
            where = _SIDE_PREFIXES[side] if spec.sides > 1 else "light"
            raise DeckError(f"the {name} deck's {where} side is wrong near {sorted(diff)[:3]}")


@cache
def _deck_file(entry: Variant) -> tuple[tuple[Card, frozenset[str]], ...]:
    text = resources.files("bot.engine").joinpath(f"data/{entry.deck.file}").read_text("utf-8")
    return parse_deck(text, entry.deck, entry.key)


def all_cards(entry: Variant) -> tuple[Card, ...]:
    """Every card of ``entry``'s deck file, whichever deck an option chooses from it."""
    return tuple(card for card, _ in _deck_file(entry))


def deck_of(entry: Variant, choice: str = WHOLE_DECK) -> tuple[Card, ...]:
    """The cards of ``entry``'s deck (``choice``: the value of its ``chosen_by`` option; any
    other value, its first deck), loaded once from its data file and checked."""
    return _deck(entry, choice if choice in entry.deck.sizes else next(iter(entry.deck.sizes)))


@cache
def _deck(entry: Variant, choice: str) -> tuple[Card, ...]:
    # One tuple per deck, so games share it (and the tables built for it) by identity.
    return tuple(card for card, decks in _deck_file(entry) if _holds(decks, choice))


def deck_for(rules: RuleSet) -> tuple[Card, ...]:
    """The physical deck a game with ``rules`` is played with."""
    entry = variant(rules.variant)
    chosen_by = entry.deck.chosen_by
    return deck_of(entry, WHOLE_DECK if chosen_by is None else str(getattr(rules, chosen_by)))
