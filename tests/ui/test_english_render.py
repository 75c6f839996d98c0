"""In English the bot draws exactly what it drew before it had catalogs.

The digest below was recorded with the English-only helpers (``render.public_message`` and
``hand_message`` without a language, ``text.narrate``) over the seeded walk in ``walk``: the
lobby with and without a computer player, then the table and every hand at each step of three
games (UNO Flip; classic with stacking and jump-in; classic Seven-O with the swap-hands deck),
1,956 messages: content, embed and buttons (labels and custom_ids). The full record is a few
megabytes, so only its SHA-256 is kept; a mismatch means an English text changed.

Re-recorded for issue 15's shorter table and hand (one line per player, the hand's cards only
as buttons, "Anna 🤖"), the buttons' colours (yellow and wild cards blurple, "Keep it" ✋) and
the lobby's line naming the rules that differ (issue 17): tests/ui/test_table_text.py,
tests/bot/test_table_text.py and tests/bot/test_pictures.py pin those one by one. Re-recorded for
issue 31's turn line ("▶ **Anna** to play" first, the seat list headed "Next: Ben") and the one
spelling "Wild Draw Colour" (with "Colour" turned back to "Color", the digest is 6aa589bd...),
and the table fitted to a phone beside its picture (names cut, the picture's facts left to it):
tests/ui/test_table_glance.py and tests/ui/test_table_text.py pin them. Re-recorded
when games changed generator (issue 29: PCG32, so each seed deals other cards; no text changed).
"""

from __future__ import annotations

import hashlib
import json
import random
from datetime import UTC, datetime
from typing import Any

from bot.engine import RuleSet, view_for
from bot.engine.game import TERMINAL_PHASES
from bot.options import TableOptions
from bot.table import Seat, TableState
from bot.ui import render, words
from bot.ui.i18n import ENGLISH
from bot.ui.render import Rendered
from bot.ui.respond import safe_name

RECORDED = "fb11732b3e968b91695693f0d39aa35b0073a6141776abeb5b1afbfcd90dc328"
NOW = datetime(2026, 1, 1, tzinfo=UTC)
GAMES = (
    (RuleSet(variant="flip"), 3, 11),
    (RuleSet(variant="classic", stacking=True, jump_in=True), 4, 12),
    (RuleSet(variant="classic", seven_o=True, edition="swap_hands"), 3, 13),
)


def payload(shown: Rendered) -> list[Any]:
    """What Discord receives of a message: content, embed, component rows."""
    rows = shown.view.to_components() if shown.view is not None else []
    return [shown.content, shown.embed.to_dict(), rows]


def walk(steps: int = 150) -> list[list[Any]]:
    """Every message of the seeded walk, drawn in English."""
    out: list[list[Any]] = []
    for rules, players, seed in GAMES:
        seats = [Seat(str(10**17 + i), ["anna", "ben", "cara", "dan"][i]) for i in range(players)]
        options = TableOptions(rules=rules, ai_difficulty="hard")
        state = TableState("abcdef0123", 1, 2, seats[0], options, NOW)
        for seat in seats[1:]:
            state.seat(seat)
        state.add_ai("hard")
        out.append(payload(render.public_message(state, ENGLISH)))
        state.drop_ai(state.host_id)
        out.append(payload(render.public_message(state, ENGLISH)))
        names = {s.player_id: safe_name(s.name) for s in seats}
        started = state.start(state.host_id, seed, names)
        state.log.extend(words.narrate(ENGLISH, started, names.__getitem__))
        game = state.game
        assert game is not None
        rng = random.Random(seed)
        for _ in range(steps):
            out.append(payload(render.public_message(state, ENGLISH)))
            if game.phase in TERMINAL_PHASES:
                break
            for player in game.players:
                hand = render.hand_message(
                    state, view_for(game, player), state.serial, 0, None, ENGLISH
                )
                out.append(payload(hand))
            current = game.current_player
            assert current is not None
            events = state.play(current, rng.choice(game.legal_moves(current)))
            state.record(words.narrate(ENGLISH, events, state.name), current, turn_move=True)
    return out


def test_english_messages_are_drawn_as_before() -> None:
    """Lobby, table and hands of the seeded walk match the recorded English byte for byte."""
    shown = walk()
    assert len(shown) == 1956
    text = json.dumps(shown, ensure_ascii=False, default=str)
    assert hashlib.sha256(text.encode()).hexdigest() == RECORDED
