"""All Wild and Junior drawn on Discord: whole seeded games render every table and hand, in
English and Finnish, to their end."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from bot.engine import PlayCard, RuleSet, view_for
from bot.engine.game import TERMINAL_PHASES
from bot.options import TableOptions
from bot.table import Seat, TableState
from bot.ui import render, words
from bot.ui.i18n import ENGLISH, Lang
from bot.ui.respond import safe_name

NOW = datetime(2026, 1, 1, tzinfo=UTC)
NAMES = ["anna", "ben", "cara", "dan"]
RULES = [
    RuleSet(variant="allwild", target=100),
    RuleSet.model_validate({"variant": "junior", "level": 2}),
]


def started_table(rules: RuleSet, players: int, seed: int, lang: Lang) -> TableState:
    """A table of ``players`` people playing ``rules``, dealt."""
    seats = [Seat(str(10**17 + i), NAMES[i]) for i in range(players)]
    state = TableState("abcdef0123", 1, 2, seats[0], TableOptions(rules=rules), NOW)
    for seat in seats[1:]:
        state.seat(seat)
    names = {s.player_id: safe_name(s.name) for s in seats}
    started = state.start(state.host_id, seed, names)
    state.log.extend(words.narrate(lang, started, names.__getitem__))
    return state


@pytest.mark.parametrize("lang", [ENGLISH, Lang("fi")])
@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.variant)
def test_a_game_renders_every_message_to_its_end(rules: RuleSet, lang: Lang) -> None:
    """Every public table and every hand of seeded games of 2 to 4 (a card played whenever one
    can be, so the games end) draws within limits."""
    for seed in range(3):
        state = started_table(rules, 2 + seed, seed, lang)
        game = state.game
        assert game is not None
        rng = random.Random(seed)
        for _ in range(600):
            render.public_message(state, lang)
            if game.phase in TERMINAL_PHASES:
                break
            for player in game.players:
                render.hand_message(state, view_for(game, player), state.serial, 0, None, lang)
            current = game.current_player
            assert current is not None
            legal = game.legal_moves(current)
            plays = [move for move in legal if isinstance(move, PlayCard)]
            events = state.play(current, rng.choice(plays or legal))
            state.record(words.narrate(lang, events, state.name), current, turn_move=True)
        assert game.phase in TERMINAL_PHASES
