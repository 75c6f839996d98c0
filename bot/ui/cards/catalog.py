"""Every distinct picture the game can show, and a stable name for each."""

from __future__ import annotations

from functools import cache

from bot.engine.cards import Face, Kind, Side
from bot.engine.decks import classic_deck, flip_deck

from .draw import side_of


@cache
def all_faces() -> tuple[tuple[Face, Side], ...]:
    """Each distinct (face, side) of the classic decks (all editions) and both Flip sides."""
    seen: dict[tuple[Face, Side], None] = {}
    for edition in ("standard", "shuffle_hands", "swap_hands"):
        for card in classic_deck(edition):
            seen[(card.light, Side.LIGHT)] = None
    for card in flip_deck():
        seen[(card.light, Side.LIGHT)] = None
        if card.dark is not None:
            seen[(card.dark, Side.DARK)] = None
    return tuple(seen)


def face_name(face: Face, side: Side | None = None) -> str:
    """A short ASCII name such as ``red_5``, ``teal_skip_everyone`` or ``dark_wild``."""
    side = side_of(face, side)
    if face.color is None:
        prefix = "dark_" if face.kind is Kind.WILD and side is Side.DARK else ""
        return prefix + face.kind.value
    label = str(face.number) if face.kind is Kind.NUMBER else face.kind.value
    return f"{face.color.value}_{label}"
