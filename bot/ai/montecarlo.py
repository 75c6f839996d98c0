"""Monte Carlo rollouts over determinized games built from a PlayerView.

A determinization deals the cards we cannot see at random, consistent with everything the view
shows (own hand, counts, the top card, in Flip every visible back), then plays the round out
with a fast greedy policy. Nothing here reads the real game.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from bot.engine.cards import COLORS_BY_SIDE, Face
from bot.engine.game import TERMINAL_PHASES, Game, Phase
from bot.engine.moves import ACCEPT, CALL_UNO, DRAW, ChooseColor, Move, PlayCard, SwapWith
from bot.engine.rules import RuleSet
from bot.engine.scoring import face_points
from bot.engine.view import PlayerView

from .knowledge import edition_of, other_side
from .table import seat_order

# A rollout that has not ended after this many moves is scored as undecided.
MAX_ROLLOUT_MOVES = 400
# Points won or lost are worth this fraction of a round win.
POINT_VALUE = 1 / 250


def _take(free: list[int], wanted: Callable[[int], bool], rng: random.Random) -> int:
    matches = [i for i in free if wanted(i)]
    card = rng.choice(matches) if matches else rng.choice(free)
    free.remove(card)
    return card


def determinize(view: PlayerView, rng: random.Random) -> Game:
    """A game in the PLAY phase consistent with ``view``, hidden cards dealt at random."""
    seats = seat_order(view)
    if view.variant == "flip":
        rules = RuleSet(variant="flip", target=100_000)
    else:
        rules = RuleSet(variant="classic", edition=edition_of(view), target=100_000)
    # House rules are not in the view: rollouts use the official rules.
    game = Game(list(seats), rules, rng.getrandbits(32))
    side, back_side = view.side, other_side(view.side)
    mine = {c.card for c in view.hand}
    free = [i for i in range(len(game.deck)) if i not in mine]
    rng.shuffle(free)
    top = _take(free, lambda i: game.face(i, side) == view.top, rng)
    under: list[int] = []
    if view.under_top is not None and view.discard_count > 1:
        under = [_take(free, lambda i: game.face(i, side) == view.under_top, rng)]
    pile_top: list[int] = []
    if view.draw_pile_back is not None:
        back = view.draw_pile_back
        pile_top = [_take(free, lambda i: game.face(i, back_side) == back, rng)]
    hands: dict[str, list[int]] = {view.player: [c.card for c in view.hand]}
    for opponent in view.opponents:
        if opponent.backs is None:
            hands[opponent.player] = [free.pop() for _ in range(opponent.card_count) if free]
        else:
            hands[opponent.player] = [
                _take(free, lambda i, b=b: game.face(i, back_side) == b, rng)  # type: ignore[misc]
                for b in opponent.backs
                if free
            ]
    old_discards = max(0, view.discard_count - 1 - len(under))
    game.discard = [free.pop() for _ in range(min(old_discards, len(free)))] + under + [top]
    game.draw_pile = free + pile_top
    game.hands = [hands[p] for p in seats]
    game.side = view.side
    game.color = view.color
    game.direction = view.direction
    game.round_no = view.round_no
    game.dealer = seats.index(view.dealer) if view.dealer in seats else 0
    game.current = seats.index(view.player)
    game.uno_declared = [view.called_uno if p == view.player else _called(view, p) for p in seats]
    game.phase = Phase.PLAY
    return game


def _called(view: PlayerView, player: str) -> bool:
    return next(o.called_uno for o in view.opponents if o.player == player)


def greedy_move(game: Game, player: str) -> Move:
    """A fast rollout policy: shed the most expensive coloured card, wilds last."""
    legal = game.legal_moves(player)
    if CALL_UNO in legal:
        return CALL_UNO
    phase = game.phase
    if phase is Phase.CHOOSE_COLOR:
        held = Counter(game.face(c).color for c in game.hand(player))
        return ChooseColor(max(COLORS_BY_SIDE[game.side], key=lambda c: held[c]))
    if phase is Phase.SWAP_TARGET:
        targets = [m for m in legal if isinstance(m, SwapWith)]
        return min(targets, key=lambda m: len(game.hand(m.target)))
    plays = [m for m in legal if isinstance(m, PlayCard)]
    if phase is Phase.PENALTY:
        return plays[0] if plays else ACCEPT
    if not plays:
        return legal[0] if phase is Phase.DRAWN else DRAW
    variant = game.rules.variant

    def preference(move: PlayCard) -> tuple[bool, int]:
        face: Face = game.face(move.card)
        return (face.color is not None, face_points(face, variant))

    return max(plays, key=preference)


def rollout_value(game: Game, player: str) -> float:
    """Play the round out greedily; 1 for a win plus points won, minus points conceded."""
    for _ in range(MAX_ROLLOUT_MOVES):
        if game.phase in TERMINAL_PHASES:
            break
        current = game.current_player
        assert current is not None
        game.apply(current, greedy_move(game, current))
    else:
        return -game.hand_points(player) * POINT_VALUE
    result = game.history[-1]
    if result.winner == player:
        return 1 + result.awarded[player] * POINT_VALUE
    return -result.hand_points[player] * POINT_VALUE


def best_by_rollouts(
    view: PlayerView,
    candidates: Sequence[Move],
    rng: random.Random,
    *,
    max_rollouts: int | None,
    deadline: float | None,
    clock: Callable[[], float],
) -> tuple[Move, int]:
    """The candidate with the best mean rollout value, and how many rollouts were run.

    Every candidate is tried on the same determinizations (common random numbers), so the
    comparison is not drowned by the luck of the deal. The loop stops at ``max_rollouts`` in
    total or before ``deadline`` on ``clock``, whichever comes first; with neither it would
    never stop, so callers always pass one.
    """
    totals = [0.0] * len(candidates)
    runs = 0
    # Stop early enough that one more round of rollouts would not overrun the deadline.
    last_round = 0.0
    while max_rollouts is None or runs + len(candidates) <= max_rollouts:
        started = clock() if deadline is not None else 0.0
        if deadline is not None and started + last_round >= deadline:
            break
        seed = rng.getrandbits(32)
        for index, move in enumerate(candidates):
            game = determinize(view, random.Random(seed))
            game.apply(view.player, move)
            totals[index] += rollout_value(game, view.player)
        runs += len(candidates)
        if deadline is not None:
            last_round = clock() - started
    best = max(range(len(candidates)), key=lambda i: totals[i])
    return candidates[best], runs


__all__ = ["best_by_rollouts", "determinize", "greedy_move", "rollout_value"]
