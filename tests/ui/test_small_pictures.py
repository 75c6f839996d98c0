"""Pictures shown small (issue 31, item 7): emoji at 22 px, the hand's top card, the README's."""

from __future__ import annotations

import inspect

import pytest
from PIL import Image

from bot.engine.cards import Color, Face, Kind, Side
from bot.ui.cards import STANDARD, Family, draw_emoji
from bot.ui.cards.preview import hand_strip

EMOJI_PX = 22  # the size Discord shows a button's emoji at
# The share of the emoji's width its white sign spans, at least (the emoji before issue 31:
# 0.14 for "+1", 0.32 for "+2", "+5" and "+4"; now 0.5 to 0.55).
SIGN_SPAN = 0.45


def light(image: Image.Image, x: int, y: int) -> bool:
    """Whether a pixel is part of a white sign (lighter than any card colour's field)."""
    return int(image.getpixel((x, y)) or 0) > 205  # type: ignore[arg-type]


def sign_span(face: Face, side: Side | None, family: Family = Family.CLASSIC) -> float:
    """How much of the emoji's width its white sign spans at 22 px."""
    emoji = draw_emoji(face, side, STANDARD, 128, family)
    small = emoji.convert("L").resize((EMOJI_PX, EMOJI_PX), Image.Resampling.LANCZOS)
    inside = range(3, EMOJI_PX - 3)  # within the frame
    white = [x for x in inside for y in inside if light(small, x, y)]
    return (max(white) - min(white) + 1) / EMOJI_PX if white else 0.0


@pytest.mark.parametrize(
    ("face", "side"),
    [
        (Face(Color.BLUE, Kind.DRAW_ONE), Side.LIGHT),
        (Face(Color.GREEN, Kind.DRAW_TWO), None),
        (Face(Color.PINK, Kind.DRAW_FIVE), Side.DARK),
        (Face(None, Kind.WILD_DRAW_FOUR), None),
        (Face(None, Kind.WILD_DRAW_TWO), Side.DARK),
    ],
)
def test_an_emojis_sign_spans_most_of_it_at_22_px(face: Face, side: Side | None) -> None:
    """ "+1", "+2", "+5", the skip marks and the wild signs fill most of the 22 px emoji."""
    assert sign_span(face, side) >= SIGN_SPAN


@pytest.mark.parametrize("family", [Family.NO_MERCY, Family.JUNIOR])
@pytest.mark.parametrize(
    "face",
    [
        Face(Color.RED, Kind.DRAW_TWO),
        Face(Color.BLUE, Kind.SKIP),
        Face(None, Kind.WILD_DRAW_FOUR),
    ],
)
def test_a_familys_emoji_sign_spans_most_of_it_at_22_px(face: Face, family: Family) -> None:
    """No Mercy's thicker frame and Junior's animal leave the sign as big at 22 px."""
    assert sign_span(face, None, family) >= SIGN_SPAN


def test_the_readmes_hand_shows_every_card_whole() -> None:
    """The hand strip's step is at least a card's width: no card covers the next's word."""
    step = inspect.signature(hand_strip).parameters["step"].default
    height = inspect.signature(hand_strip).parameters["height"].default
    assert step >= round(height / 1.5)
