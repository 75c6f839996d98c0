"""Every distinct picture the game can show, and a stable name for each."""

from __future__ import annotations

from functools import cache

from bot.engine.cards import Face, Kind, Side
from bot.engine.decks import all_cards
from bot.engine.variants import VARIANTS

from .draw import side_of


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


def face_name(face: Face, side: Side | None = None) -> str:
    """A short ASCII name such as ``red_5``, ``teal_skip_everyone`` or ``dark_wild``."""
    side = side_of(face, side)
    if face.color is None:
        prefix = "dark_" if face.kind is Kind.WILD and side is Side.DARK else ""
        return prefix + face.kind.value
    label = str(face.number) if face.kind is Kind.NUMBER else face.kind.value
    return f"{face.color.value}_{label}"
