"""The package's API: strategy_for, catching forgotten UNO calls, seeded determinism."""

from __future__ import annotations

import random

import pytest

from bot.ai import DIFFICULTIES, strategy_for, wants_to_catch
from bot.engine import RuleSet, view_for
from bot.engine.moves import Catch, PlayCard
from bot.engine.notation import setup
from tests.ai.helpers import STRATEGIES, decisions


def _forgot_uno_view() -> object:
    """ "a" plays down to one card without calling; the view of "b", who may catch them."""
    game = setup({"a": "R2 G4", "b": "Y1 Y2 Y3", "c": "B1 B2 B3"}, "R5")
    red = next(c for c in game.hand("a") if game.face(c).number == 2)
    game.apply("a", PlayCard(red))
    return view_for(game, "b")


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_strategy_for_names_its_difficulty(difficulty: str) -> None:
    """Each difficulty name gives a strategy reporting that name."""
    assert strategy_for(difficulty).difficulty == difficulty  # type: ignore[arg-type]


def test_strategy_for_rejects_unknown_names() -> None:
    """An unknown difficulty is an error, not a silent default."""
    with pytest.raises(ValueError):
        strategy_for("expert")  # type: ignore[arg-type]


def test_catches_a_forgotten_uno_at_full_rate() -> None:
    """With catch rate 1 the forgetful player is always caught."""
    view = _forgot_uno_view()
    assert wants_to_catch(view, random.Random(0), 1.0) == Catch("a")  # type: ignore[arg-type]


def test_never_catches_at_zero_rate() -> None:
    """With catch rate 0 nobody is ever caught."""
    view = _forgot_uno_view()
    assert wants_to_catch(view, random.Random(0), 0.0) is None  # type: ignore[arg-type]


def test_catch_rate_is_a_probability() -> None:
    """At rate 0.5 some of many tries catch and some do not."""
    view = _forgot_uno_view()
    rng = random.Random(4)
    caught = sum(wants_to_catch(view, rng, 0.5) is not None for _ in range(200))  # type: ignore[arg-type]
    assert 50 < caught < 150


def test_seeded_games_replay_exactly() -> None:
    """The same seeds give the same sequence of moves for every strategy."""
    seats = [STRATEGIES["hard"], STRATEGIES["normal"], STRATEGIES["easy"]]

    def moves() -> list[object]:
        return [
            player.choose_move(view, random.Random(i))
            for i, (_, view, player, _) in enumerate(
                decisions(RuleSet(variant="flip"), 11, seats, 150)
            )
        ]

    assert moves() == moves()
