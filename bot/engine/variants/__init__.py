"""The variants of UNO this bot plays, as entries of one registry.

A variant must provide (see ``spec.Variant`` and docs/architecture.md, "Adding a variant"):

- a module here defining one ``Variant`` and a line in ``VARIANTS`` below;
- a deck data file in ``bot/engine/data`` and its ``DeckSpec``: the composition table the file
  is checked against at load, and the size of each deck an option chooses from it;
- its colours per side, its points table (every non-number kind in the deck), its player range,
  hand size and default target;
- its ``rule_options``: the RuleSet fields whose default or allowed values differ, with the
  sentence that refuses a wrong value (RuleSet validation reads them; nothing else does);
- its slash subcommand name and English description, its card-art family, and the catalog keys
  of ``VariantWords`` in all four languages (plus ``cmd.uno.<command>.name/.description``).

Nothing else names a variant: the engine, the AI, the UI and the store read these fields.
New kinds of card also need their effect in ``game.py``, their notation, words and art.
"""

from __future__ import annotations

from .allwild import ALL_WILD
from .classic import CLASSIC
from .flip import FLIP
from .junior import JUNIOR
from .nomercy import NO_MERCY
from .spec import WHOLE_DECK, DeckSpec, RuleOption, Variant, VariantWords, each_color

# A key of VARIANTS, as RuleSet.variant, saved games and the store hold it.
VariantKey = str

# Every variant by key, in the order menus list them (the first is the default).
VARIANTS: dict[str, Variant] = {
    entry.key: entry for entry in (FLIP, CLASSIC, NO_MERCY, ALL_WILD, JUNIOR)
}
DEFAULT_VARIANT = next(iter(VARIANTS))


class UnknownVariant(KeyError):
    """A key that names no registered variant (an old or hand-edited save, a bad option)."""


def variant(key: str) -> Variant:
    """The registered variant ``key`` ("flip", "classic", ...); UnknownVariant otherwise."""
    try:
        return VARIANTS[key]
    except KeyError:
        raise UnknownVariant(key) from None


__all__ = [
    "ALL_WILD",
    "CLASSIC",
    "DEFAULT_VARIANT",
    "FLIP",
    "JUNIOR",
    "NO_MERCY",
    "VARIANTS",
    "WHOLE_DECK",
    "DeckSpec",
    "RuleOption",
    "UnknownVariant",
    "Variant",
    "VariantKey",
    "VariantWords",
    "each_color",
    "variant",
]
