"""Card faces, backs and emoji drawn by code with Pillow (pure: no I/O, no Discord).

Every card is laid out on a 100 x 150 unit grid (emoji on 100 x 100) and drawn SUPERSAMPLE
times larger, then reduced: Pillow draws shapes without anti-aliasing, and the reduction
smooths every edge at once.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.cards import DARK_COLORS, LIGHT_COLORS, Color, Face, Kind, Side

from .names import fitted_text, font
from .palette import (
    DARK_FRAME,
    INK,
    JUNIOR_EDGE,
    JUNIOR_FRAME,
    JUNIOR_SKY,
    LIGHT_FRAME,
    NO_MERCY_BLACK,
    NO_MERCY_RED,
    RGB,
    SHAPES,
    WHITE,
    WILD_FIELD,
    Palette,
    Shape,
)

SUPERSAMPLE = 3
CARD_RATIO = 1.5  # height / width
# A language code as the catalogs name them ("en", "fi", "nb"): part of cache file names.
LANG_RE = re.compile(r"[a-z]{2,3}(_[A-Za-z0-9]{2,8})?")


class Family(StrEnum):
    """A variant's card-art family (its registry entry's ``art``): the frame its faces are
    printed in and its back, so a player tells the games apart at a glance."""

    CLASSIC = "classic"
    FLIP = "flip"
    # The sheet's black-and-red frame and a black back with a red diamond.
    NO_MERCY = "nomercy"
    # A cream, gold-edged frame, an animal per colour, big numbers and a sky-blue back.
    JUNIOR = "junior"

    @property
    def faces(self) -> Family:
        """The family whose faces this one shows: Flip's faces are classic ones."""
        return Family.CLASSIC if self is Family.FLIP else self

    @property
    def prefix(self) -> str:
        """What the names of this family's pictures start with ("" for classic faces)."""
        return _NAME_PREFIX.get(self.faces, "")


_NAME_PREFIX = {Family.NO_MERCY: "nm_", Family.JUNIOR: "jr_"}


class Back(StrEnum):
    """A card seen from behind when its other face is unknown or irrelevant: the back of a
    family's single-sided cards (named as the family is), or a Flip card's light or dark side."""

    CLASSIC = "classic"
    NO_MERCY = "nomercy"
    JUNIOR = "junior"
    # A Flip card whose face is not shown, seen from its light or its dark side.
    LIGHT = "light"
    DARK = "dark"

    @classmethod
    def of(cls, family: Family) -> Back:
        """The back of ``family``'s cards when no face is known (Flip: its light side)."""
        return cls.LIGHT if family is Family.FLIP else cls(family.value)


# The one wild only the dark side has; a plain Wild is on both, the other wilds on the light
# side (classic cards are light-side cards).
_DARK_ONLY_WILDS = frozenset({Kind.WILD_DRAW_COLOR})
_PLUS: dict[Kind, str] = {
    Kind.DRAW_ONE: "+1",
    Kind.DRAW_TWO: "+2",
    Kind.DRAW_FIVE: "+5",
    Kind.WILD_DRAW_TWO: "+2",
    Kind.WILD_DRAW_FOUR: "+4",
    Kind.WILD_DRAW_COLOR: "+?",
    Kind.DRAW_FOUR: "+4",
    Kind.WILD_REVERSE_DRAW_FOUR: "+4",
    Kind.WILD_DRAW_SIX: "+6",
    Kind.WILD_DRAW_TEN: "+10",
}


def side_of(face: Face, side: Side | None = None) -> Side:
    """The side ``face`` is printed on; only a plain Wild needs ``side`` (default light)."""
    if face.color is not None:
        return Side.DARK if face.color in DARK_COLORS else Side.LIGHT
    if face.kind in _DARK_ONLY_WILDS:
        return Side.DARK
    if face.kind is Kind.WILD and side is not None:
        return side
    return Side.LIGHT


@dataclass(frozen=True, slots=True)
class CardWords:
    """The words a card face prints, in one language: each action's and wild's name and each
    colour's. The caller takes them from the catalogs (``bot.ui.words.card_words``); this
    package reads none, so it stays pure and needs no Discord. ``lang`` keys cached faces."""

    lang: str
    actions: tuple[tuple[Kind, str], ...]  # every kind but NUMBER, with its word
    colors: tuple[tuple[Color, str], ...]  # every colour, with its word

    def __post_init__(self) -> None:
        if not LANG_RE.fullmatch(self.lang):
            raise ValueError(f"not a language code: {self.lang!r}")
        missing = {k for k in Kind if k is not Kind.NUMBER} - {k for k, _ in self.actions}
        if missing or {c for c, _ in self.colors} != set(Color):
            raise ValueError(f"card words of {self.lang!r} lack some kinds or colours")

    def action(self, kind: Kind) -> str:
        """The word of an action or wild ("SKIP", "OHITUS")."""
        return next(word for k, word in self.actions if k is kind)

    def color(self, color: Color) -> str:
        """The word of a colour ("GREEN", "VIHREÄ")."""
        return next(word for c, word in self.colors if c is color)


# The English words, as the English catalog has them (tests/ui/test_i18n.py checks): what
# previews, benchmarks and tests print; the bot passes the catalogs' words of each table.
ENGLISH_CARD_WORDS = CardWords(
    "en",
    actions=(
        (Kind.SKIP, "SKIP"),
        (Kind.REVERSE, "REVERSE"),
        (Kind.DRAW_TWO, "DRAW TWO"),
        (Kind.DRAW_ONE, "DRAW ONE"),
        (Kind.DRAW_FIVE, "DRAW FIVE"),
        (Kind.SKIP_EVERYONE, "SKIP EVERYONE"),
        (Kind.FLIP, "FLIP"),
        (Kind.WILD, "WILD"),
        (Kind.WILD_DRAW_FOUR, "DRAW FOUR"),
        (Kind.WILD_DRAW_TWO, "DRAW TWO"),
        (Kind.WILD_DRAW_COLOR, "DRAW COLOUR"),
        (Kind.WILD_SHUFFLE_HANDS, "SHUFFLE"),
        (Kind.WILD_SWAP_HANDS, "SWAP"),
        (Kind.WILD_CUSTOMIZABLE, "CUSTOM"),
        (Kind.DRAW_FOUR, "DRAW FOUR"),
        (Kind.DISCARD_ALL, "DISCARD ALL"),
        (Kind.WILD_REVERSE_DRAW_FOUR, "REVERSE +4"),
        (Kind.WILD_DRAW_SIX, "DRAW SIX"),
        (Kind.WILD_DRAW_TEN, "DRAW TEN"),
        (Kind.WILD_COLOR_ROULETTE, "ROULETTE"),
        (Kind.WILD_REVERSE, "REVERSE"),
        (Kind.WILD_SKIP, "SKIP"),
        (Kind.WILD_SKIP_TWO, "SKIP TWO"),
        (Kind.WILD_TARGETED_DRAW_TWO, "TARGET +2"),
        (Kind.WILD_FORCED_SWAP, "SWAP"),
    ),
    # Pink and purple share an initial, so cards carry the whole word.
    colors=tuple((color, color.value.upper()) for color in Color),
)


class Pen:
    """Draws on a supersampled canvas in card units (``unit`` pixels each)."""

    def __init__(self, size: tuple[int, int], width_units: float) -> None:
        # The final ``size`` times SUPERSAMPLE, so finish() is an exact, cheap box reduction.
        self.size = size
        self.unit = size[0] * SUPERSAMPLE / width_units
        canvas = (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE)
        self.image = Image.new("RGBA", canvas, (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.image)

    def px(self, value: float) -> int:
        """Units to canvas pixels."""
        return round(value * self.unit)

    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        """A unit box in canvas pixels."""
        return self.px(x0), self.px(y0), self.px(x1), self.px(y1)

    def rounded(self, box: tuple[float, float, float, float], radius: float, fill: RGB) -> None:
        """A filled rounded rectangle."""
        self.draw.rounded_rectangle(self.box(*box), self.px(radius), fill=fill)

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float,
        fill: RGB = WHITE,
        stroke: float = 0.0,
        stroke_fill: RGB = INK,
    ) -> None:
        """``text`` centred on (x, y), optionally outlined."""
        self.draw.text(
            (self.px(x), self.px(y)),
            text,
            font=font(self.px(size)),
            fill=fill,
            anchor="mm",
            stroke_width=self.px(stroke),
            stroke_fill=stroke_fill,
        )

    def word(self, x: float, y: float, text: str, size: float, width: float, stroke: float) -> None:
        """A translated word centred on (x, y) in white, outlined, at most ``width`` wide:
        smaller when the language's word is longer, in a font that draws å ä ö æ ø."""
        shown, face = fitted_text(text, self.px(size), self.px(width))
        self.draw.text(
            (self.px(x), self.px(y)),
            shown,
            font=face,
            fill=WHITE,
            anchor="mm",
            stroke_width=self.px(stroke),
            stroke_fill=INK,
        )

    def shape(self, shape: Shape, x: float, y: float, r: float, fill: RGB) -> None:
        """A colour's shape of radius ``r`` centred on (x, y)."""
        mask = shape_mask(shape, max(2, self.px(r)))
        half = mask.size[0] // 2
        self.image.paste(fill, (self.px(x) - half, self.px(y) - half), mask)

    def outlined_shape(self, shape: Shape, x: float, y: float, r: float, fill: RGB) -> None:
        """A shape with an ink outline, readable on any field colour."""
        self.shape(shape, x, y, r * 1.3, INK)
        self.shape(shape, x, y, r, fill)

    def finish(self) -> Image.Image:
        """The drawing reduced to its final size (each pixel the mean of its samples)."""
        return self.image.reduce(SUPERSAMPLE)


@lru_cache(maxsize=256)
def shape_mask(shape: Shape, r: int) -> Image.Image:
    """An L mask (2r x 2r) of ``shape`` of radius ``r``."""
    mask = Image.new("L", (2 * r, 2 * r), 0)
    d = ImageDraw.Draw(mask)
    c = float(r)

    def pt(dx: float, dy: float) -> tuple[float, float]:
        return c + dx * r, c + dy * r

    match shape:
        case Shape.CIRCLE:
            d.ellipse((0, 0, 2 * r - 1, 2 * r - 1), fill=255)
        case Shape.TRIANGLE:
            d.polygon([pt(0, -1), pt(0.98, 0.78), pt(-0.98, 0.78)], fill=255)
        case Shape.SQUARE:
            d.rounded_rectangle((*pt(-0.8, -0.8), *pt(0.8, 0.8)), round(r * 0.12), fill=255)
        case Shape.DIAMOND:
            d.polygon([pt(0, -1), pt(0.8, 0), pt(0, 1), pt(-0.8, 0)], fill=255)
        case Shape.HEART:
            d.ellipse((*pt(-0.98, -0.78), *pt(0.02, 0.22)), fill=255)
            d.ellipse((*pt(-0.02, -0.78), *pt(0.98, 0.22)), fill=255)
            d.polygon([pt(-0.93, -0.1), pt(0.93, -0.1), pt(0, 0.95)], fill=255)
        case Shape.CROSS:
            d.rectangle((*pt(-0.3, -0.95), *pt(0.3, 0.95)), fill=255)
            d.rectangle((*pt(-0.95, -0.3), *pt(0.95, 0.3)), fill=255)
        case Shape.STAR:
            points = []
            for i in range(10):
                radius = 1.0 if i % 2 == 0 else 0.42
                angle = -math.pi / 2 + i * math.pi / 5
                points.append(pt(radius * math.cos(angle), radius * math.sin(angle) + 0.08))
            d.polygon(points, fill=255)
        case Shape.CRESCENT:
            d.ellipse((0, 0, 2 * r - 1, 2 * r - 1), fill=255)
            d.ellipse((*pt(-0.35, -1.05), *pt(1.25, 0.55)), fill=0)
    return mask


def _tint(color: RGB, amount: float) -> RGB:
    """``color`` moved ``amount`` of the way to white."""
    r, g, b = color
    return (
        round(r + (255 - r) * amount),
        round(g + (255 - g) * amount),
        round(b + (255 - b) * amount),
    )


def _wheel(pen: Pen, x: float, y: float, r: float, side: Side, palette: Palette) -> None:
    """Four quarters in the side's colours, each marked with its shape: the wild's sign."""
    colors = DARK_COLORS if side is Side.DARK else LIGHT_COLORS
    pen.draw.ellipse(pen.box(x - r - 2, y - r - 2, x + r + 2, y + r + 2), fill=WHITE)
    for i, color in enumerate(colors):
        start = -90 + 90 * i
        pen.draw.pieslice(
            pen.box(x - r, y - r, x + r, y + r), start, start + 90, palette.fill(color)
        )
        mid = math.radians(start + 45)
        sx, sy = x + math.cos(mid) * r * 0.55, y + math.sin(mid) * r * 0.55
        pen.shape(SHAPES[color], sx, sy, r * 0.2, _tint(palette.fill(color), 0.55))


def _skip(pen: Pen, x: float, y: float, r: float, fill: RGB, width: float) -> None:
    for grow, color in ((width * 0.45, INK), (0.0, fill)):
        w = width + 2 * grow
        rr = r + grow
        pen.draw.ellipse(pen.box(x - rr, y - rr, x + rr, y + rr), outline=color, width=pen.px(w))
        dx = (r - width / 2) * 0.7071
        pen.draw.line(
            [(pen.px(x - dx), pen.px(y + dx)), (pen.px(x + dx), pen.px(y - dx))],
            fill=color,
            width=pen.px(w),
        )


def _arrow(pen: Pen, x0: float, y0: float, x1: float, y1: float, thick: float, fill: RGB) -> None:
    """A straight arrow from (x0, y0) to (x1, y1), pointing at the latter."""
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    neck = length - thick * 1.9

    def at(along: float, across: float) -> tuple[int, int]:
        return pen.px(x0 + ux * along - uy * across), pen.px(y0 + uy * along + ux * across)

    pen.draw.polygon(
        [
            at(0, -thick / 2),
            at(neck, -thick / 2),
            at(neck, -thick * 1.4),
            at(length, 0),
            at(neck, thick * 1.4),
            at(neck, thick / 2),
            at(0, thick / 2),
        ],
        fill=fill,
        outline=INK,
        width=max(1, pen.px(thick * 0.22)),
    )


def _reverse(pen: Pen, x: float, y: float, r: float, fill: RGB) -> None:
    thick = r * 0.3
    _arrow(pen, x - r, y - r * 0.42, x + r, y - r * 0.42, thick, fill)
    _arrow(pen, x + r, y + r * 0.42, x - r, y + r * 0.42, thick, fill)


def _shuffle(pen: Pen, x: float, y: float, r: float, fill: RGB) -> None:
    """Two crossing arrows: the usual "shuffle" sign."""
    thick = r * 0.28
    _arrow(pen, x - r, y + r * 0.6, x + r, y - r * 0.6, thick, fill)
    _arrow(pen, x - r, y - r * 0.6, x + r, y + r * 0.6, thick, fill)


def _pencil(pen: Pen, x: float, y: float, r: float, fill: RGB) -> None:
    """A pencil writing down to the left: the blank card the players write a rule on."""
    ux, uy = -0.7071, 0.7071  # from the eraser to the point
    half = r * 0.24

    def at(along: float, across: float) -> tuple[int, int]:
        return pen.px(x + ux * along - uy * across), pen.px(y + uy * along + ux * across)

    body = [at(-r, -half), at(r * 0.4, -half), at(r, 0), at(r * 0.4, half), at(-r, half)]
    pen.draw.polygon(body, fill=fill, outline=INK, width=max(1, pen.px(r * 0.07)))
    pen.draw.polygon([at(r * 0.78, -half * 0.37), at(r, 0), at(r * 0.78, half * 0.37)], fill=INK)
    pen.draw.line([at(-r * 0.7, -half), at(-r * 0.7, half)], fill=INK, width=pen.px(r * 0.07))


def _flip(pen: Pen, x: float, y: float, r: float) -> None:
    """Two overlapping cards, one light and one dark: the Flip sign."""
    for dx, dy, angle, color, edge in (
        (-0.3, 0.05, -14, LIGHT_FRAME, INK),
        (0.3, -0.05, 14, DARK_FRAME, WHITE),
    ):
        w, h = r * 0.62, r * 0.95
        cx, cy = x + dx * r, y + dy * r
        a = math.radians(angle)
        corners = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
        pts = [
            (
                pen.px(cx + px * math.cos(a) - py * math.sin(a)),
                pen.px(cy + px * math.sin(a) + py * math.cos(a)),
            )
            for px, py in corners
        ]
        pen.draw.polygon(pts, fill=color, outline=edge, width=max(1, pen.px(r * 0.07)))


def _symbol(pen: Pen, face: Face, x: float, y: float, r: float, fill: RGB) -> None:
    """The face's big sign: its number, +N, or a drawn symbol."""
    ink_stroke = r * 0.09
    if face.kind is Kind.NUMBER:
        text = str(face.number)
        pen.text(x, y, text, r * 1.9, fill, ink_stroke * 1.4)
        if face.number in (6, 9):  # the underline that tells 6 from 9 upside down
            w = r * 0.55
            pen.rounded((x - w, y + r * 0.78, x + w, y + r * 0.95), r * 0.06, INK)
            pen.rounded((x - w + 1, y + r * 0.8, x + w - 1, y + r * 0.93), r * 0.04, fill)
    elif face.kind in _PLUS and face.color is not None:
        pen.text(x, y, _PLUS[face.kind], r * 1.45, fill, ink_stroke * 1.2)
    elif face.kind is Kind.SKIP:
        _skip(pen, x, y, r * 0.75, fill, r * 0.24)
    elif face.kind is Kind.SKIP_EVERYONE:
        _skip(pen, x - r * 0.3, y - r * 0.3, r * 0.5, fill, r * 0.17)
        _skip(pen, x + r * 0.3, y + r * 0.3, r * 0.5, fill, r * 0.17)
    elif face.kind is Kind.REVERSE:
        _reverse(pen, x, y, r * 0.85, fill)
    elif face.kind is Kind.FLIP:
        _flip(pen, x, y, r)
    elif face.kind is Kind.DISCARD_ALL:
        _fan(pen, x, y, r, fill)


def _fan(pen: Pen, x: float, y: float, r: float, fill: RGB) -> None:
    """Three cards fanned out: No Mercy's Discard All sign (a hand thrown away)."""
    w, h = r * 0.55, r * 0.85
    for angle in (-25, 0, 25):
        a = math.radians(angle)
        cx, cy = x + math.sin(a) * r * 0.35, y - math.cos(a) * r * 0.05
        corners = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
        pts = [
            (
                pen.px(cx + px * math.cos(a) - py * math.sin(a)),
                pen.px(cy + px * math.sin(a) + py * math.cos(a)),
            )
            for px, py in corners
        ]
        pen.draw.polygon(pts, fill=fill, outline=INK, width=max(1, pen.px(r * 0.07)))


def _wild_sign(pen: Pen, kind: Kind, x: float, y: float, r: float) -> None:
    """A special wild's sign, +N or a drawn symbol (a plain Wild has none). Never a letter:
    the emoji and the fanned cards carry no word, so one picture serves every language."""
    if kind is Kind.WILD_REVERSE_DRAW_FOUR:
        # The Reverse arrows above its +4, so it differs from a Wild Draw Four at a glance.
        _reverse(pen, x, y - r * 0.32, r * 0.4, WHITE)
        pen.text(x, y + r * 0.3, _PLUS[kind], r * 0.7, WHITE, r * 0.08)
    elif kind in _PLUS:
        pen.text(x, y, _PLUS[kind], r * 0.95, WHITE, r * 0.1)
    elif kind is Kind.WILD_COLOR_ROULETTE:
        pen.text(x, y, "?", r * 1.1, WHITE, r * 0.1)
    elif kind in _ALL_WILD_SIGNS:
        _all_wild_sign(pen, kind, x, y, r)
    elif kind is Kind.WILD_SWAP_HANDS:
        _reverse(pen, x, y, r * 0.55, WHITE)
    elif kind is Kind.WILD_SHUFFLE_HANDS:
        _shuffle(pen, x, y, r * 0.55, WHITE)
    elif kind is Kind.WILD_CUSTOMIZABLE:
        _pencil(pen, x, y, r * 0.6, WHITE)


# All Wild's own kinds: told apart by their sign alone, since every card has the same wheel.
_ALL_WILD_SIGNS = frozenset(
    {
        Kind.WILD_REVERSE,
        Kind.WILD_SKIP,
        Kind.WILD_SKIP_TWO,
        Kind.WILD_TARGETED_DRAW_TWO,
        Kind.WILD_FORCED_SWAP,
    }
)


def _all_wild_sign(pen: Pen, kind: Kind, x: float, y: float, r: float) -> None:
    """All Wild's signs: the Reverse arrows, one or two Skip signs, +2 in a target's ring, and
    two arrows crossing up and down for the Forced Swap (Swap Hands' arrows lie flat)."""
    if kind is Kind.WILD_REVERSE:
        _reverse(pen, x, y, r * 0.75, WHITE)
    elif kind is Kind.WILD_SKIP:
        _skip(pen, x, y, r * 0.5, WHITE, r * 0.16)
    elif kind is Kind.WILD_SKIP_TWO:
        _skip(pen, x - r * 0.36, y, r * 0.34, WHITE, r * 0.12)
        _skip(pen, x + r * 0.36, y, r * 0.34, WHITE, r * 0.12)
    elif kind is Kind.WILD_TARGETED_DRAW_TWO:
        ring = r * 0.72
        pen.draw.ellipse(
            pen.box(x - ring, y - ring, x + ring, y + ring), outline=INK, width=pen.px(r * 0.16)
        )
        pen.draw.ellipse(
            pen.box(x - ring, y - ring, x + ring, y + ring), outline=WHITE, width=pen.px(r * 0.08)
        )
        pen.text(x, y, "+2", r * 0.6, WHITE, r * 0.07)
    else:  # Wild Forced Swap
        thick = r * 0.16
        _arrow(pen, x - r * 0.3, y + r * 0.6, x - r * 0.3, y - r * 0.6, thick, WHITE)
        _arrow(pen, x + r * 0.3, y - r * 0.6, x + r * 0.3, y + r * 0.6, thick, WHITE)


def _wild_centre(
    pen: Pen, face: Face, side: Side, palette: Palette, x: float, y: float, r: float
) -> None:
    _wheel(pen, x, y, r, side, palette)
    _wild_sign(pen, face.kind, x, y, r)


def _frame(pen: Pen, w: float, h: float, side: Side, family: Family = Family.CLASSIC) -> None:
    if family is Family.NO_MERCY:
        # The sheet's look: a black border with a red line inside it, round the field.
        pen.rounded((0, 0, w, h), w * 0.09, NO_MERCY_RED)
        pen.rounded((1, 1, w - 1, h - 1), w * 0.088, NO_MERCY_BLACK)
        pen.rounded((3.6, 3.6, w - 3.6, h - 3.6), w * 0.08, NO_MERCY_RED)
        return
    if family is Family.JUNIOR:
        pen.rounded((0, 0, w, h), w * 0.12, JUNIOR_EDGE)
        pen.rounded((2, 2, w - 2, h - 2), w * 0.11, JUNIOR_FRAME)
        return
    frame = DARK_FRAME if side is Side.DARK else LIGHT_FRAME
    edge = (90, 90, 100) if side is Side.DARK else (170, 170, 170)
    pen.rounded((0, 0, w, h), w * 0.09, edge)
    pen.rounded((0.8, 0.8, w - 0.8, h - 0.8), w * 0.085, frame)


def _eye(pen: Pen, x: float, y: float, r: float) -> None:
    """A friendly eye: white with a big ink pupil looking slightly up."""
    pen.draw.ellipse(
        pen.box(x - r, y - r, x + r, y + r), fill=WHITE, outline=INK, width=pen.px(r * 0.25)
    )
    p = r * 0.55
    pen.draw.ellipse(pen.box(x - p, y - p - r * 0.15, x + p, y + p - r * 0.15), fill=INK)


def _smile(pen: Pen, x: float, y: float, r: float) -> None:
    pen.draw.arc(
        pen.box(x - r, y - r * 0.7, x + r, y + r * 0.7), 20, 160, fill=INK, width=pen.px(r * 0.22)
    )


def _critter(pen: Pen, color: Color, x: float, y: float, r: float, body: RGB) -> None:
    """Junior's animal of a colour, built on the colour's shape so the shape cue stays: a
    ladybird (red circle), a chick (yellow triangle), a frog (green square), a fish (blue
    diamond); any other colour a smiling shape."""
    shape = SHAPES[color]
    if shape is Shape.CIRCLE:  # ladybird: a head on top, a line down its back, spots
        pen.draw.ellipse(pen.box(x - r * 0.45, y - r * 1.15, x + r * 0.45, y - r * 0.45), fill=INK)
        pen.outlined_shape(shape, x, y, r, body)
        pen.draw.line(
            [(pen.px(x), pen.px(y - r * 0.9)), (pen.px(x), pen.px(y + r * 0.95))],
            fill=INK,
            width=pen.px(r * 0.08),
        )
        for dx, dy in ((-0.5, 0.05), (0.5, 0.05), (-0.35, 0.55), (0.35, 0.55)):
            s = r * 0.16
            pen.draw.ellipse(
                pen.box(x + dx * r - s, y + dy * r - s, x + dx * r + s, y + dy * r + s), fill=INK
            )
        _eye(pen, x - r * 0.2, y - r * 0.88, r * 0.14)
        _eye(pen, x + r * 0.2, y - r * 0.88, r * 0.14)
    elif shape is Shape.TRIANGLE:  # chick: eyes and an orange beak
        pen.outlined_shape(shape, x, y, r, body)
        _eye(pen, x - r * 0.22, y + r * 0.05, r * 0.16)
        _eye(pen, x + r * 0.22, y + r * 0.05, r * 0.16)
        beak = [(x - r * 0.14, y + r * 0.3), (x + r * 0.14, y + r * 0.3), (x, y + r * 0.52)]
        pen.draw.polygon(
            [(pen.px(a), pen.px(b)) for a, b in beak], fill=(240, 130, 20), outline=INK
        )
    elif shape is Shape.SQUARE:  # frog: eyes on bumps above its head, a wide smile
        for dx in (-0.5, 0.5):
            bump = r * 0.34
            cx, cy = x + dx * r, y - r * 0.8
            pen.draw.ellipse(
                pen.box(cx - bump, cy - bump, cx + bump, cy + bump),
                fill=body,
                outline=INK,
                width=pen.px(r * 0.08),
            )
        pen.outlined_shape(shape, x, y, r, body)
        _eye(pen, x - r * 0.5, y - r * 0.8, r * 0.22)
        _eye(pen, x + r * 0.5, y - r * 0.8, r * 0.22)
        _smile(pen, x, y + r * 0.05, r * 0.55)
    elif shape is Shape.DIAMOND:  # fish: a tail behind, an eye and a small mouth
        tail = [(x + r * 0.55, y), (x + r * 1.15, y - r * 0.5), (x + r * 1.15, y + r * 0.5)]
        pen.draw.polygon(
            [(pen.px(a), pen.px(b)) for a, b in tail],
            fill=body,
            outline=INK,
            width=pen.px(r * 0.08),
        )
        pen.outlined_shape(shape, x - r * 0.1, y, r, body)
        _eye(pen, x - r * 0.3, y - r * 0.2, r * 0.2)
        _smile(pen, x - r * 0.3, y + r * 0.25, r * 0.25)
    else:
        pen.outlined_shape(shape, x, y, r, body)
        _eye(pen, x - r * 0.25, y - r * 0.15, r * 0.16)
        _eye(pen, x + r * 0.25, y - r * 0.15, r * 0.16)
        _smile(pen, x, y + r * 0.2, r * 0.35)


def _index(face: Face) -> str:
    if face.kind is Kind.NUMBER:
        return str(face.number)
    return _PLUS.get(face.kind, "")


def draw_face(
    face: Face,
    side: Side | None,
    palette: Palette,
    height: int,
    words: CardWords,
    family: Family = Family.CLASSIC,
) -> Image.Image:
    """``face`` as a card ``height`` pixels tall (width height/1.5), RGBA, printed with
    ``words`` (the table's language) in ``family``'s look."""
    side = side_of(face, side)
    family = family.faces
    width = round(height / CARD_RATIO)
    pen = Pen((width, height), 100)
    _frame(pen, 100, 150, side, family)
    field = WILD_FIELD if face.color is None else palette.fill(face.color)
    pen.rounded((6, 6, 94, 144), 7, field)
    if face.color is None:
        _wild_centre(pen, face, side, palette, 50, 66, 34)
        pen.word(50, 124, words.action(face.kind), 14, 82, 1.5)
        return pen.finish()
    if family is Family.JUNIOR:
        _junior_face(pen, face, field, words)
        return pen.finish()
    shape = SHAPES[face.color]
    pen.shape(shape, 50, 70, 40, _tint(field, 0.3))
    _symbol(pen, face, 50, 68, 30, WHITE)
    index = _index(face)
    if index:
        pen.text(17, 19, index, 19, WHITE, 1.8)
    else:
        _symbol(pen, face, 18, 19, 9, WHITE)
    pen.outlined_shape(shape, 83, 19, 8, WHITE)
    if face.kind is not Kind.NUMBER:
        pen.word(50, 114, words.action(face.kind), 12, 82, 1.4)
    pen.word(50, 133, words.color(face.color), 15, 82, 1.6)
    return pen.finish()


def _junior_face(pen: Pen, face: Face, field: RGB, words: CardWords) -> None:
    """A Junior card: its number (or sign) big at the top, the colour's animal below it, the
    colour's shape in the corner and its word at the foot."""
    assert face.color is not None
    _symbol(pen, face, 50, 42, 26, WHITE)
    pen.outlined_shape(SHAPES[face.color], 83, 17, 7, WHITE)
    _critter(pen, face.color, 50, 94, 17, _tint(field, 0.45))
    if face.kind is not Kind.NUMBER:
        pen.word(50, 123, words.action(face.kind), 11, 82, 1.3)
        pen.word(50, 137, words.color(face.color), 12, 82, 1.4)
    else:
        pen.word(50, 132, words.color(face.color), 15, 82, 1.6)


def _back_field(pen: Pen, family: Family, palette: Palette, inset: float) -> None:
    """The back's picture of a single-sided family inside its frame."""
    box = (inset, inset, 100 - inset, 150 - inset)
    if family is Family.JUNIOR:
        # Sky blue with the four colours' animals, two by two.
        pen.rounded(box, 8, JUNIOR_SKY)
        for color, (x, y) in zip(
            LIGHT_COLORS, ((32, 45), (68, 45), (32, 103), (68, 103)), strict=True
        ):
            _critter(pen, color, x, y, 13, palette.fill(color))
        return
    if family is Family.NO_MERCY:
        # Black, with a red diamond carrying the four colours' shapes in white.
        pen.rounded(box, 7, NO_MERCY_BLACK)
        diamond, shapes = NO_MERCY_RED, WHITE
    else:
        # Our own classic back: the four colours' shapes on a grey diamond, on ink.
        pen.rounded(box, 7, INK)
        diamond, shapes = (60, 60, 72), None
    pen.draw.polygon(
        [
            (pen.px(50), pen.px(22)),
            (pen.px(86), pen.px(75)),
            (pen.px(50), pen.px(128)),
            (pen.px(14), pen.px(75)),
        ],
        fill=diamond,
    )
    for color, (x, y) in zip(LIGHT_COLORS, ((50, 48), (68, 75), (50, 102), (32, 75)), strict=True):
        pen.outlined_shape(SHAPES[color], x, y, 10, shapes or palette.fill(color))


def draw_back(back: Back, palette: Palette, height: int) -> Image.Image:
    """A generic card back ``height`` pixels tall: a family's, or a Flip card of one side."""
    width = round(height / CARD_RATIO)
    pen = Pen((width, height), 100)
    side = Side.DARK if back is Back.DARK else Side.LIGHT
    if back not in (Back.LIGHT, Back.DARK):
        family = Family(back.value)
        _frame(pen, 100, 150, side, family)
        _back_field(pen, family, palette, 6)
        return pen.finish()
    _frame(pen, 100, 150, side)
    colors = DARK_COLORS if back is Back.DARK else LIGHT_COLORS
    pen.rounded((6, 6, 94, 144), 7, WILD_FIELD)
    for i, color in enumerate(colors):
        y0 = 14 + i * 31
        pen.rounded((14, y0, 86, y0 + 26), 5, palette.fill(color))
        pen.outlined_shape(SHAPES[color], 50, y0 + 13, 8, WHITE)
    return pen.finish()


def _emoji_frame(pen: Pen, side: Side, family: Family) -> float:
    """The emoji's frame in ``family``'s look; returns the inset of the field inside it."""
    if family is Family.NO_MERCY:
        # Thicker than the card's, so the black and red still show at 22 px.
        pen.rounded((0, 0, 100, 100), 18, NO_MERCY_BLACK)
        pen.rounded((3.5, 3.5, 96.5, 96.5), 16, NO_MERCY_RED)
        return 8
    if family is Family.JUNIOR:
        pen.rounded((0, 0, 100, 100), 22, JUNIOR_EDGE)
        pen.rounded((3.5, 3.5, 96.5, 96.5), 20, JUNIOR_FRAME)
        return 7
    frame = DARK_FRAME if side is Side.DARK else LIGHT_FRAME
    pen.rounded((0, 0, 100, 100), 18, (90, 90, 100) if side is Side.DARK else (150, 150, 150))
    pen.rounded((2, 2, 98, 98), 17, frame)
    return 5


def draw_emoji(
    face: Face,
    side: Side | None,
    palette: Palette,
    size: int = 128,
    family: Family = Family.CLASSIC,
) -> Image.Image:
    """A square, wordless picture of ``face`` for a button: colour, shape and big sign, in
    ``family``'s frame. No words: Discord's application emoji serve every server and
    language alike.

    Drawn for the 22 px Discord shows it at: the sign fills the square, edged in ink; the
    colour's shape lies large behind it (a small corner mark would vanish); Skip Everyone is
    one skip sign in a second ring, not two small ones."""
    side = side_of(face, side)
    family = family.faces
    pen = Pen((size, size), 100)
    inset = _emoji_frame(pen, side, family)
    field_box = (inset, inset, 100 - inset, 100 - inset)
    if face.color is None:
        pen.rounded(field_box, 14, WILD_FIELD)
        _wheel(pen, 50, 50, 42 - (inset - 5), side, palette)
        _emoji_wild_sign(pen, face.kind)
        return pen.finish()
    field = palette.fill(face.color)
    pen.rounded(field_box, 14, field)
    if family is Family.JUNIOR:
        # The animal's body in the colour's shape, eyes and all, behind the number.
        _critter(pen, face.color, 50, 56, 36, _tint(field, 0.35))
    else:
        pen.shape(SHAPES[face.color], 50, 52, 47 - (inset - 5), _tint(field, 0.35))
    _emoji_sign(pen, face)
    return pen.finish()


def _emoji_sign(pen: Pen, face: Face) -> None:
    """A coloured card's sign, as large as the emoji allows."""
    if face.kind is Kind.NUMBER:
        _symbol(pen, face, 50, 52, 36, WHITE)
    elif face.kind in _PLUS:
        pen.text(50, 52, _PLUS[face.kind], 64, WHITE, 5.5)
    elif face.kind is Kind.SKIP:
        _skip(pen, 50, 51, 31, WHITE, 11)
    elif face.kind is Kind.SKIP_EVERYONE:
        _skip(pen, 50, 51, 23, WHITE, 9)
        for grow, color in ((3.0, INK), (0.0, WHITE)):
            ring = 40 + grow / 2
            box = pen.box(50 - ring, 51 - ring, 50 + ring, 51 + ring)
            pen.draw.ellipse(box, outline=color, width=pen.px(6 + grow))
    elif face.kind is Kind.REVERSE:
        _reverse(pen, 50, 52, 40, WHITE)
    elif face.kind is Kind.FLIP:
        _flip(pen, 50, 52, 50)
    elif face.kind is Kind.DISCARD_ALL:
        _fan(pen, 50, 54, 52, WHITE)


def _emoji_wild_sign(pen: Pen, kind: Kind) -> None:
    """A special wild's sign over its wheel, as large as the emoji allows (a plain Wild has
    none: the wheel alone)."""
    if kind in _PLUS and kind is not Kind.WILD_REVERSE_DRAW_FOUR:
        pen.text(50, 52, _PLUS[kind], 56, WHITE, 6)
    elif kind is Kind.WILD_SWAP_HANDS:
        _reverse(pen, 50, 52, 36, WHITE)
    elif kind is Kind.WILD_SHUFFLE_HANDS:
        _shuffle(pen, 50, 52, 36, WHITE)
    elif kind is Kind.WILD_CUSTOMIZABLE:
        _pencil(pen, 50, 50, 40, WHITE)
    else:
        # The newer games' wilds (Reverse +4, Roulette, ...): the card's own sign, emoji-sized.
        _wild_sign(pen, kind, 50, 52, 60)


def draw_mini(
    face: Face | None,
    side: Side | None,
    palette: Palette,
    height: int,
    family: Family = Family.CLASSIC,
) -> Image.Image:
    """A small card for fanned rows: its sign and shape in the left strip that stays visible,
    in ``family``'s frame. Wordless like the emoji: symbols, shapes and numbers only, the same
    in every language.

    ``face=None`` draws the back of ``family``'s cards (a card whose face nobody may see).
    """
    family = family.faces
    width = round(height / CARD_RATIO)
    pen = Pen((width, height), 100)
    if face is None:
        _frame(pen, 100, 150, Side.LIGHT, family)
        if family is Family.CLASSIC:
            pen.rounded((8, 8, 92, 142), 9, INK)
            for color, y in zip(LIGHT_COLORS, (30, 60, 90, 120), strict=True):
                pen.outlined_shape(SHAPES[color], 30, y, 11, palette.fill(color))
        else:
            # The strip left visible shows the family's back colours: red on black, or sky.
            field = NO_MERCY_BLACK if family is Family.NO_MERCY else JUNIOR_SKY
            pen.rounded((8, 8, 92, 142), 9, field)
            for color, y in zip(LIGHT_COLORS, (30, 60, 90, 120), strict=True):
                if family is Family.NO_MERCY:
                    pen.outlined_shape(SHAPES[color], 30, y, 11, WHITE)
                else:
                    _critter(pen, color, 30, y, 9, palette.fill(color))
            if family is Family.NO_MERCY:
                pen.draw.line(
                    [(pen.px(52), pen.px(12)), (pen.px(52), pen.px(138))],
                    fill=NO_MERCY_RED,
                    width=pen.px(6),
                )
        return pen.finish()
    side = side_of(face, side)
    _frame(pen, 100, 150, side, family)
    if face.color is None:
        pen.rounded((8, 8, 92, 142), 9, WILD_FIELD)
        if face.kind is Kind.WILD:  # no sign: the wheel alone, in the strip's middle
            _wheel(pen, 31, 62, 21, side, palette)
        else:
            _wheel(pen, 32, 36, 21, side, palette)
            _wild_sign(pen, face.kind, 31, 84, 31)
        return pen.finish()
    field = palette.fill(face.color)
    pen.rounded((8, 8, 92, 142), 9, field)
    shape = SHAPES[face.color]
    pen.shape(shape, 62, 100, 34, _tint(field, 0.3))
    index = _index(face)
    if index:
        pen.text(31, 34, index, 46 if len(index) == 1 else 36, WHITE, 4)
    else:
        _symbol(pen, face, 31, 36, 19, WHITE)
    pen.outlined_shape(shape, 31, 84, 15, WHITE)
    return pen.finish()
