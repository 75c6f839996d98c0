"""The variant registry: every entry's deck, points and options hold together."""

from __future__ import annotations

from dataclasses import replace

import pytest
from pydantic import ValidationError

from bot.engine import Face, Kind, RuleSet, Side
from bot.engine.cards import Color
from bot.engine.decks import DeckError, all_cards, deck_of, parse_deck
from bot.engine.variants import (
    CLASSIC,
    FLIP,
    VARIANTS,
    WHOLE_DECK,
    DeckSpec,
    RuleOption,
    UnknownVariant,
    Variant,
    variant,
)

ENTRIES = list(VARIANTS.values())


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.key)
def test_every_deck_an_option_chooses_loads_at_its_size(entry: Variant) -> None:
    """Each deck chosen from a variant's data file has the size its spec declares."""
    for choice, size in entry.deck.sizes.items():
        assert len(deck_of(entry, choice)) == size


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.key)
def test_every_kind_in_a_deck_has_points(entry: Variant) -> None:
    """The points table covers every non-number kind the deck file holds."""
    kinds = {card.face(Side(s)).kind for card in all_cards(entry) for s in range(entry.deck.sides)}
    assert kinds == entry.kinds
    assert kinds - {Kind.NUMBER} <= set(entry.points)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.key)
def test_colors_are_the_decks_colours_per_side(entry: Variant) -> None:
    """A variant's colours per side are exactly the colours its cards show on that side."""
    for side, colors in enumerate(entry.colors):
        shown = {card.face(Side(side)).color for card in all_cards(entry)} - {None}
        assert shown == set(colors)
    assert len(entry.colors) == entry.deck.sides


def test_an_entry_without_points_for_a_kind_is_refused() -> None:
    """A Variant whose points table misses a kind of its deck fails when it is made."""
    with pytest.raises(ValueError, match="no points for"):
        replace(CLASSIC, key="broken", points={Kind.SKIP: 20})


def test_keys_and_commands_are_unique() -> None:
    """No two variants share a key or a slash subcommand."""
    assert [e.key for e in ENTRIES] == list(VARIANTS)
    assert len({e.command for e in ENTRIES}) == len(ENTRIES)


def test_an_unknown_key_is_refused() -> None:
    """variant() raises UnknownVariant and RuleSet refuses the key."""
    with pytest.raises(UnknownVariant):
        variant("dos")
    with pytest.raises(ValidationError, match="no such variant"):
        RuleSet(variant="dos")


def test_flip_does_not_offer_the_classic_only_options() -> None:
    """Flip fixes Seven-O, the edition and Wild Draw Four stacking; classic offers them all."""
    for option in ("seven_o", "edition", "stack_wild_draw_four_on_draw_two"):
        assert not FLIP.offers(option)
        assert CLASSIC.offers(option)
    assert FLIP.offers("stacking")


def test_a_variant_default_fills_an_option_not_given(monkeypatch: pytest.MonkeyPatch) -> None:
    """A variant's target and option defaults apply when the RuleSet does not name them."""
    long = replace(
        CLASSIC,
        key="long",
        command="long",
        target=1000,
        rule_options={"stacking": RuleOption(True)},
    )
    monkeypatch.setitem(VARIANTS, "long", long)
    rules = RuleSet(variant="long")
    assert (rules.target, rules.stacking) == (1000, True)
    assert RuleSet(variant="long", target=200, stacking=False).target == 200


def test_default_names_the_entrys_default_or_the_fallback() -> None:
    """default() gives an option's default in this variant, else RuleSet's own."""
    assert FLIP.default("seven_o", True) is False
    assert FLIP.default("stacking", True) is True


def test_a_refused_value_fails_with_the_entrys_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    """An option outside the entry's allowed values fails RuleSet validation with its refusal."""
    strict = replace(
        CLASSIC,
        key="strict",
        command="strict",
        rule_options={"jump_in": RuleOption(False, (False,), "no jumping in here")},
    )
    monkeypatch.setitem(VARIANTS, "strict", strict)
    with pytest.raises(ValidationError, match="no jumping in here"):
        RuleSet(variant="strict", jump_in=True)


SMALL = DeckSpec(
    file="unused.csv",
    composition=({Face(Color.RED, Kind.NUMBER, 1): 3, Face(None, Kind.WILD): 2},),
    chosen_by="edition",
    sizes={"standard": 3, "big": 5},
)


def test_a_deck_file_may_count_rows_and_tag_decks() -> None:
    """``count`` repeats a row and ``decks`` keeps it to the decks an option names."""
    text = "light_color,light_kind,light_number,count,decks\nred,number,1,3,\n,wild,,2,big\n"
    rows = parse_deck(text, SMALL, "small")
    assert [card.light for card, _ in rows].count(Face(None, Kind.WILD)) == 2
    assert {decks for _, decks in rows} == {frozenset(), frozenset({"big"})}


def test_a_deck_whose_choice_has_the_wrong_size_is_refused() -> None:
    """A chosen deck with more or fewer cards than its spec says raises DeckError."""
    text = "light_color,light_kind,light_number,count,decks\nred,number,1,3,\n,wild,,2,\n"
    with pytest.raises(DeckError, match="'standard' must have 3 cards, found 5"):
        parse_deck(text, SMALL, "small")


def test_the_whole_deck_key_names_a_deck_no_option_chooses() -> None:
    """Flip's one deck is the whole file, whatever edition value is asked for."""
    assert FLIP.deck.chosen_by is None
    assert deck_of(FLIP, WHOLE_DECK) is deck_of(FLIP, "standard")
