"""The public table's text fits a phone (issue 15, issue 31): at most 12 lines with four players
and 18 with ten, at every turn of seeded random rounds (both variants, every language, names at
Discord's longest, a turn timer running), with one line per player. With the picture (the
default) the lines are counted as a phone shows them, wrapped at 262 px (tests/ui/screen_lines.py);
a text-only table counts its lines of text."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from datetime import timedelta

import discord
import pytest

from bot.engine import view_for
from bot.engine.game import TERMINAL_PHASES
from bot.table import TableState
from bot.ui import render
from bot.ui.i18n import Lang, languages
from bot.ui.words import card_label, narrate
from tests.bot.test_render_limits import NOW, playing_table
from tests.ui.screen_lines import screen_lines

# The limits, written out rather than read from render.table_line_budget.
MOST_LINES = {4: 12, 10: 18}
QUICK_SEEDS = range(1)
SLOW_SEEDS = range(1, 6)
QUICK_TURNS = 150
SLOW_TURNS = 400


def tables_of_a_round(state: TableState, seed: int, steps: int) -> Iterator[render.Rendered]:
    """The public table at each of the first ``steps`` turns of a random round."""
    game = state.game
    assert game is not None
    lang = Lang(state.options.language)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.phase in TERMINAL_PHASES:
            return
        state.start_turn_timer(NOW + timedelta(seconds=state.options.turn_timeout))
        yield render.public_message(state, lang)
        current = game.current_player
        assert current is not None
        events = state.play(current, rng.choice(game.legal_moves(current)))
        state.record(narrate(lang, events, state.name), current, turn_move=True)


def check_rounds(
    players: int, variant: str, seeds: range, steps: int, *, pictures: bool = True
) -> int:
    """Play a round per seed and check every table drawn; how many were checked."""
    checked = 0
    count = screen_lines if pictures else render.embed_lines
    for seed in seeds:
        for lang in languages() if pictures else [languages()[seed % len(languages())]]:
            checked += _check_round(players, variant, seed, steps, lang, pictures, count)
    return checked


def _check_round(
    players: int,
    variant: str,
    seed: int,
    steps: int,
    lang: Lang,
    pictures: bool,
    count: Callable[[discord.Embed], int],
) -> int:
    checked = 0
    state = playing_table(players, variant, seed, lang)
    state.options = state.options.model_copy(update={"pictures": pictures})
    for shown in tables_of_a_round(state, seed, steps):
        embed = shown.embed
        assert count(embed) <= MOST_LINES[players], embed.to_dict()
        seat_lines = embed.fields[0].value or ""
        assert len(seat_lines.splitlines()) == players  # nobody is cut off
        assert seat_lines.count("▶ ") == 1  # whose turn it is
        checked += 1
    return checked


@pytest.mark.parametrize("players", [4, 10])
@pytest.mark.parametrize("variant", ["flip", "classic"])
def test_the_table_fits_its_lines(players: int, variant: str) -> None:
    """Every table of a seeded round (its first 150 turns) stays within the phone's screen
    lines, in every language."""
    assert check_rounds(players, variant, QUICK_SEEDS, QUICK_TURNS) > 10


@pytest.mark.parametrize("players", [4, 10])
@pytest.mark.parametrize("variant", ["flip", "classic"])
def test_a_text_only_table_fits_its_lines_of_text(players: int, variant: str) -> None:
    """Without the picture (its backs in the text), the table keeps to the lines of text."""
    assert check_rounds(players, variant, QUICK_SEEDS, QUICK_TURNS, pictures=False) > 10


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 10])
@pytest.mark.parametrize("variant", ["flip", "classic"])
def test_the_table_fits_its_lines_over_many_rounds(players: int, variant: str) -> None:
    """The same over five more seeded rounds (400 turns each) per table size and variant."""
    assert check_rounds(players, variant, SLOW_SEEDS, SLOW_TURNS) > 100


def test_the_line_budget_grows_one_line_a_player_past_four() -> None:
    """12 lines up to four players, 18 at ten."""
    assert [render.table_line_budget(n) for n in (2, 4, 5, 10)] == [12, 12, 13, 18]


@pytest.mark.parametrize("lang", languages())
def test_every_player_keeps_a_line_with_forty_card_hands(lang: Lang) -> None:
    """Ten Flip players holding 40 cards each: every seat's line is there, within the limit."""
    state = playing_table(10, "flip", 3, lang)
    game = state.game
    assert game is not None
    for seat in range(10):
        for _ in range(33):
            if game.draw_pile:
                game.hands[seat].append(game.draw_pile.pop())
    embed = render.public_message(state, lang).embed
    assert render.embed_lines(embed) <= 18
    seat_lines = (embed.fields[0].value or "").splitlines()
    assert len(seat_lines) == 10 and all(len(line) <= 1024 // 10 for line in seat_lines)


def test_every_distinct_card_is_a_button_on_some_page() -> None:
    """A hand's buttons, over all its pages, show every distinct card it holds."""
    state = playing_table(2, "classic", 5)
    game = state.game
    assert game is not None
    player = game.players[0]
    hand = game.hands[0]
    while len(hand) < 60 and game.draw_pile:
        hand.append(game.draw_pile.pop())
    view = view_for(game, player)
    faces = {h.face for h in view.hand}
    seen: set[str] = set()
    for page in range(6):
        shown = render.hand_message(state, view, state.serial, page, None, Lang("en"))
        assert shown.view is not None
        seen |= {str(item.item.label) for item in shown.view.children}  # type: ignore[attr-defined]
    names = {label.split(" ×")[0] for label in seen}
    assert {card_label(Lang("en"), face) for face in faces} <= names
