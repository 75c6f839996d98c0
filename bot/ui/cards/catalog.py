"""Every distinct picture the game can show, and a stable name for each."""

from __future__ import annotations

from functools import cache

from bot.engine.cards import Face, Kind, Side
from bot.engine.decks import all_cards
from bot.engine.variants import VARIANTS

from .draw import Family, side_of


@cache
def all_faces() -> tuple[tuple[Face, Side], ...]:
    """Each distinct (face, side) of every variant's deck file (all its editions, both sides)."""
    seen: dict[tuple[Face, Side], None] = {}
    for entry in VARIANTS.values():
        for card in all_cards(entry):
            for side in Side:
                if side is Side.LIGHT or card.dark is not None:
                    seen[(card.face(side), side)] = None
    return tuple(seen)


@cache
def all_family_faces() -> tuple[tuple[Face, Side, Family], ...]:
    """Each distinct picture of a face: every (face, side) of every variant's deck, in the
    family of faces its variant shows (a red 5 of No Mercy is not a classic red 5)."""
    seen: dict[tuple[Face, Side, Family], None] = {}
    for entry in VARIANTS.values():
        family = Family(entry.art).faces
        for card in all_cards(entry):
            for side in Side:
                if side is Side.LIGHT or card.dark is not None:
                    seen[(card.face(side), side, family)] = None
    return tuple(seen)


def face_name(face: Face, side: Side | None = None, family: Family = Family.CLASSIC) -> str:
    """A short ASCII name such as ``red_5``, ``teal_skip_everyone``, ``dark_wild`` or, for a
    family with faces of its own, ``nm_red_5``."""
    side = side_of(face, side)
    if face.color is None:
        prefix = "dark_" if face.kind is Kind.WILD and side is Side.DARK else ""
        return family.prefix + prefix + face.kind.value
    label = str(face.number) if face.kind is Kind.NUMBER else face.kind.value
    return f"{family.prefix}{face.color.value}_{label}"
