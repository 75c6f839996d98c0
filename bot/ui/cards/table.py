"""The public table as one picture: top card, colour, direction, every hand's count and backs.

Built from pure inputs (TablePicture), so it can be tested and benchmarked without Discord.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from bot.engine import events as ev
from bot.engine.cards import Color, Face, Side
from bot.engine.variants import variant as variant_entry
from bot.engine.view import PlayerView

from ..text import sort_key
from .cache import CardArt
from .catalog import all_family_faces
from .draw import ENGLISH_CARD_WORDS, SUPERSAMPLE, Back, CardWords, Family, shape_mask
from .names import Font, drawable, fit, fitted_text, name_font, safe_name
from .palette import INK, RGB, SHAPES, WHITE, Palette

# Discord shows the picture at most about 262 px wide on a phone and within 400x300 on a
# desktop (docs/table-picture.md): 600 px wide with words of at least WORD px keeps every word
# at 12 px or more on both, as long as the picture is at most 25 words tall.
WIDTH = 600
PAD = 12
HEADER = 210
WORD = 28  # the smallest word the picture draws (names, counts, badges, the header's lines)
TURN_WORD = 40  # the player to move, in the header


@dataclass(frozen=True, slots=True)
class _Sizes:
    """The card sizes of a layout: up to ``players`` players, the top card, the draw pile and
    the fanned cards (height, and the strip of each that stays visible when many overlap)."""

    players: int
    top: int
    pile: int
    mini: int
    strip: int


# Up to 6 players the cards are as large as the header and two columns allow; 7 to 10 get
# smaller ones so five rows of seats keep the picture at most 25 words tall.
SIZES = (_Sizes(6, 170, 120, 56, 15), _Sizes(10, 140, 100, 40, 11))
# The families whose fanned cards show a back of their own (Flip's show their other side).
_BACK_FAMILIES = (Family.CLASSIC, Family.NO_MERCY, Family.JUNIOR)


def _family(picture: TablePicture) -> Family:
    """The card-art family of the picture's variant (its registry entry says which)."""
    return Family(variant_entry(picture.variant).art)


NAME_ROW = 38  # a seat's name row, above its fanned cards
ROW_GAP = 6  # between rows of seats
FAN_LINES = 2  # at most this many fanned lines per hand; beyond, the step shrinks
FAN_SPREAD = 0.85  # the widest step of a fan, as a share of a fanned card's width
PREVIOUS_SHOWN = 2  # discards shown fanned out under the top card
# How the previous discards lie under the top card: turned (degrees) and moved right (pixels).
PREVIOUS_LIE = ((-8, 20), (-4, 11))
DECK_LAYERS = 3  # card edges drawn under the draw pile so it reads as a deck
DRAW_MARK: RGB = (200, 30, 30)  # the "+2" of a seat that just drew
MAX_BYTES = 100_000
# The current seat's ring: an ink edge this wide, then the turn colour up to CURRENT_RING.
CURRENT_EDGE = 3
CURRENT_RING = 8
# The header's right-hand column (its x follows the cards): the player to move, the colour in
# play, the direction, the next player and the draw pile's count, each a row at this y.
TURN_Y = 28
SWATCH_Y, SWATCH_HEIGHT = 50, 40
DIRECTION_Y = 114
NEXT_Y = 150
PILE_COUNT_Y = 186
PEEK = 36  # room right of the top card for the previous discards peeking out


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
    # What the last move did: the one or two cards played before the top (oldest first), who
    # drew how many (seat index, count) and whose turns were skipped (seat indexes).
    previous: tuple[Face, ...] = ()
    drew: tuple[tuple[int, int], ...] = ()
    skipped: tuple[int, ...] = ()


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
    uno: str  # the badge of a player who called UNO
    next: str  # "Next: {name}"
    player: str  # "Player {number}": a seat whose name has nothing drawable
    cards: CardWords  # the words printed on the top card and the Flip pile's face


@dataclass(frozen=True, slots=True)
class DrawnText:
    """One of the picture's words as drawn: its text, font size and box (pixels)."""

    text: str
    size: int
    box: tuple[int, int, int, int]


@dataclass(slots=True)
class DrawnReport:
    """What a drawing reports of itself, for the tests that measure it: every word drawn and
    every seat's cell (x, y, width, height)."""

    texts: list[DrawnText]
    cells: list[tuple[int, int, int, int]]


class _ReportingDraw(ImageDraw.ImageDraw):
    """An ImageDraw that notes each line of text it draws in ``texts``."""

    def __init__(self, image: Image.Image, texts: list[DrawnText]) -> None:
        super().__init__(image)
        self.texts = texts

    def text(
        self, xy: Any, text: Any, fill: Any = None, font: Any = None, *args: Any, **kwargs: Any
    ) -> None:
        """Draw the text, then note its box."""
        super().text(xy, text, fill, font, *args, **kwargs)
        anchor = kwargs.get("anchor")
        box = self.textbbox(xy, text, font=font, anchor=anchor)
        size = int(getattr(font, "size", 0))
        self.texts.append(DrawnText(str(text), size, tuple(round(v) for v in box)))  # type: ignore[arg-type]


def table_picture(
    view: PlayerView, name: Callable[[str], str], events: Sequence[ev.Event] = ()
) -> TablePicture:
    """The picture's inputs from a view (a spectator's or a player's: both are public here)
    and the last move's ``events`` (who drew, whose turn was skipped)."""
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
        previous=view.discards[-1 - PREVIOUS_SHOWN : -1],
        **_last_move(order, events),
    )


def _last_move(order: Sequence[str], events: Sequence[ev.Event]) -> dict[str, Any]:
    """The picture's marks of a move: cards drawn by seat, and the seats skipped."""
    seat = {player: index for index, player in enumerate(order)}
    drawn: dict[int, int] = {}
    skipped: list[int] = []
    for event in events:
        if isinstance(event, ev.CardsDrawn) and event.player in seat and event.count:
            index = seat[event.player]
            drawn[index] = drawn.get(index, 0) + event.count
        elif isinstance(event, ev.TurnSkipped) and event.player in seat:
            skipped.append(seat[event.player])
    return {"drew": tuple(drawn.items()), "skipped": tuple(dict.fromkeys(skipped))}


def render_table(
    picture: TablePicture, art: CardArt, words: PictureWords, report: DrawnReport | None = None
) -> Image.Image:
    """The table picture as an RGB image, WIDTH pixels wide, with ``words`` for its text;
    ``report``, when given, is filled with every word drawn and every seat's cell."""
    layout = _Layout(picture)
    canvas = _background(picture, layout, art.palette)
    draw = ImageDraw.Draw(canvas) if report is None else _ReportingDraw(canvas, report.texts)
    if report is not None:
        report.cells.extend(layout.cell(index) for index in range(len(picture.players)))
    _header(canvas, draw, picture, layout, art, words)
    for index, seat in enumerate(picture.players):
        _seat(canvas, draw, picture, layout, index, seat, art, words)
    return canvas


def table_png(picture: TablePicture, art: CardArt, words: PictureWords) -> bytes:
    """The table picture as PNG bytes, palette-quantised to stay under MAX_BYTES."""
    return picture_png(render_table(picture, art, words))


def picture_png(image: Image.Image) -> bytes:
    """A drawn picture (the table's, the round end's) as PNG bytes, under MAX_BYTES."""
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
    for face, side, family in all_family_faces()[part::parts]:
        for sizes in SIZES:
            art.face_image(face, side, sizes.top, words, family)
            art.face_image(face, side, sizes.pile, words, family)
            art.mini_image(face, side, sizes.mini, family)
            pictures += 3
    if part != 0:
        return pictures
    for sizes in SIZES:
        for back in Back:
            art.back_image(back, sizes.pile)
            pictures += 1
        for family in _BACK_FAMILIES:
            art.mini_image(None, None, sizes.mini, family)
            pictures += 1
    return pictures


# ---------------------------------------------------------------------- layout


class _Layout:
    """Where everything goes, chosen by the number of players: one column of seats up to 3
    players, two beyond; from 7 players smaller cards so five rows stay short."""

    def __init__(self, picture: TablePicture) -> None:
        count = len(picture.players)
        self.sizes = next(sizes for sizes in SIZES if count <= sizes.players)
        self.columns = 1 if count <= 3 else 2
        self.cell_width = (WIDTH - 2 * PAD - (self.columns - 1) * PAD) // self.columns
        self.fan_width = self.cell_width - 2 * CURRENT_RING - 8
        self.mini = self.sizes.mini
        self.step = self.sizes.strip
        self.mini_width = round(self.mini / 1.5)
        # The header: the deck, the top card (with room for the discards under it to peek
        # out), then the column of words.
        self.pile_x = PAD
        self.pile_width = round(self.sizes.pile / 1.5)
        self.top_x = PAD + self.pile_width + 3 * DECK_LAYERS + 8
        self.top_width = round(self.sizes.top / 1.5)
        self.column_x = self.top_x + self.top_width + PEEK
        self.lines = [self._fan_lines(seat) for seat in picture.players]
        rows = -(-count // self.columns)
        self.row_heights = [
            max(
                self._cell_height(self.lines[i])
                for i in range(r * self.columns, min(count, (r + 1) * self.columns))
            )
            for r in range(rows)
        ]
        self.height = HEADER + sum(self.row_heights) + ROW_GAP * rows

    def _fan_lines(self, seat: SeatPicture) -> int:
        shown = len(seat.backs) if seat.backs is not None else min(seat.count, 1)
        if shown == 0:
            return 0
        per_line = (self.fan_width - self.mini_width) // self.step + 1
        return min(FAN_LINES, -(-shown // per_line)) if seat.backs is not None else 1

    def _cell_height(self, lines: int) -> int:
        return NAME_ROW + lines * (self.mini + 4) + CURRENT_RING

    def cell(self, index: int) -> tuple[int, int, int, int]:
        """The (x, y, width, height) of seat ``index``'s cell."""
        row, column = divmod(index, self.columns)
        x = PAD + column * (self.cell_width + PAD)
        y = HEADER + sum(self.row_heights[:row]) + ROW_GAP * row
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
            # A thick ring that stands out from the felt by lightness, not hue alone, so the
            # player to move is found in grayscale too: an ink edge, then the turn colour.
            draw.rounded_rectangle(box, 14 * s, fill=INK)
            ring = _inset(box, CURRENT_EDGE * s)
            draw.rounded_rectangle(ring, 12 * s, fill=theme.current)
            inner = _inset(box, CURRENT_RING * s)
            draw.rounded_rectangle(inner, 9 * s, fill=theme.current_cell)
        else:
            draw.rounded_rectangle(box, 14 * s, fill=theme.cell)
        if index == following:
            draw.rounded_rectangle(box, 14 * s, outline=theme.muted, width=2 * s)
    # The colour in play: a swatch with its shape, so it reads without colour vision.
    sx, sy = layout.column_x, SWATCH_Y
    fill = palette.fill(picture.color) if picture.color is not None else (90, 90, 96)
    swatch = (sx * s, sy * s, (WIDTH - PAD) * s, (sy + SWATCH_HEIGHT) * s)
    draw.rounded_rectangle(swatch, 12 * s, fill=fill)
    draw.rounded_rectangle(swatch, 12 * s, outline=INK, width=3 * s)
    if picture.color is not None:
        shape = SHAPES[picture.color]
        middle = sy + SWATCH_HEIGHT // 2
        for radius, colour in ((15, INK), (11, WHITE)):
            mask = shape_mask(shape, radius * s)
            big.paste(colour, ((sx + 24 - radius) * s, (middle - radius) * s), mask)
    # The top card's halo in the colour in play, edged so it stands out from any table.
    tx, tw, th = layout.top_x, layout.top_width, layout.sizes.top
    draw.rounded_rectangle(
        ((tx - 7) * s, 5 * s, (tx + tw + 7) * s, (th + 21) * s), 17 * s, fill=INK
    )
    draw.rounded_rectangle(
        ((tx - 5) * s, 7 * s, (tx + tw + 5) * s, (th + 19) * s), 16 * s, fill=fill
    )
    return big.reduce(s)


def _inset(box: tuple[int, int, int, int], by: int) -> tuple[int, int, int, int]:
    return box[0] + by, box[1] + by, box[2] - by, box[3] - by


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
    """Draw one of the picture's words at most ``width`` wide, never smaller than WORD (cut
    with an ellipsis instead); returns its drawn width."""
    shown, face = fitted_text(text, size, width)
    if face.size < WORD:
        face = name_font(WORD)
        shown = fit(drawable(text, face), face, width)
    _text(draw, xy, shown, face, fill, anchor, stroke)
    return face.getlength(shown)


def _paste(canvas: Image.Image, image: Image.Image, x: int, y: int) -> None:
    canvas.paste(image, (x, y), image)


def _header(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    picture: TablePicture,
    layout: _Layout,
    art: CardArt,
    words: PictureWords,
) -> None:
    theme = THEMES[picture.side]
    entry = variant_entry(picture.variant)
    flip = entry.double_sided
    back_side = Side.LIGHT if picture.side is Side.DARK else Side.DARK
    height = layout.sizes.pile
    # The draw pile: in Flip its top card's other side is public; otherwise a plain back.
    if picture.draw_pile_count and flip and picture.draw_pile_back is not None:
        pile = art.face_image(picture.draw_pile_back, back_side, height, words.cards)
    elif picture.draw_pile_count:
        family = Family(entry.art)
        pile = art.back_image(Back(back_side.name.lower()) if flip else Back.of(family), height)
    else:
        pile = None
    px, py = layout.pile_x, 16
    if pile is not None:
        # A deck, not a card in play: the edges of the cards under its top show below it.
        for layer in range(min(DECK_LAYERS, picture.draw_pile_count - 1), 0, -1):
            shift = 3 * layer
            box = (
                px + shift,
                py + shift,
                px + shift + pile.width - 1,
                py + shift + pile.height - 1,
            )
            draw.rounded_rectangle(box, 8, fill=WHITE, outline=INK, width=2)
        _paste(canvas, pile, px, py)
    else:
        box = (px, py, px + layout.pile_width, py + height)
        draw.rounded_rectangle(box, 8, outline=theme.muted, width=3)
    # The one or two cards played before the top, turned and peeking out from under it.
    top_height = layout.sizes.top
    lies = PREVIOUS_LIE[-len(picture.previous) :] if picture.previous else ()
    for face, (angle, shift) in zip(picture.previous, lies, strict=True):
        under = art.face_image(face, picture.side, top_height, words.cards, _family(picture))
        turned = under.rotate(angle, Image.Resampling.BICUBIC, expand=True)
        cx, cy = layout.top_x + under.width // 2 + shift, 12 + under.height // 2 + 4
        _paste(canvas, turned, cx - turned.width // 2, cy - turned.height // 2)
    top = art.face_image(picture.top, picture.side, top_height, words.cards, _family(picture))
    _paste(canvas, top, layout.top_x, 12)
    # The column of words: who plays, the colour, the direction, who is next, the pile.
    x = layout.column_x
    width = WIDTH - PAD - x
    middle = SWATCH_Y + SWATCH_HEIGHT // 2
    if picture.color is not None:
        _word(draw, (x + 46, middle), words.color, WORD, width - 54, anchor="lm", stroke=3)
    else:
        _word(draw, (x + width // 2, middle), words.color, WORD, width - 12, anchor="mm", stroke=3)
    icon = _direction_icon(picture.direction, theme.text, 14)
    _paste(canvas, icon, x + 14 - icon.width // 2, DIRECTION_Y - icon.height // 2)
    direction = words.direction
    _word(draw, (x + 38, DIRECTION_Y), direction, WORD, width - 38, theme.text, stroke=theme.stroke)
    _turn(draw, picture, x, words)
    _word(draw, (x, PILE_COUNT_Y), words.draw_pile, WORD, width, theme.muted, stroke=theme.stroke)


def _turn(draw: ImageDraw.ImageDraw, picture: TablePicture, x: int, words: PictureWords) -> None:
    """The player to move, first and large ("▶ Bjørn"), and below, who follows ("Next: Åsa")."""
    theme = THEMES[picture.side]
    width = WIDTH - PAD - x
    current = next((i for i, seat in enumerate(picture.players) if seat.is_current), None)
    if current is not None:
        marker = [(x, TURN_Y - 14), (x, TURN_Y + 14), (x + 24, TURN_Y)]
        draw.polygon(marker, fill=theme.current, outline=INK, width=2)
        face = name_font(TURN_WORD)
        fallback = words.player.format(number=current + 1)
        label = safe_name(picture.players[current].name, face, width - 34, fallback)
        _text(draw, (x + 34, TURN_Y), label, face, theme.text, stroke=theme.stroke)
    following = _next_seat(picture)
    if following is not None:
        seat = picture.players[following]
        face = name_font(WORD)
        room = width - face.getlength(drawable(words.next.format(name=""), face))
        fallback = words.player.format(number=following + 1)
        label = words.next.format(name=safe_name(seat.name, face, room, fallback))
        _word(draw, (x, NEXT_Y), label, WORD, width, theme.muted, stroke=theme.stroke)


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
    """A seat's cell: its name, then at the right its badges (the cards just drawn, UNO) and
    its card count (a card and the number: the fanned cards say what is counted), then the
    fanned cards."""
    theme = THEMES[picture.side]
    x, y, w, h = layout.cell(index)
    row = y + CURRENT_RING + (NAME_ROW - CURRENT_RING) // 2
    count_face = name_font(WORD)
    count = str(seat.count)
    right = x + w - CURRENT_RING - 6
    _text(draw, (right, row), count, count_face, theme.text, "rm", theme.stroke)
    right -= round(count_face.getlength(count)) + 6
    _card_glyph(draw, right - 16, row, theme)
    right -= 28
    if seat.said_uno and seat.count == 1:
        right -= 78
        draw.rounded_rectangle((right, row - 15, right + 74, row + 15), 10, fill=(220, 40, 40))
        _word(draw, (right + 37, row), words.uno, WORD, 70, WHITE, "mm")
    drew = dict(picture.drew).get(index, 0)
    if drew:
        # What the last move gave this player: "+2", in the colour of a draw card's warning.
        right -= 66
        box = (right, row - 16, right + 62, row + 16)
        draw.rounded_rectangle(box, 10, fill=DRAW_MARK, outline=INK, width=2)
        _word(draw, (right + 31, row), f"+{drew}", WORD, 58, WHITE, "mm", 2)
    name_x = x + CURRENT_RING + 6
    if seat.is_current:
        marker = [(name_x, row - 11), (name_x, row + 11), (name_x + 18, row)]
        draw.polygon(marker, fill=theme.current, outline=INK)
        name_x += 24
    face = name_font(WORD)
    label = safe_name(seat.name, face, right - 8 - name_x, words.player.format(number=index + 1))
    _text(draw, (name_x, row), label, face, theme.text, stroke=theme.stroke)
    _fan(canvas, picture, layout, index, seat, art, x + CURRENT_RING + 4, y + NAME_ROW)
    if index in picture.skipped:
        _skip_mark(canvas, x + w - 44, y + NAME_ROW + (h - NAME_ROW) // 2, 24)


def _card_glyph(draw: ImageDraw.ImageDraw, cx: int, cy: int, theme: Theme) -> None:
    """A small upright card: what the number beside it counts."""
    box = (cx - 9, cy - 13, cx + 9, cy + 13)
    draw.rounded_rectangle(box, 4, fill=theme.cell, outline=theme.text, width=3)


def _skip_mark(canvas: Image.Image, cx: int, cy: int, r: int = 30) -> None:
    """A big ⊘ over a seat whose turn the last move skipped: red, edged in white and ink."""
    s = SUPERSAMPLE
    size = 2 * (r + 6) * s
    mark = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(mark)
    c = size / 2
    for width, colour in ((14, INK), (10, WHITE), (6, DRAW_MARK)):
        reach = (r - (14 - width) // 2) * s
        draw.ellipse((c - reach, c - reach, c + reach, c + reach), outline=colour, width=width * s)
        slant = reach * 0.7
        draw.line((c - slant, c + slant, c + slant, c - slant), fill=colour, width=width * s)
    mark = mark.reduce(s)
    canvas.paste(mark, (cx - mark.width // 2, cy - mark.height // 2), mark)


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
        back = art.mini_image(None, None, layout.mini, _family(picture))
        minis = [back] * min(seat.count, 30)
    per_line = -(-len(minis) // lines)
    # Spread to the cell: a few cards lie almost side by side (their signs whole), many
    # overlap down to the strip that still shows each sign.
    widest = layout.mini_width * FAN_SPREAD
    step = min(widest, (layout.fan_width - layout.mini_width) / max(1, per_line - 1))
    for i, mini in enumerate(minis):
        line, position = divmod(i, per_line)
        _paste(canvas, mini, x + round(position * step), y + line * (layout.mini + 6))
