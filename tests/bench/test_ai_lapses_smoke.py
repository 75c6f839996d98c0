"""The lapses bench: its opponents really draw with a playable card, and its rounds finish."""

from __future__ import annotations

import random

import pytest

from bench.ai_lapses import BlindToTurns, LapsingNormal, play_rounds
from bot.ai import NormalStrategy
from bot.ai.knowledge import read_hand
from bot.ai.table import Table
from bot.engine import Game, Move, PlayerView, RuleSet, view_for
from bot.engine.moves import DRAW, PlayCard


def test_a_lapsing_player_draws_although_a_card_could_be_played() -> None:
    """With lapse 1 a playable hand still draws; with lapse 0 it plays like normal."""
    game = Game.new(["a", "b", "c", "d"], RuleSet(variant="classic"), seed=4)
    player = game.current_player
    assert player is not None
    table = Table(view_for(game, player))
    assert table.plays, "the seed must deal a playable hand"
    assert LapsingNormal(lapse=1.0).play_or_draw(table, random.Random(1)) is DRAW
    assert isinstance(LapsingNormal(lapse=0.0).play_or_draw(table, random.Random(1)), PlayCard)


@pytest.mark.parametrize("blind", [False, True])
def test_rounds_finish_with_and_without_reading(blind: bool) -> None:
    """Two rounds finish for either hero."""
    wins, finished = play_rounds((0.2, blind, "classic", 0, 2, 1))
    assert finished == 2 and 0 <= wins <= 2


class Recorder:
    """A strategy that keeps the views it is asked about and plays their first legal move."""

    difficulty = "test"

    def __init__(self) -> None:
        self.views: list[PlayerView] = []

    def within(self, seconds: float) -> Recorder:
        return self

    def choose_move(self, view: PlayerView, rng: random.Random) -> Move:
        self.views.append(view)
        return view.legal_moves[0]


def test_the_blind_hero_decides_from_views_without_turns() -> None:
    """Turns that read_hand can read are in the view, and none reach the blind hero."""
    game = Game.new(["a", "b", "c", "d"], RuleSet(variant="classic"), seed=5)
    rng = random.Random(5)
    for _ in range(12):
        player = game.current_player
        assert player is not None
        game.apply(player, NormalStrategy().choose_move(view_for(game, player), rng))
    player = game.current_player
    assert player is not None
    view = view_for(game, player)
    assert any(read_hand(o, "classic") is not None for o in view.opponents)
    recorder = Recorder()
    BlindToTurns(recorder).choose_move(view, rng)
    (blind,) = recorder.views
    assert all(o.turns == () and read_hand(o, "classic") is None for o in blind.opponents)
    assert [o.card_count for o in blind.opponents] == [o.card_count for o in view.opponents]
