"""Card faces, backs and emoji drawn by code with Pillow (pure: no I/O, no Discord).

Every card is laid out on a 100 x 150 unit grid (emoji on 100 x 100) and drawn SUPERSAMPLE
times larger, then reduced: Pillow draws shapes without anti-aliasing, and the reduction
smooths every edge at once.
"""

from __future__ import annotations

import math
from enum import StrEnum
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.engine.cards import DARK_COLORS, LIGHT_COLORS, Face, Kind, Side

from .palette import (
    DARK_FRAME,
    INK,
    LIGHT_FRAME,
    RGB,
    SHAPES,
    WHITE,
    WILD_FIELD,
    WORDS,
    Palette,
    Shape,
)

SUPERSAMPLE = 3
CARD_RATIO = 1.5  # height / width
Font = ImageFont.FreeTypeFont


class Back(StrEnum):
    """A card seen from behind when its other face is unknown or irrelevant."""

    CLASSIC = "classic"
    # A Flip card whose face is not shown, seen from its light or its dark side.
    LIGHT = "light"
    DARK = "dark"


# The one wild only the dark side has; a plain Wild is on both, the other wilds on the light
# side (classic cards are light-side cards).
_DARK_ONLY_WILDS = frozenset({Kind.WILD_DRAW_COLOR})
_ACTION_WORDS: dict[Kind, str] = {
    Kind.SKIP: "SKIP",
    Kind.REVERSE: "REVERSE",
    Kind.DRAW_TWO: "DRAW TWO",
    Kind.DRAW_ONE: "DRAW ONE",
    Kind.DRAW_FIVE: "DRAW FIVE",
    Kind.SKIP_EVERYONE: "SKIP ALL",
    Kind.FLIP: "FLIP",
    Kind.WILD: "WILD",
    Kind.WILD_DRAW_FOUR: "DRAW FOUR",
    Kind.WILD_DRAW_TWO: "DRAW TWO",
    Kind.WILD_DRAW_COLOR: "DRAW COLOR",
    Kind.WILD_SHUFFLE_HANDS: "SHUFFLE",
    Kind.WILD_SWAP_HANDS: "SWAP",
    Kind.WILD_CUSTOMIZABLE: "CUSTOM",
}
# The fanned rows show a wild's sign in a narrow strip: letters, as the wheel leaves no room.
_MINI_WILD: dict[Kind, str] = {
    Kind.WILD: "W",
    Kind.WILD_SHUFFLE_HANDS: "SH",
    Kind.WILD_SWAP_HANDS: "SW",
    Kind.WILD_CUSTOMIZABLE: "C",
}
_PLUS: dict[Kind, str] = {
    Kind.DRAW_ONE: "+1",
    Kind.DRAW_TWO: "+2",
    Kind.DRAW_FIVE: "+5",
    Kind.WILD_DRAW_TWO: "+2",
    Kind.WILD_DRAW_FOUR: "+4",
    Kind.WILD_DRAW_COLOR: "+?",
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


@lru_cache(maxsize=128)
def font(size: int) -> Font:
    """Pillow's bundled scalable font at ``size`` pixels (no font files needed)."""
    loaded = ImageFont.load_default(size=max(1, size))
    if not isinstance(loaded, ImageFont.FreeTypeFont):
        raise RuntimeError("Pillow was built without FreeType; the card art needs it")
    return loaded


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


def _arrow(pen: Pen, x0: float, x1: float, y: float, thick: float, fill: RGB) -> None:
    """A straight arrow from x0 to x1 (pointing at x1)."""
    sign = 1 if x1 > x0 else -1
    head = thick * 1.9
    neck = x1 - sign * head
    pen.draw.polygon(
        [
            (pen.px(x0), pen.px(y - thick / 2)),
            (pen.px(neck), pen.px(y - thick / 2)),
            (pen.px(neck), pen.px(y - thick * 1.4)),
            (pen.px(x1), pen.px(y)),
            (pen.px(neck), pen.px(y + thick * 1.4)),
            (pen.px(neck), pen.px(y + thick / 2)),
            (pen.px(x0), pen.px(y + thick / 2)),
        ],
        fill=fill,
        outline=INK,
        width=max(1, pen.px(thick * 0.22)),
    )


def _reverse(pen: Pen, x: float, y: float, r: float, fill: RGB) -> None:
    thick = r * 0.3
    _arrow(pen, x - r, x + r, y - r * 0.42, thick, fill)
    _arrow(pen, x + r, x - r, y + r * 0.42, thick, fill)


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


def _wild_centre(
    pen: Pen, face: Face, side: Side, palette: Palette, x: float, y: float, r: float
) -> None:
    _wheel(pen, x, y, r, side, palette)
    # The word under the wheel names the special wilds; the centre carries a short sign.
    label = _PLUS.get(face.kind) or {
        Kind.WILD_SHUFFLE_HANDS: "S",
        Kind.WILD_CUSTOMIZABLE: "C",
    }.get(face.kind)
    if face.kind is Kind.WILD_SWAP_HANDS:
        _reverse(pen, x, y, r * 0.55, WHITE)
    elif label:
        pen.text(x, y, label, r * 0.95, WHITE, r * 0.1)


def _frame(pen: Pen, w: float, h: float, side: Side) -> None:
    frame = DARK_FRAME if side is Side.DARK else LIGHT_FRAME
    edge = (90, 90, 100) if side is Side.DARK else (170, 170, 170)
    pen.rounded((0, 0, w, h), w * 0.09, edge)
    pen.rounded((0.8, 0.8, w - 0.8, h - 0.8), w * 0.085, frame)


def _index(face: Face) -> str:
    if face.kind is Kind.NUMBER:
        return str(face.number)
    return _PLUS.get(face.kind, "")


def draw_face(face: Face, side: Side | None, palette: Palette, height: int) -> Image.Image:
    """``face`` as a card ``height`` pixels tall (width height/1.5), RGBA."""
    side = side_of(face, side)
    width = round(height / CARD_RATIO)
    pen = Pen((width, height), 100)
    _frame(pen, 100, 150, side)
    field = WILD_FIELD if face.color is None else palette.fill(face.color)
    pen.rounded((6, 6, 94, 144), 7, field)
    if face.color is None:
        _wild_centre(pen, face, side, palette, 50, 66, 34)
        pen.text(50, 124, _ACTION_WORDS[face.kind], 14, WHITE, 1.5)
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
        pen.text(50, 114, _ACTION_WORDS[face.kind], 12, WHITE, 1.4)
    pen.text(50, 133, WORDS[face.color], 15, WHITE, 1.6)
    return pen.finish()


def draw_back(back: Back, palette: Palette, height: int) -> Image.Image:
    """A generic card back ``height`` pixels tall: classic, or a Flip card of one side."""
    width = round(height / CARD_RATIO)
    pen = Pen((width, height), 100)
    side = Side.DARK if back is Back.DARK else Side.LIGHT
    _frame(pen, 100, 150, side)
    if back is Back.CLASSIC:
        # Our own back: the four classic colours' shapes on a diamond, on ink.
        pen.rounded((6, 6, 94, 144), 7, INK)
        pen.draw.polygon(
            [
                (pen.px(50), pen.px(22)),
                (pen.px(86), pen.px(75)),
                (pen.px(50), pen.px(128)),
                (pen.px(14), pen.px(75)),
            ],
            fill=(60, 60, 72),
        )
        for color, (x, y) in zip(
            LIGHT_COLORS, ((50, 48), (68, 75), (50, 102), (32, 75)), strict=True
        ):
            pen.outlined_shape(SHAPES[color], x, y, 10, palette.fill(color))
        return pen.finish()
    colors = DARK_COLORS if back is Back.DARK else LIGHT_COLORS
    pen.rounded((6, 6, 94, 144), 7, WILD_FIELD)
    for i, color in enumerate(colors):
        y0 = 14 + i * 31
        pen.rounded((14, y0, 86, y0 + 26), 5, palette.fill(color))
        pen.outlined_shape(SHAPES[color], 50, y0 + 13, 8, WHITE)
    return pen.finish()


def draw_emoji(face: Face, side: Side | None, palette: Palette, size: int = 128) -> Image.Image:
    """A square, wordless picture of ``face`` for a button: colour, shape and big sign."""
    side = side_of(face, side)
    pen = Pen((size, size), 100)
    frame = DARK_FRAME if side is Side.DARK else LIGHT_FRAME
    pen.rounded((0, 0, 100, 100), 18, (90, 90, 100) if side is Side.DARK else (150, 150, 150))
    pen.rounded((2, 2, 98, 98), 17, frame)
    if face.color is None:
        pen.rounded((7, 7, 93, 93), 13, WILD_FIELD)
        _wild_centre(pen, face, side, palette, 50, 50, 40)
        return pen.finish()
    field = palette.fill(face.color)
    pen.rounded((7, 7, 93, 93), 13, field)
    shape = SHAPES[face.color]
    pen.shape(shape, 50, 52, 42, _tint(field, 0.3))
    _symbol(pen, face, 50, 52, 29, WHITE)
    pen.outlined_shape(shape, 80, 20, 9, WHITE)
    return pen.finish()


def draw_mini(face: Face | None, side: Side | None, palette: Palette, height: int) -> Image.Image:
    """A small card for fanned rows: its sign and shape in the left strip that stays visible.

    ``face=None`` draws a classic card's back (a card whose face nobody may see).
    """
    width = round(height / CARD_RATIO)
    pen = Pen((width, height), 100)
    if face is None:
        _frame(pen, 100, 150, Side.LIGHT)
        pen.rounded((8, 8, 92, 142), 9, INK)
        for color, y in zip(LIGHT_COLORS, (30, 60, 90, 120), strict=True):
            pen.outlined_shape(SHAPES[color], 30, y, 11, palette.fill(color))
        return pen.finish()
    side = side_of(face, side)
    _frame(pen, 100, 150, side)
    if face.color is None:
        pen.rounded((8, 8, 92, 142), 9, WILD_FIELD)
        _wheel(pen, 32, 36, 21, side, palette)
        sign = _PLUS.get(face.kind) or _MINI_WILD[face.kind]
        pen.text(32, 84, sign, 36 if len(sign) < 2 else 30, WHITE, 3)
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
