"""The AI bench's round loop: seeded rounds repeat exactly, and endless ones are cut off."""

from __future__ import annotations

import random

import pytest

import bench.ai
from bench.ai import PLAYERS, hero_against, play_round, play_seeded_round
from bot.ai import EasyStrategy, NormalStrategy
from bot.engine import Game, Move, dumps, view_for
from bot.engine.moves import DRAW


def _normal_everywhere() -> bench.ai.Decide:
    return hero_against(NormalStrategy(), NormalStrategy(), PLAYERS[0])


def test_a_seeded_round_plays_to_the_end_and_repeats_exactly() -> None:
    """Same seed and index, same moves: the same winner and the same points."""
    first = play_seeded_round("classic", 3, 5, _normal_everywhere())
    again = play_seeded_round("classic", 3, 5, _normal_everywhere())
    other = play_seeded_round("classic", 4, 5, _normal_everywhere())
    assert first is not None and again is not None and other is not None
    assert first.history[-1] == again.history[-1]
    assert dumps(first) == dumps(again)
    assert dumps(first) != dumps(other)


def test_a_round_that_never_ends_is_reported_unfinished(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past MAX_DECISIONS the loop gives up: None, and the tally counts it unfinished."""
    monkeypatch.setattr(bench.ai, "MAX_DECISIONS", 5)

    def always_draw(game: Game, player: str, rng: random.Random) -> Move:
        return (
            DRAW
            if DRAW in game.legal_moves(player)
            else EasyStrategy().choose_move(view_for(game, player), rng)
        )

    assert play_seeded_round("flip", 0, 1, always_draw) is None
    tally = play_round("normal", "easy", "flip", 0, 1)
    assert tally.rounds == 1 and tally.unfinished == 1 and tally.hero_wins == 0


def test_the_hero_sits_at_index_mod_4_and_only_its_decisions_are_timed_as_its() -> None:
    """Round 6 seats the hero at p2: it alone decides for p2, and hero_times counts exactly
    its decisions."""
    asked: list[str] = []
    normal, easy = NormalStrategy(), EasyStrategy()
    inner = hero_against(normal, easy, PLAYERS[2])

    def recording(game: Game, player: str, rng: random.Random) -> Move:
        asked.append(player)
        return inner(game, player, rng)

    assert play_seeded_round("classic", 6, 7, recording) is not None
    tally = play_round("normal", "easy", "classic", 6, 7)
    assert tally.unfinished == 0
    assert len(tally.hero_times) == asked.count(PLAYERS[2])
    assert len(tally.other_times) == len(asked) - asked.count(PLAYERS[2])
