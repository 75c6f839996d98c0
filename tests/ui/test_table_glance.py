"""The table at a glance (issue 31): whose turn it is, named first, and until when."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from PIL import Image, ImageStat

from bench.cards import sample_table
from bot.engine import Game, RuleSet, public_view, view_for
from bot.engine import events as ev
from bot.engine.cards import Color, Face, Kind, Side
from bot.ui import render
from bot.ui.cards import CardArt, DrawnReport, TablePicture, render_table, table_picture
from bot.ui.cards.table import CURRENT_RING
from bot.ui.i18n import ENGLISH, Lang, languages
from bot.ui.words import picture_words
from tests.bot.test_render_limits import playing_table

DEADLINE = datetime(2026, 5, 1, 12, 0, 40, tzinfo=UTC)
# The least difference in grey level (0-255) between the current seat's border and any other's.
GRAYSCALE_CONTRAST = 40
RED_1, RED_2, RED_3 = (Face(Color.RED, Kind.NUMBER, n) for n in (1, 2, 3))


def drawn(picture: TablePicture, lang: Lang = ENGLISH) -> tuple[Image.Image, DrawnReport]:
    """The picture and what its drawing reported."""
    report = DrawnReport([], [])
    image = render_table(picture, CardArt(), picture_words(lang, picture), report)
    return image, report


def border_grey(image: Image.Image, cell: tuple[int, int, int, int]) -> float:
    """The mean grey level of a cell's border band (its outer CURRENT_RING pixels, corners left
    out)."""
    x, y, w, h = cell
    band = [
        image.crop((x + 20, y, x + w - 20, y + CURRENT_RING)),
        image.crop((x + 20, y + h - CURRENT_RING, x + w - 20, y + h)),
        image.crop((x, y + 20, x + CURRENT_RING, y + h - 20)),
        image.crop((x + w - CURRENT_RING, y + 20, x + w, y + h - 20)),
    ]
    total = sum(ImageStat.Stat(part).sum[0] for part in band)
    return total / sum(part.width * part.height for part in band)


@pytest.mark.parametrize("side", [Side.LIGHT, Side.DARK])
@pytest.mark.parametrize("players", [2, 4, 10])
def test_the_current_seats_border_survives_grayscale(side: Side, players: int) -> None:
    """In grayscale the current seat's border differs clearly from every other seat's (the next
    seat's included)."""
    picture = sample_table("flip", players, 7)
    picture = replace(picture, side=side)
    image, report = drawn(picture)
    grey = image.convert("L")
    current = next(i for i, seat in enumerate(picture.players) if seat.is_current)
    mine = border_grey(grey, report.cells[current])
    for index, cell in enumerate(report.cells):
        if index != current:
            assert abs(border_grey(grey, cell) - mine) >= GRAYSCALE_CONTRAST, index


@pytest.mark.parametrize("lang", languages())
def test_the_picture_names_the_current_player_largest_and_then_the_next(lang: Lang) -> None:
    """The header's largest name is the player to move; the next player is named below it."""
    picture = sample_table("flip", 4, 7)
    _, report = drawn(picture, lang)
    current = next(seat.name for seat in picture.players if seat.is_current)
    names = [text for text in report.texts if text.text in {s.name for s in picture.players}]
    assert max(names, key=lambda text: text.size).text == current
    header = [text for text in report.texts if text.box[1] < report.cells[0][1]]
    turn = next(text for text in header if text.text == current)
    following = next(text for text in header if picture.players[2].name in text.text)
    assert turn.size > following.size and turn.box[3] <= following.box[1]


@pytest.mark.parametrize("lang", languages())
def test_the_turn_line_names_the_current_player_first(lang: Lang) -> None:
    """The table's first line starts with ▶ and the player to move in bold."""
    state = playing_table(4, "flip", 3, lang)
    assert state.game is not None
    current = render.short_name(state)(state.game.current_player or "")
    description = render.public_message(state, lang).embed.description or ""
    first = description.splitlines()[0]
    assert first.startswith("▶ ")
    assert f"**{current}**" in first


def test_the_turn_line_carries_the_deadline_while_a_timer_runs() -> None:
    """With a turn timer running, the turn line ends with Discord's relative timestamp."""
    state = playing_table(4, "classic", 3)
    state.start_turn_timer(DEADLINE)
    first = (render.public_message(state, ENGLISH).embed.description or "").splitlines()[0]
    assert first.endswith(f"<t:{int(DEADLINE.timestamp())}:R>")


def test_no_deadline_is_shown_without_a_timer_or_after_the_turn() -> None:
    """No timer (a computer's turn), or a timer of an earlier turn: no timestamp."""
    state = playing_table(4, "classic", 3)
    assert "<t:" not in (render.public_message(state, ENGLISH).embed.description or "")
    state.start_turn_timer(DEADLINE)
    state.serial += 1  # the turn the timer was for is over
    assert "<t:" not in (render.public_message(state, ENGLISH).embed.description or "")
    state.start_turn_timer(DEADLINE + timedelta(seconds=60))
    state.start_turn_timer(None)
    assert state.turn_deadline is None


@pytest.mark.parametrize("lang", languages())
def test_the_seat_list_is_headed_by_the_next_player(lang: Lang) -> None:
    """The players' field names who plays after the current player."""
    state = playing_table(4, "flip", 3, lang)
    assert state.game is not None
    view = public_view(state.game)
    order = list(view.seats)
    following = order[(order.index(view.current_player or "") + view.direction) % len(order)]
    heading = render.public_message(state, lang).embed.fields[0].name or ""
    assert render.short_name(state)(following) in heading


def test_the_picture_takes_the_last_move_from_its_events() -> None:
    """Who drew how many and whose turn was skipped come from the move's events, by seat."""
    game = Game.new(["a", "b", "c"], RuleSet(variant="classic"), seed=5)
    events: list[ev.Event] = [ev.CardsDrawn("b", 2, "Draw Two"), ev.TurnSkipped("b")]
    picture = table_picture(public_view(game), str, events)
    assert picture.drew == ((1, 2),) and picture.skipped == (1,)
    assert table_picture(public_view(game), str).drew == ()


def test_the_picture_shows_the_two_cards_played_before_the_top() -> None:
    """The one or two discards under the top card, oldest first."""
    game = Game.new(["a", "b", "c"], RuleSet(variant="classic"), seed=5)
    view = replace(public_view(game), discards=(RED_1, RED_2, RED_3, game.top_face()))
    assert table_picture(view, str).previous == (RED_2, RED_3)


def test_the_last_move_is_drawn_on_the_seat_it_hit() -> None:
    """A "+2" badge is drawn in the cell of the player who drew, and the picture changes with
    a skip mark and the previous discards."""
    base = sample_table("classic", 4, 7)
    marked = replace(base, drew=((2, 2),))
    _, report = drawn(marked)
    (badge,) = [text for text in report.texts if text.text == "+2"]
    x, y, w, h = report.cells[2]
    assert x <= badge.box[0] and badge.box[2] <= x + w and y <= badge.box[1] <= y + h
    plain = drawn(base)[0].tobytes()
    assert drawn(replace(base, skipped=(2,)))[0].tobytes() != plain
    assert drawn(replace(base, previous=(RED_1, RED_2)))[0].tobytes() != plain


def test_a_turn_move_is_kept_as_the_last_move_and_an_uno_call_is_not() -> None:
    """The table keeps a turn move's events; an UNO call (no turn move) leaves them."""
    state = playing_table(2, "classic", 3)
    events = [ev.TurnSkipped(state.seats[1].player_id)]
    state.record([], None, turn_move=True, events=events)
    state.record([], None, turn_move=False, events=[ev.UnoCalled(state.seats[0].player_id)])
    assert state.last_events == tuple(events)


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Anna", "Anna"),
        ("W" * 32, "WWWWWW…"),
        ("🃏" * 10, "🃏🃏🃏🃏…"),
        ("anna-maria k", "anna-maria…"),
    ],
)
def test_a_long_name_is_cut_to_a_phone_line(name: str, shown: str) -> None:
    """Names in the table's text are cut by their width: wide letters and emoji count more."""
    assert render.cut_name(name) == shown


def test_beside_the_picture_the_text_leaves_it_the_backs_and_the_pile() -> None:
    """With the picture, the text shows no backs, no draw pile line and no direction; a
    text-only table shows them."""
    state = playing_table(4, "flip", 3)
    pictured = render.public_message(state, ENGLISH).embed
    assert "backs:" not in (pictured.fields[0].value or "")
    assert "Draw pile" not in (pictured.description or "")
    state.options = state.options.model_copy(update={"pictures": False})
    text_only = render.public_message(state, ENGLISH).embed
    assert "backs:" in (text_only.fields[0].value or "")
    assert "Draw pile" in (text_only.description or "")


def test_the_hand_of_the_player_to_move_shows_when_the_turn_ends() -> None:
    """The mover's hand carries the countdown; another player's hand does not."""
    state = playing_table(2, "classic", 3)
    game = state.game
    assert game is not None
    state.start_turn_timer(DEADLINE)
    stamp = f"<t:{int(DEADLINE.timestamp())}:R>"
    mover = game.current_player or ""
    other = next(p for p in game.players if p != mover)
    for player, shown in ((mover, True), (other, False)):
        view = view_for(game, player)
        hand = render.hand_message(state, view, state.serial, 0, None, ENGLISH)
        assert (stamp in (hand.embed.description or "")) is shown
