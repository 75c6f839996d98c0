"""The lapses bench: its opponents really draw with a playable card, and its rounds finish."""

from __future__ import annotations

import random

import pytest

from bench.ai_lapses import LapsingNormal, play_rounds
from bot.ai import knowledge, montecarlo
from bot.ai.table import Table
from bot.engine import Game, RuleSet, view_for
from bot.engine.moves import DRAW, PlayCard


def test_a_lapsing_player_draws_although_a_card_could_be_played() -> None:
    """With lapse 1 a playable hand still draws; with lapse 0 it plays like normal."""
    game = Game.new(["a", "b", "c", "d"], RuleSet(variant="classic"), seed=3)
    player = game.current_player
    assert player is not None
    table = Table(view_for(game, player))
    assert table.plays, "the seed must deal a playable hand"
    assert LapsingNormal(lapse=1.0).play_or_draw(table, random.Random(1)) is DRAW
    assert isinstance(LapsingNormal(lapse=0.0).play_or_draw(table, random.Random(1)), PlayCard)


@pytest.mark.parametrize("blind", [False, True])
def test_rounds_finish_with_and_without_reading(
    blind: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two rounds finish for either hero (the blind one's patch is undone after the test)."""
    monkeypatch.setattr(knowledge, "read_hand", knowledge.read_hand)
    monkeypatch.setattr(montecarlo, "read_hand", knowledge.read_hand)
    wins, finished = play_rounds((0.2, blind, "classic", 0, 2, 1))
    assert finished == 2 and 0 <= wins <= 2
