"""No Mercy drawn on Discord: whole seeded games render in English and Finnish, and the table
shows who is knocked out."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from bot.engine import RuleSet, Side, view_for
from bot.engine.decks import all_cards
from bot.engine.game import TERMINAL_PHASES
from bot.engine.variants import VARIANTS
from bot.options import TableOptions
from bot.table import Seat, TableState
from bot.ui import render, words
from bot.ui.i18n import ENGLISH, Lang
from bot.ui.respond import safe_name

NOW = datetime(2026, 1, 1, tzinfo=UTC)
NAMES = ["anna", "ben", "cara", "dan", "eve", "finn"]


def started_table(players: int, seed: int, lang: Lang = ENGLISH) -> TableState:
    """A No Mercy table of ``players`` people, dealt."""
    seats = [Seat(str(10**17 + i), NAMES[i]) for i in range(players)]
    options = TableOptions(rules=RuleSet(variant="nomercy"))
    state = TableState("abcdef0123", 1, 2, seats[0], options, NOW)
    for seat in seats[1:]:
        state.seat(seat)
    names = {s.player_id: safe_name(s.name) for s in seats}
    started = state.start(state.host_id, seed, names)
    state.log.extend(words.narrate(lang, started, names.__getitem__))
    return state


@pytest.mark.parametrize("lang", [ENGLISH, Lang("fi")])
def test_a_six_player_game_renders_every_message_to_its_end(lang: Lang) -> None:
    """Every public table and every hand of seeded six-player games draws within limits."""
    for seed in range(3):
        state = started_table(6, seed, lang)
        game = state.game
        assert game is not None
        rng = random.Random(seed)
        for _ in range(400):
            render.public_message(state, lang)
            if game.phase in TERMINAL_PHASES:
                break
            for player in game.players:
                render.hand_message(state, view_for(game, player), state.serial, 0, None, lang)
            current = game.current_player
            assert current is not None
            events = state.play(current, rng.choice(game.legal_moves(current)))
            state.record(words.narrate(lang, events, state.name), current, turn_move=True)
        assert game.phase in TERMINAL_PHASES


def test_the_table_shows_a_knocked_out_player_and_their_set_aside_cards() -> None:
    """Struck through, with the Mercy rule named and the count set aside; no card count."""
    state = started_table(3, 1)
    game = state.game
    assert game is not None
    ben = game.players[1]
    game.knocked_out = [1]
    game.set_aside[1], game.hands[1] = game.hands[1], []
    shown = render.public_message(state, ENGLISH).embed.to_dict()
    text = str(shown)
    assert "💀 ~~ben~~ — knocked out by the Mercy rule · 7 cards set aside" in text
    assert game.legal_moves(ben) == []


def test_every_face_of_every_deck_has_a_short_form() -> None:
    """The dense lists (Flip backs, discards) can show every card of every variant."""
    for entry in VARIANTS.values():
        for card in all_cards(entry):
            for side in range(entry.deck.sides):
                assert render.short_face(card.face(Side(side)))
