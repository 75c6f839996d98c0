"""Every message the bot can draw stays within Discord's limits: a property test renders the
table and hands at every step of random games (both variants, 2 to 10 players, hostile
names, every language), and checks each payload the way Discord would."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import RuleSet, view_for
from bot.engine.game import TERMINAL_PHASES
from bot.options import TableOptions
from bot.table import Seat, TableState
from bot.ui import render
from bot.ui.i18n import ENGLISH, Lang, languages
from bot.ui.render import Rendered
from bot.ui.respond import safe_name
from bot.ui.words import narrate

from .conftest import _check_like_discord

# Discord's longest display name (32) full of markdown, to push every line to its limit.
HOSTILE_NAMES = ["*_`~|>#[x](y)@everyone**__||", "W" * 32, "🃏" * 16, "a", "\\" * 32]
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def check_payload(shown: Rendered) -> None:
    """Raise as Discord would (400) for a message it refuses."""
    _check_like_discord([shown.embed.to_dict()])
    assert shown.content is None or len(shown.content) <= 2000
    if shown.view is None:
        return
    rows = shown.view.to_components()
    assert len(rows) <= 5
    for row in rows:
        assert len(row["components"]) <= 5
        for button in row["components"]:
            assert len(button.get("custom_id", "")) <= 100
            label = button.get("label")
            assert label is None or 1 <= len(label) <= 80


def playing_table(players: int, variant: str, seed: int, lang: Lang = ENGLISH) -> TableState:
    """A table with a dealt game and no Discord behind it: drawing is pure."""
    seats = [Seat(str(10**17 + i), HOSTILE_NAMES[i % len(HOSTILE_NAMES)]) for i in range(players)]
    options = TableOptions(rules=RuleSet(variant=variant), language=lang)
    state = TableState("abcdef0123", 1, 2, seats[0], options, NOW)
    for seat in seats[1:]:
        state.seat(seat)
    names = {s.player_id: safe_name(s.name) for s in seats}
    state.log.extend(narrate(lang, state.start(state.host_id, seed, names), names.__getitem__))
    return state


def play_and_render(state: TableState, seed: int, steps: int = 200) -> int:
    """Play random legal moves, rendering the table and two hands at every step (in the
    table's language)."""
    lang = Lang(state.options.language)
    game = state.game
    assert game is not None
    rng = random.Random(seed)
    rendered = 0
    for _ in range(steps):
        check_payload(render.public_message(state, lang))
        rendered += 1
        if game.phase in TERMINAL_PHASES:
            break
        current = game.current_player
        assert current is not None
        onlooker = rng.choice(game.players)
        for player in {current, onlooker}:
            view = view_for(game, player)
            page = rng.randint(0, 3)
            check_payload(render.hand_message(state, view, state.serial, page, None, lang))
            rendered += 1
        events = state.play(current, rng.choice(game.legal_moves(current)))
        state.record(narrate(lang, events, state.name), current, turn_move=True)
    return rendered


@settings(
    max_examples=5,
    deadline=None,
    derandomize=True,
)
@given(
    players=st.integers(min_value=2, max_value=10),
    variant=st.sampled_from(["flip", "classic"]),
    seed=st.integers(min_value=0, max_value=2**31),
    lang=st.sampled_from(languages()),
)
def test_every_rendered_message_is_one_discord_accepts(
    players: int, variant: str, seed: int, lang: Lang
) -> None:
    """Tables and hands at every step of a random round pass Discord's checks."""
    assert play_and_render(playing_table(players, variant, seed, lang), seed) > 0


@pytest.mark.slow
@pytest.mark.parametrize("first_seed", range(0, 24, 6))
@pytest.mark.parametrize("variant", ["flip", "classic"])
def test_every_rendered_message_over_many_rounds(variant: str, first_seed: int) -> None:
    """The same over 24 seeded rounds per variant (six in each language), up to 10 players.

    Six rounds a test, so a parallel run (``pytest -n``) spreads the soak over its workers.
    """
    for seed in range(first_seed, first_seed + 6):
        lang = languages()[seed % len(languages())]
        play_and_render(playing_table(2 + seed % 9, variant, seed, lang), seed, steps=1500)


@pytest.mark.parametrize("lang", languages())
def test_a_round_over_message_with_ten_full_hands_fits(lang: Lang) -> None:
    """Ten players each holding many cards still make one valid table and hands."""
    state = playing_table(10, "flip", 7, lang)
    game = state.game
    assert game is not None
    for _ in range(30):  # everyone draws a lot first
        for seat in range(len(game.players)):
            if game.draw_pile:
                game.hands[seat].append(game.draw_pile.pop())
    check_payload(render.public_message(state, lang))
    for player in game.players:
        view = view_for(game, player)
        check_payload(render.hand_message(state, view, state.serial, 0, None, lang))
