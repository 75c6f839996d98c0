"""Computer players: strategies that decide from a ``PlayerView`` alone, never the Game.

Usage by the Discord layer::

    strategy = strategy_for("hard")
    move = strategy.choose_move(view_for(game, ai_id), rng)   # when it is the AI's decision
    catch = wants_to_catch(view_for(game, ai_id), rng, 0.5)   # any time someone forgot UNO

``choose_move`` calls UNO first when the AI holds two cards (call it again for the play), may
catch a player who forgot (with the strategy's ``catch_rate``), and always returns a move from
``view.legal_moves``.
"""

from __future__ import annotations

import random
from typing import Protocol

from bot.engine.moves import Move
from bot.engine.players import DIFFICULTIES, Difficulty
from bot.engine.view import PlayerView

from .easy import EasyStrategy
from .hard import HardStrategy
from .normal import NormalStrategy
from .table import DEFAULT_CATCH_RATE, wants_to_catch


class Strategy(Protocol):
    """A computer player's brain: one legal move for the decision the view is waiting on."""

    @property
    def difficulty(self) -> str:
        """The difficulty name shown next to the AI's name."""
        ...

    def choose_move(self, view: PlayerView, rng: random.Random) -> Move:
        """A move from ``view.legal_moves`` (ValueError if the view awaits nothing from us)."""
        ...

    def within(self, seconds: float) -> Strategy:
        """The same player taking at most ``seconds`` per decision (itself if it is quicker)."""
        ...


def strategy_for(difficulty: Difficulty, catch_rate: float = DEFAULT_CATCH_RATE) -> Strategy:
    """The strategy for ``difficulty``; ``catch_rate`` is how often it catches a missed UNO."""
    if difficulty == "easy":
        return EasyStrategy(catch_rate)
    if difficulty == "normal":
        return NormalStrategy(catch_rate)
    if difficulty == "hard":
        return HardStrategy(catch_rate)
    raise ValueError(f"unknown difficulty {difficulty!r}")


__all__ = [
    "DEFAULT_CATCH_RATE",
    "DIFFICULTIES",
    "Difficulty",
    "EasyStrategy",
    "HardStrategy",
    "NormalStrategy",
    "Strategy",
    "strategy_for",
    "wants_to_catch",
]
