"""Dealt tables for the render tests, and a seeded game rendered message by message to its end."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from bot.engine import PlayCard, RuleSet, view_for
from bot.engine.game import TERMINAL_PHASES
from bot.options import TableOptions
from bot.table import Seat, TableState
from bot.ui import render, words
from bot.ui.i18n import ENGLISH, Lang
from bot.ui.respond import safe_name

NOW = datetime(2026, 1, 1, tzinfo=UTC)
NAMES = ["anna", "ben", "cara", "dan", "eve", "finn", "gus", "hana", "ivo", "jo"]


def started_table(rules: RuleSet, players: int, seed: int, lang: Lang = ENGLISH) -> TableState:
    """A table of ``players`` people playing ``rules``, dealt with ``seed``."""
    seats = [Seat(str(10**17 + i), NAMES[i]) for i in range(players)]
    state = TableState("abcdef0123", 1, 2, seats[0], TableOptions(rules=rules), NOW)
    for seat in seats[1:]:
        state.seat(seat)
    names = {s.player_id: safe_name(s.name) for s in seats}
    started = state.start(state.host_id, seed, names)
    state.log.extend(words.narrate(lang, started, names.__getitem__))
    return state


def render_to_the_end(
    state: TableState, lang: Lang, seed: int, most_moves: int, *, prefer_plays: bool = False
) -> None:
    """Play ``state``'s game by seeded random moves (a card whenever one can be played, with
    ``prefer_plays``, so that games of every card playing on every card end), rendering the
    public table and every hand before each move; fails if the game has not ended by then."""
    game = state.game
    assert game is not None
    rng = random.Random(seed)
    for _ in range(most_moves):
        render.public_message(state, lang)
        if game.phase in TERMINAL_PHASES:
            break
        for player in game.players:
            render.hand_message(state, view_for(game, player), state.serial, 0, None, lang)
        current = game.current_player
        assert current is not None
        legal = game.legal_moves(current)
        plays = [move for move in legal if isinstance(move, PlayCard)] if prefer_plays else []
        events = state.play(current, rng.choice(plays or legal))
        state.record(words.narrate(lang, events, state.name), current, turn_move=True)
    assert game.phase in TERMINAL_PHASES
