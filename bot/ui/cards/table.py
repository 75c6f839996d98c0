"""The public table as one picture: top card, colour, direction, every hand's count and backs.

Built from pure inputs (TablePicture), so it can be tested and benchmarked without Discord.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.engine.cards import Color, Face, Side
from bot.engine.variants import variant as variant_entry
from bot.engine.view import PlayerView

from ..text import sort_key
from .cache import CardArt
from .catalog import all_faces
from .draw import ENGLISH_CARD_WORDS, SUPERSAMPLE, Back, CardWords, shape_mask
from .names import Font, drawable, fitted_text, name_font, safe_name
from .palette import INK, RGB, SHAPES, WHITE, Palette

WIDTH = 800
PAD = 20
HEADER = 250
# Fanned mini cards: (height, visible strip showing its sign and shape). Up to 6 players they
# are as large as a phone needs; more players get smaller ones so the picture stays short.
MINI_SIZES = ((6, 72, 21), (10, 60, 17))
TOP_HEIGHT = 210  # the top card
PILE_HEIGHT = 165  # the draw pile
FAN_LINES = 2  # at most this many fanned lines per hand; beyond, the step shrinks
MAX_BYTES = 100_000


@dataclass(frozen=True, slots=True)
class Theme:
    """The table's own colours: a light table for the light side (and classic), a dark one for
    the dark side, both neutral so no card colour blends into them."""

    felt: RGB
    cell: RGB
    current_cell: RGB
    current: RGB  # the border and marker of the player to move
    text: RGB
    stroke: int  # outline width of text, for white text on the dark table
    muted: RGB


THEMES: dict[Side, Theme] = {
    Side.LIGHT: Theme(
        felt=(226, 222, 212),
        cell=(247, 245, 239),
        current_cell=(255, 243, 196),
        current=(222, 150, 0),
        text=INK,
        stroke=0,
        muted=(105, 105, 110),
    ),
    Side.DARK: Theme(
        felt=(20, 18, 28),
        cell=(46, 42, 60),
        current_cell=(70, 62, 88),
        current=(255, 205, 60),
        text=WHITE,
        stroke=2,
        muted=(185, 185, 200),
    ),
}
# The felt and cells are large and low in contrast: twice the size is smooth enough and a
# quarter of the cards' cost (the whole picture drawn 3x was a third of its render time).
BACKGROUND_SAMPLES = 2


@dataclass(frozen=True, slots=True)
class SeatPicture:
    """One player as the table shows them; ``backs`` are the faces everyone sees (Flip)."""

    name: str
    count: int
    is_current: bool = False
    backs: tuple[Face, ...] | None = None
    said_uno: bool = False


@dataclass(frozen=True, slots=True)
class TablePicture:
    """Everything the table picture shows, in seat order (play goes down the list when
    ``direction`` is 1)."""

    variant: str
    side: Side
    top: Face
    color: Color | None
    direction: int
    players: tuple[SeatPicture, ...]
    draw_pile_count: int
    draw_pile_back: Face | None = None


@dataclass(frozen=True, slots=True)
class PictureWords:
    """The picture's own words in the table's language. The caller takes them from the
    catalogs (this module reads none, so it stays pure and needs no Discord) and they go with
    the picture to the drawing process; ``lang`` keeps a Finnish and an English table from
    ever sharing a cached picture."""

    lang: str
    draw_pile: str  # "Draw: 42"
    color: str  # "RED", or "ANY COLOUR" before a colour is named
    direction: str  # "Clockwise"
    side: str  # "LIGHT SIDE" in Flip, "" in classic
    uno: str  # the badge of a player who called UNO
    counts: tuple[str, ...]  # "7 cards" for each seat, in seat order
    next: str  # "Next: {name}"
    player: str  # "Player {number}": a seat whose name has nothing drawable
    cards: CardWords  # the words printed on the top card and the Flip pile's face


def table_picture(view: PlayerView, name: Callable[[str], str]) -> TablePicture:
    """The picture's inputs from a view (a spectator's or a player's: both are public here)."""
    by_player = {o.player: o for o in view.opponents}
    order = view.seats or tuple(by_player)
    seats = []
    for player in order:
        other = by_player.get(player)
        if other is not None:
            count, backs, uno = other.card_count, other.backs, other.called_uno
        else:  # the view's own seat: its count and backs are public at the table too
            count, uno = len(view.hand), view.called_uno
            backs = (
                tuple(h.back for h in view.hand if h.back is not None)
                if variant_entry(view.variant).double_sided
                else None
            )
        seats.append(SeatPicture(name(player), count, player == view.current_player, backs, uno))
    return TablePicture(
        variant=view.variant,
        side=view.side,
        top=view.top,
        color=view.color,
        direction=view.direction,
        players=tuple(seats),
        draw_pile_count=view.draw_pile_count,
        draw_pile_back=view.draw_pile_back,
    )


def render_table(picture: TablePicture, art: CardArt, words: PictureWords) -> Image.Image:
    """The table picture as an RGB image, WIDTH pixels wide, with ``words`` for its text."""
    layout = _Layout(picture)
    canvas = _background(picture, layout, art.palette)
    draw = ImageDraw.Draw(canvas)
    _header(canvas, draw, picture, art, words)
    for index, seat in enumerate(picture.players):
        _seat(canvas, draw, picture, layout, index, seat, art, words)
    return canvas


def table_png(picture: TablePicture, art: CardArt, words: PictureWords) -> bytes:
    """The table picture as PNG bytes, palette-quantised to stay under MAX_BYTES."""
    image = render_table(picture, art, words)
    # Quantising and zlib are most of the time: a light zlib level first (half the encoding
    # time of the default, about 10% more bytes); fewer colours and full zlib only past the
    # limit, which no table measured in bench/cards.py reaches.
    for colors, level in ((256, 3), (128, 9), (64, 9)):
        out = io.BytesIO()
        quantized = image.quantize(colors, method=Image.Quantize.FASTOCTREE)
        quantized.save(out, "PNG", compress_level=level)
        if out.tell() <= MAX_BYTES:
            break
    return out.getvalue()


def warm(art: CardArt, words: CardWords = ENGLISH_CARD_WORDS, part: int = 0, parts: int = 1) -> int:
    """Draw (or load from disk) every card a table picture can use, faces printed with
    ``words``, so no player waits for a first drawing; returns how many pictures are now in
    memory. Run it off the event loop. Other languages' faces are drawn on first use.

    With ``parts``, only share ``part`` of the faces (the backs go with share 0), so the work
    can be handed out in pieces that can be called off between them."""
    pictures = 0
    for face, side in all_faces()[part::parts]:
        art.face_image(face, side, TOP_HEIGHT, words)
        art.face_image(face, side, PILE_HEIGHT, words)
        pictures += 2
        for _, height, _ in MINI_SIZES:
            art.mini_image(face, side, height)
            pictures += 1
    if part != 0:
        return pictures
    for back in Back:
        art.back_image(back, PILE_HEIGHT)
        pictures += 1
    for _, height, _ in MINI_SIZES:
        art.mini_image(None, None, height)
        pictures += 1
    return pictures


# ---------------------------------------------------------------------- layout


class _Layout:
    """Where every seat's cell goes: one column up to 3 players, two beyond."""

    def __init__(self, picture: TablePicture) -> None:
        count = len(picture.players)
        self.columns = 1 if count <= 3 else 2
        self.cell_width = (WIDTH - 2 * PAD - (self.columns - 1) * PAD // 2) // self.columns
        self.fan_width = self.cell_width - 28
        _, self.mini, self.step = next(size for size in MINI_SIZES if count <= size[0])
        self.mini_width = round(self.mini / 1.5)
        self.lines = [self._fan_lines(seat) for seat in picture.players]
        rows = -(-count // self.columns)
        self.row_heights = [
            max(
                self._cell_height(self.lines[i])
                for i in range(r * self.columns, min(count, (r + 1) * self.columns))
            )
            for r in range(rows)
        ]
        self.height = HEADER + sum(self.row_heights) + PAD // 2 * rows + PAD // 2

    def _fan_lines(self, seat: SeatPicture) -> int:
        shown = len(seat.backs) if seat.backs is not None else min(seat.count, 1)
        if shown == 0:
            return 0
        per_line = (self.fan_width - self.mini_width) // self.step + 1
        return min(FAN_LINES, -(-shown // per_line)) if seat.backs is not None else 1

    def _cell_height(self, lines: int) -> int:
        return 52 + lines * (self.mini + 6) + (6 if lines else 0)

    def cell(self, index: int) -> tuple[int, int, int, int]:
        """The (x, y, width, height) of seat ``index``'s cell."""
        row, column = divmod(index, self.columns)
        x = PAD + column * (self.cell_width + PAD // 2)
        y = HEADER + sum(self.row_heights[:row]) + PAD // 2 * row
        return x, y, self.cell_width, self.row_heights[row]


def _next_seat(picture: TablePicture) -> int | None:
    current = next((i for i, s in enumerate(picture.players) if s.is_current), None)
    if current is None or len(picture.players) < 2:
        return None
    return (current + picture.direction) % len(picture.players)


# ---------------------------------------------------------------------- drawing


def _background(picture: TablePicture, layout: _Layout, palette: Palette) -> Image.Image:
    """Felt, cells and the fixed shapes, drawn supersampled so their edges are smooth."""
    s = BACKGROUND_SAMPLES
    theme = THEMES[picture.side]
    big = Image.new("RGB", (WIDTH * s, layout.height * s), theme.felt)
    draw = ImageDraw.Draw(big)
    following = _next_seat(picture)
    for index, seat in enumerate(picture.players):
        x, y, w, h = layout.cell(index)
        box = (x * s, y * s, (x + w) * s, (y + h) * s)
        if seat.is_current:
            draw.rounded_rectangle(box, 14 * s, fill=theme.current)
            inner = (box[0] + 4 * s, box[1] + 4 * s, box[2] - 4 * s, box[3] - 4 * s)
            draw.rounded_rectangle(inner, 11 * s, fill=theme.current_cell)
        else:
            draw.rounded_rectangle(box, 14 * s, fill=theme.cell)
        if index == following:
            draw.rounded_rectangle(box, 14 * s, outline=theme.muted, width=2 * s)
    # The colour in play: a swatch with its shape, so it reads without colour vision.
    sx, sy = 360, 34
    fill = palette.fill(picture.color) if picture.color is not None else (90, 90, 96)
    draw.rounded_rectangle((sx * s, sy * s, (sx + 250) * s, (sy + 64) * s), 14 * s, fill=fill)
    draw.rounded_rectangle(
        (sx * s, sy * s, (sx + 250) * s, (sy + 64) * s), 14 * s, outline=INK, width=3 * s
    )
    if picture.color is not None:
        shape = SHAPES[picture.color]
        for radius, colour in ((22, INK), (17, WHITE)):
            mask = shape_mask(shape, radius * s)
            big.paste(colour, ((sx + 36 - radius) * s, (sy + 32 - radius) * s), mask)
    # The top card's halo in the colour in play, edged so it stands out from any table.
    draw.rounded_rectangle((152 * s, 8 * s, 308 * s, 242 * s), 19 * s, fill=INK)
    draw.rounded_rectangle((154 * s, 10 * s, 306 * s, 240 * s), 18 * s, fill=fill)
    return big.reduce(s)


def _direction_icon(direction: int, color: RGB, r: int = 24) -> Image.Image:
    """A circular arrow: clockwise for direction 1, its mirror image for -1."""
    s = SUPERSAMPLE
    size = (2 * r + 24) * s
    icon = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(icon)
    c = size / 2
    draw.arc((c - r * s, c - r * s, c + r * s, c + r * s), 20, 320, fill=color, width=7 * s)
    end = math.radians(320)
    ex, ey = c + r * s * math.cos(end), c + r * s * math.sin(end)
    tangent = end + math.pi / 2
    normal = tangent + math.pi / 2
    tip = (ex + 14 * s * math.cos(tangent), ey + 14 * s * math.sin(tangent))
    left = (ex + 12 * s * math.cos(normal), ey + 12 * s * math.sin(normal))
    right = (ex - 12 * s * math.cos(normal), ey - 12 * s * math.sin(normal))
    draw.polygon([tip, left, right], fill=color)
    icon = icon.reduce(s)
    return icon if direction == 1 else icon.transpose(Image.Transpose.FLIP_LEFT_RIGHT)


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    face: Font,
    fill: RGB = WHITE,
    anchor: str = "lm",
    stroke: int = 0,
) -> None:
    draw.text(xy, text, font=face, fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=INK)


def _word(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    width: int,
    fill: RGB = WHITE,
    anchor: str = "lm",
    stroke: int = 0,
) -> float:
    """Draw one of the picture's words at most ``width`` wide; returns its drawn width."""
    shown, face = fitted_text(text, size, width)
    _text(draw, xy, shown, face, fill, anchor, stroke)
    return face.getlength(shown)


def _paste(canvas: Image.Image, image: Image.Image, x: int, y: int) -> None:
    canvas.paste(image, (x, y), image)


def _header(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    picture: TablePicture,
    art: CardArt,
    words: PictureWords,
) -> None:
    theme = THEMES[picture.side]
    entry = variant_entry(picture.variant)
    flip = entry.double_sided
    back_side = Side.LIGHT if picture.side is Side.DARK else Side.DARK
    # The draw pile: in Flip its top card's other side is public; otherwise a plain back.
    if picture.draw_pile_count and flip and picture.draw_pile_back is not None:
        pile = art.face_image(picture.draw_pile_back, back_side, PILE_HEIGHT, words.cards)
    elif picture.draw_pile_count:
        pile = art.back_image(
            Back(back_side.name.lower()) if flip else Back(entry.art), PILE_HEIGHT
        )
    else:
        pile = None
    if pile is not None:
        _paste(canvas, pile, PAD + 4, 26)
    else:
        draw.rounded_rectangle((PAD + 4, 26, PAD + 114, 191), 10, outline=theme.muted, width=3)
    _word(draw, (PAD + 59, 214), words.draw_pile, 24, 130, theme.text, "mm", theme.stroke)
    top = art.face_image(picture.top, picture.side, TOP_HEIGHT, words.cards)
    _paste(canvas, top, 160, 16)
    # Beside the colour's shape in the swatch, or centred in it when no colour is named yet.
    if picture.color is not None:
        _word(draw, (430, 66), words.color, 32, 170, anchor="lm", stroke=3)
    else:
        _word(draw, (485, 66), words.color, 32, 230, anchor="mm", stroke=3)
    icon = _direction_icon(picture.direction, theme.text)
    _paste(canvas, icon, 385 - icon.width // 2, 142 - icon.height // 2)
    _word(draw, (422, 142), words.direction, 28, WIDTH - PAD - 422, theme.text, stroke=theme.stroke)
    following = _next_seat(picture)
    if following is not None:
        seat = picture.players[following]
        face, width = name_font(26), WIDTH - PAD - 360
        room = width - face.getlength(drawable(words.next.format(name=""), face))
        fallback = words.player.format(number=following + 1)
        label = words.next.format(name=safe_name(seat.name, face, room, fallback))
        _word(draw, (360, 208), label, 26, width, theme.muted, stroke=theme.stroke)
    if flip:
        dark = picture.side is Side.DARK
        paper, ink = (INK, WHITE) if dark else (WHITE, INK)
        draw.rounded_rectangle((630, 38, 780, 94), 16, fill=paper, outline=ink, width=2)
        _word(draw, (705, 66), words.side, 22, 136, ink, "mm")


def _seat(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    picture: TablePicture,
    layout: _Layout,
    index: int,
    seat: SeatPicture,
    art: CardArt,
    words: PictureWords,
) -> None:
    theme = THEMES[picture.side]
    x, y, w, _ = layout.cell(index)
    count_text, count_font = fitted_text(words.counts[index], 28, w // 2)
    count_width = count_font.getlength(count_text)
    uno = seat.said_uno and seat.count == 1
    name_x = x + 14
    if seat.is_current:
        marker = [(x + 14, y + 13), (x + 14, y + 41), (x + 36, y + 27)]
        draw.polygon(marker, fill=theme.current, outline=INK)
        name_x = x + 44
    room = x + w - 16 - count_width - 14 - (70 if uno else 0) - name_x
    label = safe_name(seat.name, name_font(26), room, words.player.format(number=index + 1))
    _text(draw, (name_x, y + 27), label, name_font(26), theme.text, stroke=theme.stroke)
    _text(draw, (x + w - 16, y + 27), count_text, count_font, theme.text, "rm", theme.stroke)
    if uno:
        ux = x + w - 16 - count_width - 76
        draw.rounded_rectangle((ux, y + 12, ux + 64, y + 42), 12, fill=(220, 40, 40))
        _word(draw, (ux + 32, y + 27), words.uno, 20, 58, WHITE, "mm")
    _fan(canvas, picture, layout, index, seat, art, x + 14, y + 52)


def _fan(
    canvas: Image.Image,
    picture: TablePicture,
    layout: _Layout,
    index: int,
    seat: SeatPicture,
    art: CardArt,
    x: int,
    y: int,
) -> None:
    """The seat's cards fanned: the backs everyone sees (Flip), or plain backs (classic)."""
    lines = layout.lines[index]
    if not lines:
        return
    back_side = Side.LIGHT if picture.side is Side.DARK else Side.DARK
    minis: Sequence[Image.Image]
    if seat.backs is not None:
        faces = sorted(seat.backs, key=sort_key)
        minis = [art.mini_image(face, back_side, layout.mini) for face in faces]
    else:
        minis = [art.mini_image(None, None, layout.mini)] * min(seat.count, 30)
    per_line = -(-len(minis) // lines)
    step = min(layout.step, (layout.fan_width - layout.mini_width) / max(1, per_line - 1))
    for i, mini in enumerate(minis):
        line, position = divmod(i, per_line)
        _paste(canvas, mini, x + round(position * step), y + line * (layout.mini + 6))
