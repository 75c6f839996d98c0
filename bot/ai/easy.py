"""The easy computer player: a uniformly random legal move (drawing included)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from bot.engine.moves import CallUno, Catch, Move
from bot.engine.view import PlayerView

from .table import DEFAULT_CATCH_RATE, bookkeeping_move


@dataclass(frozen=True, slots=True)
class EasyStrategy:
    """Random legal moves; it still calls UNO and finishes every pending choice."""

    catch_rate: float = DEFAULT_CATCH_RATE
    difficulty: ClassVar[str] = "easy"

    def choose_move(self, view: PlayerView, rng: random.Random) -> Move:
        """A uniformly random legal move, apart from UNO calls and catches handled first."""
        chosen = bookkeeping_move(view, rng, self.catch_rate)
        if chosen is not None:
            return chosen
        moves = [m for m in view.legal_moves if not isinstance(m, CallUno | Catch)]
        if not moves:
            raise ValueError(f"{view.player} has nothing to decide")
        return rng.choice(moves)

    def within(self, seconds: float) -> EasyStrategy:
        """Itself: a random move takes no time worth limiting."""
        return self
