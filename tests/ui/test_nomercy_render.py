"""No Mercy drawn on Discord: whole seeded games render in English and Finnish, and the table
shows who is knocked out."""

from __future__ import annotations

import pytest

from bot.engine import RuleSet, Side
from bot.engine.decks import all_cards
from bot.engine.variants import VARIANTS
from bot.ui import render
from bot.ui.i18n import ENGLISH, Lang

from .tables import render_to_the_end, started_table

NO_MERCY = RuleSet(variant="nomercy")


@pytest.mark.parametrize("lang", [ENGLISH, Lang("fi")])
def test_a_six_player_game_renders_every_message_to_its_end(lang: Lang) -> None:
    """Every public table and every hand of seeded six-player games draws within limits."""
    for seed in range(3):
        state = started_table(NO_MERCY, 6, seed, lang)
        render_to_the_end(state, lang, seed, 400)


def test_the_table_shows_a_knocked_out_player_and_their_set_aside_cards() -> None:
    """Struck through, with the Mercy rule named and the count set aside; no card count."""
    state = started_table(NO_MERCY, 3, 1)
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
