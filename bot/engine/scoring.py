"""Card points and round scoring (standard and alternative)."""

from __future__ import annotations

from collections.abc import Iterable

from .cards import CLASSIC_WILD_POINTS, FLIP_WILD_POINTS, POINTS, Face, Kind
from .rules import Variant

NO_MERCY_COLOR_ACTION_POINTS = 20
NO_MERCY_WILD_POINTS = 50
# The No Mercy hand's winner also scores this for each player knocked out during the hand.
NO_MERCY_KNOCKOUT_BONUS = 250


def face_points(face: Face, variant: Variant) -> int:
    """Points a face left in a hand is worth at the end of a round."""
    if face.kind is Kind.NUMBER:
        return face.number or 0
    if variant == "nomercy":
        # RULES-VARIANTS.md section 1.10: every colour action 20, every wild action 50.
        return NO_MERCY_COLOR_ACTION_POINTS if face.color is not None else NO_MERCY_WILD_POINTS
    wild_points = FLIP_WILD_POINTS if variant == "flip" else CLASSIC_WILD_POINTS
    if face.kind in wild_points:
        return wild_points[face.kind]
    return POINTS[face.kind]


def hand_points(faces: Iterable[Face], variant: Variant) -> int:
    """The points of a whole hand on the side it is scored on."""
    return sum(face_points(face, variant) for face in faces)
