"""The card colours of a side stay apart for colour-blind players (issue 31, item 8).

Deuteranopia and protanopia are simulated with Machado, Oliveira and Fernandes' matrices (2009,
severity 1.0, applied to linear RGB); the distance is CIE76 ΔE in CIELAB (D65). Both palettes
must keep every two colours of a side at least MIN_DELTA_E apart under normal vision and both
simulations.
"""

from __future__ import annotations

import itertools
import math

import pytest

from bot.engine.cards import Color
from bot.ui.cards import COLOR_BLIND, STANDARD, Palette

Matrix = tuple[tuple[float, float, float], ...]
NORMAL: Matrix = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
PROTANOPIA: Matrix = (
    (0.152286, 1.052583, -0.204868),
    (0.114503, 0.786281, 0.099216),
    (-0.003882, -0.048116, 1.051998),
)
DEUTERANOPIA: Matrix = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
SIDES = {
    "light": (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE),
    "dark": (Color.PINK, Color.TEAL, Color.ORANGE, Color.PURPLE),
}
# Well past a just-noticeable difference (about 2.3): two card colours told apart at a glance.
MIN_DELTA_E = 20.0


def linear(channel: int) -> float:
    """An sRGB channel (0-255) as linear light (0-1)."""
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def seen(rgb: tuple[int, int, int], matrix: Matrix) -> tuple[float, float, float]:
    """The colour as the simulated eye sees it, in linear RGB clipped to the gamut."""
    light = [linear(c) for c in rgb]
    return tuple(  # type: ignore[return-value]
        min(1.0, max(0.0, sum(row[j] * light[j] for j in range(3)))) for row in matrix
    )


def cielab(light: tuple[float, float, float]) -> tuple[float, float, float]:
    """Linear sRGB as CIELAB (D65 white)."""
    r, g, b = light
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def closest_pair(palette: Palette, side: str, matrix: Matrix) -> tuple[float, str]:
    """The smallest ΔE between two colours of a side as ``matrix`` sees them, and which."""
    labs = {color: cielab(seen(palette.fill(color), matrix)) for color in SIDES[side]}
    return min(
        (math.dist(labs[a], labs[b]), f"{a.value}/{b.value}")
        for a, b in itertools.combinations(SIDES[side], 2)
    )


@pytest.mark.parametrize("palette", [STANDARD, COLOR_BLIND], ids=lambda p: p.key)
@pytest.mark.parametrize("side", sorted(SIDES))
@pytest.mark.parametrize(
    "vision",
    [NORMAL, DEUTERANOPIA, PROTANOPIA],
    ids=["normal", "deuteranopia", "protanopia"],
)
def test_the_colours_of_a_side_stay_apart(palette: Palette, side: str, vision: Matrix) -> None:
    """Every two colours of a side are at least MIN_DELTA_E apart as this eye sees them."""
    distance, pair = closest_pair(palette, side, vision)
    assert distance >= MIN_DELTA_E, pair


def test_the_simulation_finds_the_collision_it_was_written_for() -> None:
    """UNO Flip's printed pink and teal (the standard palette before) are one grey to a
    deuteranope: the measure sees it."""
    before = Palette(
        "before", {**STANDARD.fills, Color.PINK: (230, 70, 150), Color.TEAL: (0, 160, 160)}
    )
    distance, pair = closest_pair(before, "dark", DEUTERANOPIA)
    assert distance < MIN_DELTA_E and pair == "pink/teal"
