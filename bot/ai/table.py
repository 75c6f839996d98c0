"""Shared reading of a PlayerView: seat order, hand, playable cards, UNO calls and catches.

Everything here works from the view alone; no strategy ever receives the Game.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from bot.engine.cards import DRAW_WILD_KINDS, Color, Face, Kind
from bot.engine.moves import CALL_UNO, Catch, Move, PlayCard
from bot.engine.variants import Variant
from bot.engine.variants import variant as variant_entry
from bot.engine.view import HandCard, OpponentView, PlayerView

# How often a computer player catches someone who forgot to call UNO.
DEFAULT_CATCH_RATE = 0.5

# Cards whose effect lands on the next player (they lose their turn or draw).
HITS_NEXT = frozenset(
    {
        Kind.SKIP,
        Kind.SKIP_EVERYONE,
        Kind.DRAW_ONE,
        Kind.DRAW_TWO,
        Kind.DRAW_FIVE,
        Kind.WILD_DRAW_TWO,
        Kind.WILD_DRAW_FOUR,
        Kind.WILD_DRAW_COLOR,
        Kind.DRAW_FOUR,
        Kind.WILD_DRAW_SIX,
        Kind.WILD_DRAW_TEN,
        Kind.WILD_COLOR_ROULETTE,
        Kind.WILD_SKIP,
        Kind.WILD_SKIP_TWO,
    }
)


def wants_to_catch(view: PlayerView, rng: random.Random, catch_rate: float) -> Catch | None:
    """A catch of the player who forgot UNO, made with probability ``catch_rate``."""
    for move in view.legal_moves:
        if isinstance(move, Catch) and rng.random() < catch_rate:
            return move
    return None


def bookkeeping_move(view: PlayerView, rng: random.Random, catch_rate: float) -> Move | None:
    """Call UNO whenever it is due (two cards or fewer), else maybe catch someone."""
    if CALL_UNO in view.legal_moves:
        return CALL_UNO
    return wants_to_catch(view, rng, catch_rate)


def seat_order(view: PlayerView) -> tuple[str, ...]:
    """Every player in seat order (the view's own list, or the score table's order)."""
    if view.seats:
        return view.seats
    present = {view.player, *(o.player for o in view.opponents)}
    return tuple(p for p in view.scores if p in present)


@dataclass(frozen=True)
class Table:
    """One decision's reading of the view, computed once and shared by the heuristics."""

    view: PlayerView

    @cached_property
    def variant(self) -> Variant:
        """The entry of the variant being played."""
        return variant_entry(self.view.variant)

    @cached_property
    def in_turn_order(self) -> tuple[OpponentView, ...]:
        """Opponents still in the hand in the order they play after us (the next first)."""
        seats = seat_order(self.view)
        gone = set(self.view.knocked_out)
        by_name = {o.player: o for o in self.view.opponents if o.player not in gone}
        me = seats.index(self.view.player)
        count = len(seats)
        order = (seats[(me + self.view.direction * step) % count] for step in range(1, count))
        return tuple(by_name[p] for p in order if p in by_name)

    @property
    def next_player(self) -> OpponentView:
        """The opponent who plays after us."""
        return self.in_turn_order[0]

    @cached_property
    def fewest_cards(self) -> int:
        """The smallest opponent hand (of those still in the hand)."""
        return min(o.card_count for o in self.in_turn_order)

    @cached_property
    def hand(self) -> dict[int, HandCard]:
        """Own cards by deck index."""
        return {c.card: c for c in self.view.hand}

    @cached_property
    def colors(self) -> tuple[Color, ...]:
        """The colours of the side in play."""
        return self.variant.colors_on(self.view.side)

    @cached_property
    def held_colors(self) -> Counter[Color]:
        """How many cards of each colour we hold."""
        return Counter(c.face.color for c in self.view.hand if c.face.color is not None)

    @cached_property
    def plays(self) -> list[PlayCard]:
        """The card plays among the legal moves."""
        return [m for m in self.view.legal_moves if isinstance(m, PlayCard)]

    def points(self, face: Face) -> int:
        """What ``face`` would cost left in a hand."""
        return self.variant.face_points(face)

    def is_bluff(self, face: Face) -> bool:
        """A draw-wild played while holding the colour in play (challengeable and guilty)."""
        color = self.view.color
        return face.kind in DRAW_WILD_KINDS and color is not None and self.held_colors[color] > 0
