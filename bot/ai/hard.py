"""The hard computer player: normal play sharpened by everything the table makes public.

In Flip the other side of every opponent's card is visible and the real deck pairs each face
with one or two faces on the other side, so the hard player narrows down what others hold. It
times Flip cards (flip when the opponents' visible other side is weak and its own is strong),
steers the end of the round towards the side that scores more for it, names colours the next
player is unlikely to hold (in classic too: a player who drew on a colour has none of it),
judges challenges by the probability that the player held the colour, and at every decision with
a real choice (plays, a drawn card, a colour) compares its heuristic's move with the alternatives
by short Monte Carlo rollouts within the budget, leaving the heuristic only when the rollouts
disagree by a clear margin.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import ClassVar

from bot.engine.cards import Color, Face, Kind
from bot.engine.game import Phase
from bot.engine.moves import DRAW, PASS, ChooseColor, Move, PlayCard
from bot.engine.view import HandCard, OpponentView, PlayerView

from .knowledge import candidate_fronts, prob_holds_color
from .montecarlo import EVAL_EXPONENT, POINT_VALUE, Rollouts, can_sample, run_rollouts
from .normal import NormalStrategy
from .table import Table

# How much a face helps its holder win the round on its side (wilds and dark actions hit hard).
POWER: dict[Kind, float] = {
    Kind.WILD: 3.0,
    Kind.WILD_DRAW_TWO: 4.0,
    Kind.WILD_DRAW_FOUR: 5.0,
    Kind.WILD_DRAW_COLOR: 6.0,
    Kind.SKIP_EVERYONE: 4.0,
    Kind.DRAW_FIVE: 4.0,
    Kind.DRAW_TWO: 2.0,
    Kind.DRAW_ONE: 1.5,
    Kind.SKIP: 1.5,
    Kind.REVERSE: 1.0,
    Kind.FLIP: 1.0,
}
# A draw-wild's penalty in cards when the drawing is "until a colour" (about four draws).
DRAW_UNTIL_COLOR_CARDS = 4
CHALLENGE_EXTRA = 2
# Rollouts get this share of the budget; the rest absorbs the heuristic pass and scheduler jitter.
BUDGET_SHARE_FOR_ROLLOUTS = 0.7


def power(faces: Iterable[Face]) -> float:
    """How strong a hand of faces is for going out (numbers count nothing)."""
    return sum(POWER.get(face.kind, 0.0) for face in faces)


def expected_power(candidates: list[list[Face]]) -> float:
    """The expected power of a hand known only as candidates per card."""
    return sum(power(faces) / len(faces) for faces in candidates if faces)


@dataclass(frozen=True)
class HardStrategy(NormalStrategy):
    """Normal play plus card counting, Flip timing and budgeted Monte Carlo checks."""

    # Weight of the hand-strength swing a Flip causes (ours minus the opponents').
    flip_weight: float = 6.0
    # Weight of the swing in points a Flip causes for the side the round may end on.
    flip_points_weight: float = 0.4
    # Penalty for leaving a near-empty next player a colour they probably hold.
    next_color_penalty: float = 25.0
    # ... whenever the next player holds this many cards or fewer.
    next_color_from: int = 2
    # How often an opponent is assumed to play a draw-wild while holding the colour.
    assumed_bluff_rate: float = 0.15
    # Monte Carlo whenever the smallest hand (ours included) is this many cards or fewer.
    rollout_from_cards: int = 99
    # Plays compared by rollouts: the heuristic's choice and the next best few.
    rollout_candidates: int = 6
    # Leave the heuristic's choice only for a lead of this many standard errors.
    switch_margin: float = 1.0
    # Stop rolling out a candidate that trails the leader by this many standard errors (0: never).
    prune_z: float = 2.0
    # Also roll out bluffed draw-wilds (a challenge is modelled as the normal player makes it).
    rollout_bluffs: bool = True
    # Also roll out drawing instead of playing (in Flip the pile's back hints at the card).
    rollout_draw: bool = False
    # A rollout scores 1 for a win plus this much per point won (minus per point left in hand).
    point_value: float = POINT_VALUE
    # Cut rollouts after this many moves and score the position instead (None: play it out):
    # shorter rollouts are less noisy and more of them fit in the budget.
    rollout_depth: int | None = 20
    eval_exponent: float = EVAL_EXPONENT
    # Per-decision budget in seconds (None: no clock) and a cap on rollouts (None: no cap).
    budget_seconds: float | None = 0.05
    max_rollouts: int | None = None
    clock: Callable[[], float] = field(default=time.perf_counter, compare=False)
    difficulty: ClassVar[str] = "hard"

    def within(self, seconds: float) -> HardStrategy:
        """The same player with at most ``seconds`` per decision (never more than its own)."""
        if self.budget_seconds is None or seconds >= self.budget_seconds:
            return self
        return replace(self, budget_seconds=seconds)

    # ------------------------------------------------------------------ decisions

    def decide(self, table: Table, rng: random.Random) -> Move:
        """The heuristic's move, checked against its alternatives by rollouts when they help."""
        started = self.clock()
        heuristic, candidates = self.rollout_plan(table, rng)
        if not candidates:
            return heuristic
        deadline = None
        if self.budget_seconds is not None:
            deadline = started + self.budget_seconds * BUDGET_SHARE_FOR_ROLLOUTS
        result = self.roll_out(table.view, candidates, rng, self.max_rollouts, deadline)
        return candidates[result.best(0, self.switch_margin)]

    def rollout_plan(self, table: Table, rng: random.Random) -> tuple[Move, list[Move]]:
        """The heuristic's move, and the moves to compare by rollouts (none when rollouts would
        not help: a single candidate, or every hand still too big)."""
        heuristic = super().decide(table, rng)
        candidates = self.rollout_candidates_for(table, heuristic)
        if len(candidates) < 2 or not self.rollouts_wanted(table):
            return heuristic, []
        return heuristic, candidates

    def roll_out(
        self,
        view: PlayerView,
        candidates: list[Move],
        rng: random.Random,
        max_rollouts: int | None,
        deadline: float | None,
    ) -> Rollouts:
        """``run_rollouts`` of ``candidates`` with this player's settings (its pruning, point
        value, depth and exponent), up to ``max_rollouts`` or ``deadline`` on its clock."""
        return run_rollouts(
            view,
            candidates,
            rng,
            max_rollouts=max_rollouts,
            deadline=deadline,
            clock=self.clock,
            prune_z=self.prune_z,
            point_value=self.point_value,
            depth=self.rollout_depth,
            exponent=self.eval_exponent,
        )

    def rollout_candidates_for(self, table: Table, heuristic: Move) -> list[Move]:
        """The heuristic's move first, then the alternatives worth a rollout (maybe none)."""
        view = table.view
        if not can_sample(view):
            return [heuristic]
        if view.phase == Phase.CHOOSE_COLOR:
            others = (ChooseColor(c) for c in table.colors)
            return [heuristic, *(m for m in others if m != heuristic)]
        if view.phase == Phase.DRAWN:
            keep_or_play = (m for m in view.legal_moves if m is PASS or isinstance(m, PlayCard))
            return [heuristic, *(m for m in keep_or_play if m != heuristic)]
        ranked = sorted(
            table.plays, key=lambda m: self.play_score(table, table.hand[m.card]), reverse=True
        )
        candidates: list[Move] = [heuristic]
        # Twin cards (same face and, in Flip, same back) play out identically.
        seen = {_twin_key(table, heuristic)}
        for move in ranked:
            key = _twin_key(table, move)
            if key in seen:
                continue
            bluff = table.is_bluff(table.hand[move.card].face)
            if (bluff and self.rollout_bluffs) or (
                not bluff and len(candidates) < self.rollout_candidates
            ):
                seen.add(key)
                candidates.append(move)
        if self.rollout_draw and DRAW not in candidates and DRAW in view.legal_moves:
            candidates.append(DRAW)
        return candidates

    def rollouts_wanted(self, table: Table) -> bool:
        """With a budget, when the smallest hand (ours included) is small enough."""
        if self.budget_seconds is None and self.max_rollouts is None:
            return False
        smallest = min(table.fewest_cards, len(table.view.hand))
        return smallest <= self.rollout_from_cards

    def play_score(self, table: Table, card: HandCard) -> float:
        """Normal's score, plus Flip timing and the next player's likely colours."""
        score = super().play_score(table, card)
        face = card.face
        if face.kind is Kind.FLIP and card.back is not None:
            score += self.flip_value(table, card)
        nxt = table.next_player
        if face.color is not None and nxt.card_count <= self.next_color_from:
            score -= self.next_color_penalty * prob_holds_color(table.view, nxt, face.color)
        return score

    def flip_value(self, table: Table, flip: HandCard) -> float:
        """What turning the game over is worth to us now (positive: flip)."""
        view = table.view
        rest = [c for c in view.hand if c.card != flip.card]
        now = [c.face for c in rest]
        after = [c.back for c in rest if c.back is not None]
        gain = power(after) - power(now)
        opponents_gain = 0.0
        for opponent in view.opponents:
            if opponent.backs is None:
                continue
            candidates = [candidate_fronts(view, back) for back in opponent.backs]
            threat = 1.0 / max(opponent.card_count, 1)
            opponents_gain += threat * (power(opponent.backs) - expected_power(candidates))
        value = self.flip_weight * (gain - opponents_gain)
        # Near the end the side the round ends on scores: leading, we want the opponents'
        # costly side; trailing, we want our own cheap side.
        if min(len(rest), table.fewest_cards) > 2:
            return value
        if len(rest) <= table.fewest_cards:
            value += self.flip_points_weight * sum(
                self.points_swing(table, opponent) for opponent in view.opponents
            )
        else:
            value -= self.flip_points_weight * (
                sum(table.points(f) for f in after) - sum(table.points(f) for f in now)
            )
        return value

    def points_swing(self, table: Table, opponent: OpponentView) -> float:
        """How many more points ``opponent``'s hand is worth on the other side."""
        if opponent.backs is None:
            return 0.0
        after = sum(table.points(back) for back in opponent.backs)
        now = 0.0
        for back in opponent.backs:
            fronts = candidate_fronts(table.view, back)
            if fronts:
                now += sum(table.points(f) for f in fronts) / len(fronts)
        return after - now

    # ------------------------------------------------------------------ choices

    def pick_color(self, table: Table) -> Color:
        """Our strongest colour, steering away from what a near-empty next player holds."""
        held = table.held_colors
        nxt = table.next_player
        threatened = nxt.card_count <= self.next_color_from + 1

        def merit(color: Color) -> float:
            value = (
                10.0 * held[color]
                + sum(table.points(c.face) for c in table.view.hand if c.face.color is color) / 10
            )
            if threatened:
                value -= self.next_color_penalty * prob_holds_color(table.view, nxt, color)
            return value

        return max(table.colors, key=merit)

    def should_challenge(self, table: Table) -> bool:
        """Challenge when the chance the player held the colour makes it pay on average."""
        view = table.view
        source = table.in_turn_order[-1]
        previous = view.under_top.color if view.under_top is not None else None
        colors: tuple[Color, ...] = (previous,) if previous is not None else table.colors
        held = sum(prob_holds_color(view, source, c) for c in colors) / len(colors)
        # Bayes: a player who held the colour plays a draw-wild only when bluffing.
        bluff = held * self.assumed_bluff_rate
        guilty = bluff / (bluff + (1 - held)) if bluff + (1 - held) > 0 else 1.0
        penalty = view.pending_draw or DRAW_UNTIL_COLOR_CARDS
        # Guilty: we skip the draw and they take it; innocent: we draw the extra cards.
        return guilty * (2 * penalty + 1) > (1 - guilty) * CHALLENGE_EXTRA


def _twin_key(table: Table, move: Move) -> object:
    """What makes two moves play out differently: the card's faces, or the move itself."""
    if isinstance(move, PlayCard):
        card = table.hand[move.card]
        return (card.face, card.back)
    return move
