"""The round-end picture: every hand left, face up, with the points each card gave.

What players do at a real table when a round ends: everyone lays their hand down and counts.
Each seat shows its cards sorted by the points they gave (the big ones first), the number under
each card, the hand's total and the points the round awarded; the winner is marked, and a No
Mercy player knocked out of the hand shows as such (the cards they set aside are not scored).

Built from pure inputs (``RoundEndPicture``, made by ``round_end_picture`` from the engine's
state), like the table picture, and drawn in the same process, cached the same way.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.engine.cards import Face, Side
from bot.engine.scoring import face_points
from bot.engine.variants import variant as variant_entry
from bot.engine.view import PlayerView

from ..text import sort_key
from .cache import CardArt
from .draw import CardWords, Family
from .names import name_font, safe_name
from .palette import INK, RGB, WHITE
from .table import (
    BACKGROUND_SAMPLES,
    CURRENT_EDGE,
    CURRENT_RING,
    PAD,
    THEMES,
    WIDTH,
    WORD,
    DrawnReport,
    _inset,
    _paste,
    _ReportingDraw,
    _text,
    _word,
    picture_png,
)

# As the table picture (docs/table-picture.md): 600 px wide, words of at least WORD px, and at
# most 25 words tall, so every word shows at 12 px or more in Discord's 400x300 desktop box and
# on a 262 px phone. The layout picks the roomiest arrangement that stays within MAX_HEIGHT.
MAX_HEIGHT = 25 * WORD
TITLE_ROW = 40  # "Round 3" and, in Flip, the side that was scored
TITLE_WORD = 32
NAME_ROW = 36  # a seat's name, its awarded points and its hand's total
LABEL_ROW = 28  # the points under a card
LINE_GAP = 2  # between lines of cards
ROW_GAP = 4  # between rows of seats
NOTE_ROW = 40  # the winner's badge and award; a knocked-out seat's badge, its cards set aside
CARD_GAP = 4  # between cards (or piles of cards) side by side
LABEL_GAP = 12  # at least this between two labels, so "50" and "3×20" never read as "503×20"
PILE_STEP = 0.42  # a pile's cards overlap down to this share of a card's width (the corner)
WINNER: RGB = (40, 140, 70)  # the winner's ring and badge
AWARDED: RGB = (30, 110, 55)  # the badge of points the round awarded
KNOCKED: RGB = (150, 30, 30)  # a knocked-out seat's badge
CARD_RATIO = 1.5  # a card's height over its width


@dataclass(frozen=True, slots=True)
class HandShown:
    """One seat at the round's end: the cards left in hand, each with the points it gave, the
    hand's total and what the round awarded the seat."""

    name: str
    cards: tuple[tuple[Face, int], ...]
    total: int
    awarded: int = 0
    winner: bool = False
    knocked_out: bool = False
    set_aside: int = 0  # No Mercy: the cards a knocked-out player set aside (not scored)


@dataclass(frozen=True, slots=True)
class RoundEndPicture:
    """Everything the round-end picture shows, in seat order."""

    variant: str
    side: Side  # the side the hands were scored on (Flip: the side that was up)
    round_no: int
    hands: tuple[HandShown, ...]


@dataclass(frozen=True, slots=True)
class RoundEndWords:
    """The round-end picture's words in the table's language (from the catalogs, by the caller:
    this module reads none). ``lang`` keeps two languages from sharing a cached picture."""

    lang: str
    title: str  # "Round 3"
    side: str  # "Light side scored" (Flip), or "" for a single-sided deck
    went_out: str  # the winner's badge when their hand is empty
    last_in: str  # the winner's badge when they won as the last player not knocked out
    knocked_out: str  # a knocked-out seat's badge
    set_aside: tuple[str, ...]  # per seat: "18 cards set aside, not scored", or ""
    player: str  # "Player {number}": a seat whose name has nothing drawable
    cards: CardWords  # the words printed on the card faces


def round_end_picture(
    view: PlayerView,
    hands: Iterable[tuple[str, Sequence[Face], int]],
    name: Callable[[str], str],
) -> RoundEndPicture:
    """The picture's inputs from a view at a round's end (its result, who was knocked out and
    what they set aside) and every seat's hand as it ended, in seat order: (player, faces on
    the side scored, the hand's points), as ``final_hands()`` of a table gives them."""
    result = view.last_round
    if result is None:
        raise ValueError("no round has ended")
    aside = dict(view.set_aside)
    out = set(view.knocked_out)
    shown = []
    for player, faces, total in hands:
        cards = tuple((face, face_points(face, view.variant)) for face in faces)
        shown.append(
            HandShown(
                name=name(player),
                cards=_counting_order(cards),
                total=result.hand_points.get(player, total),
                awarded=result.awarded.get(player, 0),
                winner=player == result.winner,
                knocked_out=player in out,
                set_aside=aside.get(player, 0) if player in out else 0,
            )
        )
    return RoundEndPicture(view.variant, result.side, result.round_no, tuple(shown))


def _counting_order(cards: Iterable[tuple[Face, int]]) -> tuple[tuple[Face, int], ...]:
    """The cards as they are counted: most points first, alike cards side by side."""
    return tuple(sorted(cards, key=lambda card: (-card[1], sort_key(card[0]))))


# ---------------------------------------------------------------------- layout


@dataclass(frozen=True, slots=True)
class _Pile:
    """Cards laid down together with one label under them: one card with its points, or (when
    room is short) alike-scoring cards overlapping, labelled with count, times sign, points."""

    faces: tuple[Face, ...]
    points: int
    label: str
    width: int


@dataclass(frozen=True, slots=True)
class _Arrangement:
    """One way of laying the hands out: columns of seats, card height, cards piled or not, and
    whether each seat goes under the shorter column (``stacked``) rather than in rows."""

    columns: int
    card: int
    piled: bool
    stacked: bool = False


# The arrangements tried, roomiest first: big cards each with its own number; smaller ones;
# then cards of equal points piled under one label; last, seats stacked down two columns, so
# a short hand beside a long one leaves no hole (many players: the seats read left, right,
# then under whichever column is shorter).
ARRANGEMENTS = (
    _Arrangement(1, 84, False),
    _Arrangement(2, 84, False),
    _Arrangement(1, 63, False),
    _Arrangement(2, 63, False),
    _Arrangement(2, 63, True),
    _Arrangement(2, 48, True),
    _Arrangement(2, 48, True, stacked=True),
    _Arrangement(2, 40, True, stacked=True),
    _Arrangement(2, 34, True, stacked=True),
)


class _Layout:
    """Where every seat, card and label goes in one arrangement."""

    def __init__(self, picture: RoundEndPicture, arrangement: _Arrangement) -> None:
        self.arrangement = arrangement
        self.columns = min(arrangement.columns, max(1, len(picture.hands)))
        self.card = arrangement.card
        self.card_width = round(self.card / CARD_RATIO)
        self.cell_width = (WIDTH - 2 * PAD - (self.columns - 1) * PAD) // self.columns
        self.inner = self.cell_width - 2 * CURRENT_RING - 4
        self.lines = [self._wrap(self._piles(hand, arrangement.piled)) for hand in picture.hands]
        heights = [
            self._cell_height(hand, lines)
            for hand, lines in zip(picture.hands, self.lines, strict=True)
        ]
        self.cells: list[tuple[int, int, int, int]] = []
        tops = [TITLE_ROW] * self.columns
        for index, height in enumerate(heights):
            if arrangement.stacked:
                column = min(range(self.columns), key=lambda c: (tops[c], c))
            else:
                column = index % self.columns
                if column == 0:  # a new row starts under the tallest cell of the last
                    tops = [max(tops)] * self.columns
                # Every cell of a row is as tall as its tallest.
                row = heights[index - column : index - column + self.columns]
                height = max(row)
            x = PAD + column * (self.cell_width + PAD)
            self.cells.append((x, tops[column], self.cell_width, height))
            tops[column] += height + ROW_GAP
        self.height = max(tops) - ROW_GAP + PAD // 2

    def _piles(self, hand: HandShown, piled: bool) -> list[_Pile]:
        piles = []
        face = name_font(WORD)
        step = max(1, round(self.card_width * PILE_STEP))
        groups: Iterable[tuple[int, Iterable[tuple[Face, int]]]]
        if piled:
            groups = itertools.groupby(hand.cards, key=lambda card: card[1])
        else:
            groups = ((points, [(card, points)]) for card, points in hand.cards)
        for points, cards in groups:
            faces = tuple(card for card, _ in cards)
            label = str(points) if len(faces) == 1 else f"{len(faces)}×{points}"
            width = round(face.getlength(label))
            spread = self.card_width + (len(faces) - 1) * step
            piles.append(_Pile(faces, points, label, max(width + LABEL_GAP - CARD_GAP, spread)))
        return piles

    def _wrap(self, piles: list[_Pile]) -> list[list[_Pile]]:
        lines: list[list[_Pile]] = []
        used = 0
        for pile in piles:
            if not lines or used + CARD_GAP + pile.width > self.inner:
                lines.append([])
                used = -CARD_GAP
            lines[-1].append(pile)
            used += CARD_GAP + pile.width
        return lines

    def _cell_height(self, hand: HandShown, lines: list[list[_Pile]]) -> int:
        body = len(lines) * (self.card + LABEL_ROW + LINE_GAP)
        if hand.winner and not hand.cards:
            body += NOTE_ROW
        elif hand.winner or hand.knocked_out:
            # The badge, then the award (a winner still holding cards: No Mercy's last one in)
            # or the cards set aside on a line of their own: beside it, a narrow cell cuts them.
            body += 2 * NOTE_ROW
        return NAME_ROW + body + CURRENT_RING

    def cell(self, index: int) -> tuple[int, int, int, int]:
        """The (x, y, width, height) of seat ``index``'s cell."""
        return self.cells[index]


def choose_layout(picture: RoundEndPicture) -> _Layout:
    """The roomiest arrangement whose picture is at most MAX_HEIGHT tall; if none is (ten
    players each holding a long hand), the shortest one."""
    layouts = []
    for arrangement in ARRANGEMENTS:
        layout = _Layout(picture, arrangement)
        if layout.height <= MAX_HEIGHT:
            return layout
        layouts.append(layout)
    return min(layouts, key=lambda layout: layout.height)


# ---------------------------------------------------------------------- drawing


def render_round_end(
    picture: RoundEndPicture,
    art: CardArt,
    words: RoundEndWords,
    report: DrawnReport | None = None,
) -> Image.Image:
    """The round-end picture as an RGB image, WIDTH pixels wide; ``report``, when given, is
    filled with every word drawn and every seat's cell."""
    layout = choose_layout(picture)
    canvas = _background(picture, layout)
    draw = ImageDraw.Draw(canvas) if report is None else _ReportingDraw(canvas, report.texts)
    if report is not None:
        report.cells.extend(layout.cell(index) for index in range(len(picture.hands)))
    theme = THEMES[picture.side]
    middle = TITLE_ROW // 2 + 2
    title_width = WIDTH - 2 * PAD
    if words.side:
        # The side gets what the title leaves (the title is short: "Round 12").
        room = title_width - round(name_font(TITLE_WORD).getlength(words.title)) - 2 * PAD
        side_width = _word(
            draw,
            (WIDTH - PAD, middle),
            words.side,
            WORD,
            max(room, title_width // 2),
            theme.muted,
            "rm",
            theme.stroke,
        )
        title_width -= round(side_width) + PAD
    _word(draw, (PAD, middle), words.title, TITLE_WORD, title_width, theme.text, "lm", theme.stroke)
    family = Family(variant_entry(picture.variant).art)
    for index, hand in enumerate(picture.hands):
        _seat(canvas, draw, picture, layout, index, hand, art, words, family)
    return canvas


def round_end_png(picture: RoundEndPicture, art: CardArt, words: RoundEndWords) -> bytes:
    """The round-end picture as PNG bytes, palette-quantised to stay under MAX_BYTES."""
    return picture_png(render_round_end(picture, art, words))


def _background(picture: RoundEndPicture, layout: _Layout) -> Image.Image:
    """The felt and the seats' cells (the winner's in a ring), drawn supersampled."""
    s = BACKGROUND_SAMPLES
    theme = THEMES[picture.side]
    big = Image.new("RGB", (WIDTH * s, layout.height * s), theme.felt)
    draw = ImageDraw.Draw(big)
    for index, hand in enumerate(picture.hands):
        x, y, w, h = layout.cell(index)
        box = (x * s, y * s, (x + w) * s, (y + h) * s)
        if hand.winner:
            # Like the player to move on the live table: an ink edge, then a ring, so the
            # winner stands out in grayscale too.
            draw.rounded_rectangle(box, 14 * s, fill=INK)
            draw.rounded_rectangle(_inset(box, CURRENT_EDGE * s), 12 * s, fill=WINNER)
            inner = _inset(box, CURRENT_RING * s)
            draw.rounded_rectangle(inner, 9 * s, fill=theme.current_cell)
        else:
            draw.rounded_rectangle(box, 14 * s, fill=theme.cell)
    return big.reduce(s)


def _badge(draw: ImageDraw.ImageDraw, right: int, row: int, text: str, fill: RGB, room: int) -> int:
    """A rounded badge of ``text`` ending at ``right``, centred on ``row``; returns its left."""
    face = name_font(WORD)
    width = min(room, round(face.getlength(text)) + 16)
    left = right - width
    draw.rounded_rectangle((left, row - 17, right, row + 17), 10, fill=fill, outline=INK, width=2)
    _word(draw, ((left + right) / 2, row), text, WORD, width - 10, WHITE, "mm")
    return left


def _seat(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    picture: RoundEndPicture,
    layout: _Layout,
    index: int,
    hand: HandShown,
    art: CardArt,
    words: RoundEndWords,
    family: Family,
) -> None:
    """A seat's cell: its name, the points awarded and the hand's total, then its cards with
    the points under each, and a note for the winner or a knocked-out player."""
    theme = THEMES[picture.side]
    x, y, w, _ = layout.cell(index)
    row = y + CURRENT_RING + (NAME_ROW - CURRENT_RING) // 2
    left = x + CURRENT_RING + 6
    right = x + w - CURRENT_RING - 6
    face = name_font(WORD)
    if not (hand.winner and not hand.cards):  # a hand that went out has nothing to total
        total = f"Σ {hand.total}"
        _text(draw, (right, row), total, face, theme.text, "rm", theme.stroke)
        right -= round(face.getlength(total)) + 8
    if hand.awarded and not (hand.winner and hand.cards):  # that winner's award: in the note
        right = _badge(draw, right, row, f"+{hand.awarded}", AWARDED, right - left) - 8
    fallback = words.player.format(number=index + 1)
    label = safe_name(hand.name, face, right - left, fallback)
    colour = theme.muted if hand.knocked_out else theme.text
    _text(draw, (left, row), label, face, colour, stroke=theme.stroke)
    if hand.knocked_out:
        # Struck through, as the table's text strikes the name of a knocked-out player.
        width = face.getlength(label)
        draw.line((left, row + 2, left + width, row + 2), fill=colour, width=3)
    top = y + NAME_ROW
    for line in layout.lines[index]:
        _line(canvas, draw, picture, layout, line, left, top, art, words, family)
        top += layout.card + LABEL_ROW + LINE_GAP
    if hand.knocked_out or hand.winner:
        _note(draw, picture, hand, index, words, left, x + w - CURRENT_RING - 6, top)


def _line(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    picture: RoundEndPicture,
    layout: _Layout,
    line: list[_Pile],
    x: int,
    y: int,
    art: CardArt,
    words: RoundEndWords,
    family: Family,
) -> None:
    """One line of a hand: each pile of cards face up, its points under it."""
    theme = THEMES[picture.side]
    step = max(1, round(layout.card_width * PILE_STEP))
    face = name_font(WORD)
    for pile in line:
        spread = layout.card_width + (len(pile.faces) - 1) * step
        start = x + (pile.width - spread) // 2
        for i, card in enumerate(pile.faces):
            image = art.face_image(card, picture.side, layout.card, words.cards, family)
            _paste(canvas, image, start + i * step, y)
        middle = (x + pile.width / 2, y + layout.card + LABEL_ROW // 2 + 1)
        _text(draw, middle, pile.label, face, theme.text, "mm", theme.stroke)
        x += pile.width + CARD_GAP


def _note(
    draw: ImageDraw.ImageDraw,
    picture: RoundEndPicture,
    hand: HandShown,
    index: int,
    words: RoundEndWords,
    left: int,
    right: int,
    top: int,
) -> None:
    """The winner's badge ("went out"), or a knocked-out seat's badge and its cards set aside."""
    theme = THEMES[picture.side]
    row = top + NOTE_ROW // 2
    room = right - left
    if hand.winner:
        badge = words.went_out if not hand.cards else words.last_in
        _badge_left(draw, left, row, badge, WINNER, room)
        if hand.cards and hand.awarded:
            _badge_left(draw, left, row + NOTE_ROW, f"+{hand.awarded}", AWARDED, room)
        return
    _badge_left(draw, left, row, words.knocked_out, KNOCKED, room)
    aside = words.set_aside[index] if index < len(words.set_aside) else ""
    if aside:
        row += NOTE_ROW
        _word(draw, (left, row), aside, WORD, room, theme.muted, "lm", theme.stroke)


def _badge_left(
    draw: ImageDraw.ImageDraw, left: int, row: int, text: str, fill: RGB, room: int
) -> int:
    """A badge starting at ``left``; returns its right edge."""
    width = min(room, round(name_font(WORD).getlength(text)) + 16)
    return _badge(draw, left + width, row, text, fill, room) + width
