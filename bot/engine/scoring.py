"""Card points and round scoring (standard and alternative), from each variant's points table."""

from __future__ import annotations

from collections.abc import Iterable

from .cards import Face
from .variants import variant as variant_entry


def face_points(face: Face, variant: str) -> int:
    """Points a face left in a hand of a ``variant`` game is worth at the end of a round."""
    return variant_entry(variant).face_points(face)


def hand_points(faces: Iterable[Face], variant: str) -> int:
    """The points of a whole hand on the side it is scored on."""
    entry = variant_entry(variant)
    return sum(entry.face_points(face) for face in faces)
