"""The normal computer player: the seeds' advice as a scoring heuristic.

Shed high cards first, keep wilds for the end, dump expensive cards when someone is at one card,
name the colour it holds most of, hit a player close to going out with draw and skip cards,
challenge a draw-wild from a big hand, and swap with the smallest hand under Seven-O. In All
Wild, shed the 50-point cards before plain Wilds and aim targeted draws at the player closest to
going out.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

from bot.engine.cards import STACK_VALUE, Color, Face, Kind
from bot.engine.game import Phase
from bot.engine.moves import (
    ACCEPT,
    CHALLENGE,
    DRAW,
    PASS,
    ChooseColor,
    Move,
    PlayCard,
    SwapWith,
    TargetDraw,
)
from bot.engine.view import HandCard, PlayerView

from .table import DEFAULT_CATCH_RATE, HITS_NEXT, Table, bookkeeping_move

BLUFF_COST = 1000.0


@dataclass(frozen=True)
class NormalStrategy:
    """Heuristic play from the view: shed high, hold wilds, punish a near-empty hand."""

    catch_rate: float = DEFAULT_CATCH_RATE
    # A coloured action card sheds like a mid-size number until it is needed as a weapon.
    action_weight: float = 8.0
    # Keeping a wild for the end outweighs shedding its points, unless the end is near.
    wild_hold: float = 70.0
    hit_next_bonus: float = 40.0
    reverse_away_bonus: float = 25.0
    same_color_bonus: float = 2.0
    # Cards left that could follow the card played if the top stayed (keeps the hand flowing).
    follow_bonus: float = 0.0
    # Skip Everyone gives us another turn at once: worth it as a shed of two cards.
    extra_turn_bonus: float = 0.0
    # With this many cards or more, draw rather than spend a wild early.
    draw_over_wild_from: int = 99
    # A hand this big or bigger keeps a drawn wild (the turn is spent anyway).
    keep_drawn_wild_from: int = 4
    # Challenge a draw-wild whose player held at least this many cards.
    challenge_from_cards: int = 4
    # No Mercy: per other card of its colour a Discard All sheds with it; per card a 7 or a 0
    # leaves us with fewer; a Draw Card that would knock the next player out (Mercy rule).
    discard_all_bonus: float = 6.0
    hand_swap_bonus: float = 5.0
    knockout_bonus: float = 60.0
    # All Wild: a Targeted Draw Two while someone is close to going out (it can reach them
    # wherever they sit).
    target_bonus: float = 40.0
    difficulty: ClassVar[str] = "normal"

    def choose_move(self, view: PlayerView, rng: random.Random) -> Move:
        """The move for the pending decision; always one of ``view.legal_moves``."""
        chosen = bookkeeping_move(view, rng, self.catch_rate)
        if chosen is not None:
            return chosen
        if view.current_player != view.player or not view.legal_moves:
            raise ValueError(f"{view.player} has nothing to decide")
        return self.decide(Table(view), rng)

    def within(self, seconds: float) -> NormalStrategy:
        """Itself: the heuristic takes well under a millisecond."""
        return self

    def decide(self, table: Table, rng: random.Random) -> Move:
        """The move for the pending decision once UNO calls and catches are out of the way."""
        phase = table.view.phase
        if phase == Phase.CHOOSE_COLOR:
            return ChooseColor(self.pick_color(table))
        if phase == Phase.SWAP_TARGET:
            return SwapWith(self.swap_target(table))
        if phase == Phase.DRAW_TARGET:
            return TargetDraw(self.swap_target(table))
        if phase == Phase.PENALTY:
            return self.answer_penalty(table)
        if phase == Phase.DRAWN:
            return self.play_drawn(table)
        return self.play_or_draw(table, rng)

    # ------------------------------------------------------------------ decisions

    def play_or_draw(self, table: Table, rng: random.Random) -> Move:
        """The best-scoring card, or a draw when nothing can be played."""
        best: PlayCard | None = None
        best_score = float("-inf")
        for move in table.plays:
            score = self.play_score(table, table.hand[move.card])
            if score > best_score:
                best, best_score = move, score
        if best is None:
            return DRAW
        if DRAW not in table.view.legal_moves:  # "must play if able" (No Mercy): no draw
            return best
        if best_score <= -BLUFF_COST / 2:
            return DRAW
        if (
            table.hand[best.card].face.is_wild
            and len(table.view.hand) >= self.draw_over_wild_from
            and not self.endgame(table)
        ):
            return DRAW
        return best

    def play_drawn(self, table: Table) -> Move:
        """Play the card just drawn unless it is a bluff or a wild worth keeping."""
        view = table.view
        assert view.drawn_card is not None
        card = table.hand[view.drawn_card]
        if table.is_bluff(card.face):
            return PASS
        if (
            card.face.is_wild
            and not self.endgame(table)
            and len(view.hand) >= self.keep_drawn_wild_from
        ):
            return PASS
        return PlayCard(card.card)

    def answer_penalty(self, table: Table) -> Move:
        """Pass a stackable penalty on, challenge when it pays, else take the cards."""
        stacks = table.plays
        if stacks and table.variant.no_mercy_rules:
            # Any Draw Card worth enough passes it on: spend the smallest, keep the big ones.
            return min(stacks, key=lambda m: STACK_VALUE.get(table.hand[m.card].face.kind, 99))
        if stacks:
            return max(stacks, key=lambda m: table.points(table.hand[m.card].face))
        if CHALLENGE in table.view.legal_moves and self.should_challenge(table):
            return CHALLENGE
        return ACCEPT

    def should_challenge(self, table: Table) -> bool:
        """A big hand very likely held the colour, so its draw-wild was probably a bluff."""
        return table.in_turn_order[-1].card_count >= self.challenge_from_cards

    def pick_color(self, table: Table) -> Color:
        """The colour we hold most of (most points breaks ties); for a Roulette that hit us,
        the colour least seen, which should turn up soonest."""
        if table.view.top.kind is Kind.WILD_COLOR_ROULETTE:
            return self.roulette_color(table)
        held = table.held_colors
        weight = {color: 0 for color in table.colors}
        for card in table.view.hand:
            if card.face.color in weight:
                weight[card.face.color] += table.points(card.face)
        return max(table.colors, key=lambda c: (held[c], weight[c]))

    def roulette_color(self, table: Table) -> Color:
        """The colour with the fewest cards in sight (our hand and the discard pile)."""
        seen = Counter(f.color for f in table.view.discards if f.color is not None)
        seen.update(table.held_colors)
        return min(table.colors, key=lambda c: seen[c])

    def swap_target(self, table: Table) -> str:
        """The opponent with the fewest cards (the next of them in turn order on ties): whose
        hand to swap with, and whom a Targeted Draw Two hits (the closest to going out)."""
        return min(table.in_turn_order, key=lambda o: o.card_count).player

    # ------------------------------------------------------------------ scoring

    def endgame(self, table: Table) -> bool:
        """Near the end of the round: our hand or someone else's is almost empty."""
        return len(table.view.hand) <= 3 or table.fewest_cards <= 2

    def play_score(self, table: Table, card: HandCard) -> float:
        """How much we like playing ``card`` now (higher is better)."""
        face = card.face
        points = table.points(face)
        danger = table.fewest_cards <= 1
        score = float(points) if face.kind is Kind.NUMBER or danger else self.action_weight
        if face.is_wild:
            if table.is_bluff(face):
                return -BLUFF_COST
            if not self.endgame(table):
                score -= self.wild_hold
        next_count = table.next_player.card_count
        if next_count <= 2:
            if face.kind in HITS_NEXT:
                score += self.hit_next_bonus
            elif face.kind is Kind.REVERSE and table.in_turn_order[-1].card_count > next_count:
                score += self.reverse_away_bonus
        if face.color is not None:
            score += self.same_color_bonus * (table.held_colors[face.color] - 1)
        if self.follow_bonus:
            score += self.follow_bonus * sum(
                1
                for other in table.view.hand
                if other.card != card.card and follows(other.face, face)
            )
        if face.kind is Kind.SKIP_EVERYONE or (
            face.kind is Kind.SKIP and table.view.opponents.__len__() == 1
        ):
            score += self.extra_turn_bonus
        if table.variant.no_mercy_rules:
            score += self.no_mercy_score(table, card)
        if table.variant.all_wild_rules:
            score += self.all_wild_score(table, card)
        return score

    def all_wild_score(self, table: Table, card: HandCard) -> float:
        """What All Wild adds, where every card is a wild: shed by points (50 before a plain
        Wild's 20), hit whoever is close to going out, swap only into a smaller hand."""
        face = card.face
        score = float(table.points(face))
        if face.kind is Kind.WILD_TARGETED_DRAW_TWO and table.fewest_cards <= 2:
            score += self.target_bonus
        if face.kind is Kind.WILD_FORCED_SWAP:
            score += self.hand_swap_bonus * (len(table.view.hand) - 1 - table.fewest_cards)
        return score

    def no_mercy_score(self, table: Table, card: HandCard) -> float:
        """What No Mercy's own effects add: a Discard All's shed, a 7 or 0 that leaves us the
        smaller hand, a Draw Card that knocks the next player out."""
        face = card.face
        kept = len(table.view.hand) - 1  # our hand once the card is played
        if face.kind is Kind.DISCARD_ALL:
            same = sum(
                1 for c in table.view.hand if c.card != card.card and c.face.color is face.color
            )
            return self.discard_all_bonus * same
        if face.kind is Kind.NUMBER and face.number == 7:
            return self.hand_swap_bonus * (kept - table.fewest_cards)
        if face.kind is Kind.NUMBER and face.number == 0:
            return self.hand_swap_bonus * (kept - table.in_turn_order[-1].card_count)
        value = STACK_VALUE.get(face.kind, 0)
        if value and table.next_player.card_count + value >= table.variant.mercy_limit:
            return self.knockout_bonus
        return 0.0


def follows(face: Face, top: Face) -> bool:
    """Whether ``face`` could be played on ``top`` with ``top``'s colour in play."""
    return (
        face.color is None
        or face.color is top.color
        or (face.kind is top.kind and face.number == top.number)
    )
