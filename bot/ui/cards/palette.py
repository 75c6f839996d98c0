"""Colours and their colour-free cue (a shape per colour) for the card art; the colour's word
is printed from the caller's CardWords."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.engine.cards import Color

RGB = tuple[int, int, int]


class Shape(StrEnum):
    """The shape that stands for a colour, so a card never depends on colour vision alone."""

    CIRCLE = "circle"
    TRIANGLE = "triangle"
    SQUARE = "square"
    DIAMOND = "diamond"
    HEART = "heart"
    CROSS = "cross"
    STAR = "star"
    CRESCENT = "crescent"


# One shape per colour, the same in every palette: a player who learns "triangle is yellow"
# keeps that knowledge when switching palettes.
SHAPES: dict[Color, Shape] = {
    Color.RED: Shape.CIRCLE,
    Color.YELLOW: Shape.TRIANGLE,
    Color.GREEN: Shape.SQUARE,
    Color.BLUE: Shape.DIAMOND,
    Color.PINK: Shape.HEART,
    Color.TEAL: Shape.CROSS,
    Color.ORANGE: Shape.STAR,
    Color.PURPLE: Shape.CRESCENT,
}


@dataclass(frozen=True, slots=True)
class Palette:
    """Fill colours for the eight card colours; ``key`` names it in cache keys and emoji."""

    key: str
    fills: dict[Color, RGB]

    def fill(self, color: Color) -> RGB:
        """The fill of ``color`` in this palette."""
        return self.fills[color]

    def __hash__(self) -> int:
        return hash(self.key)


STANDARD = Palette(
    "std",
    {
        Color.RED: (214, 40, 40),
        Color.YELLOW: (242, 196, 15),
        Color.GREEN: (46, 150, 70),
        Color.BLUE: (20, 95, 200),
        # Deeper pink and bluer teal than UNO Flip's print: under simulated deuteranopia the
        # print's pink and teal were the same grey (ΔE 12); these stay over 20 apart.
        Color.PINK: (230, 60, 140),
        Color.TEAL: (0, 170, 180),
        Color.ORANGE: (240, 120, 20),
        Color.PURPLE: (120, 60, 180),
    },
)

# Okabe & Ito's palette for colour-vision deficiencies (vermillion, yellow, bluish green, blue;
# reddish purple, sky blue, orange), plus a dark violet for purple, which it lacks. Within a side
# the four colours stay apart in hue as a deuteranope or protanope sees them (every two at least
# ΔE 20 in CIELAB, tests/ui/test_colour_vision.py), not in lightness alone: orange and sky blue
# are both about L70, vermillion and bluish green L54 and L58. The shape on every card is the cue
# that needs no colour vision at all.
COLOR_BLIND = Palette(
    "cb",
    {
        Color.RED: (213, 94, 0),
        Color.YELLOW: (240, 228, 66),
        Color.GREEN: (0, 158, 115),
        Color.BLUE: (0, 114, 178),
        Color.PINK: (204, 121, 167),
        Color.TEAL: (86, 180, 233),
        Color.ORANGE: (230, 159, 0),
        Color.PURPLE: (80, 45, 140),
    },
)

PALETTES: dict[str, Palette] = {p.key: p for p in (STANDARD, COLOR_BLIND)}

INK: RGB = (24, 24, 28)
WHITE: RGB = (255, 255, 255)
LIGHT_FRAME: RGB = (250, 250, 247)
DARK_FRAME: RGB = (20, 20, 26)
WILD_FIELD: RGB = (36, 36, 44)
# No Mercy's frame: the sheet's black with a red line (the same in both palettes: no card
# colour is told by it).
NO_MERCY_BLACK: RGB = (14, 14, 16)
NO_MERCY_RED: RGB = (206, 18, 32)
# Junior's frame and back: cream with a gold edge, a sky-blue back.
JUNIOR_FRAME: RGB = (255, 246, 222)
JUNIOR_EDGE: RGB = (236, 170, 40)
JUNIOR_SKY: RGB = (96, 178, 232)
