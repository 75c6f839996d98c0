"""Monte Carlo rollouts over determinized games built from a PlayerView.

A determinization deals the cards we cannot see at random, consistent with everything the view
shows (own hand, counts, the discard pile as played, in Flip every visible back and the draw
pile's back, and what each opponent's turns this round say about the cards they hold), then
plays on with a fast copy of the ``normal`` player's heuristics for every seat: the opponents
the hard player meets most are exactly such players. Rollouts may stop after a number of moves
and score the position from the card counts (``position_value``): less noise per rollout, and
more of them in the budget. Nothing here reads the real game.
"""

from __future__ import annotations

import math
import random
import select
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.engine.cards import DRAW_AMOUNT, DRAW_WILD_KINDS, Color, Face, Kind
from bot.engine.game import TERMINAL_PHASES, AfterColor, Game, Phase, shuffle
from bot.engine.moves import (
    ACCEPT,
    CALL_UNO,
    CHALLENGE,
    DRAW,
    PASS,
    ChooseColor,
    Move,
    PlayCard,
    SwapWith,
    TargetDraw,
)
from bot.engine.rules import RuleSet
from bot.engine.variants import variant as variant_entry
from bot.engine.view import PlayerView

from .knowledge import HandReading, edition_of, other_side, read_hand
from .normal import NormalStrategy
from .table import HITS_NEXT, seat_order

# More cards than any hand can hold (a whole deck is at most 112).
MAX_HAND = 1_000
# A rollout that has not ended after this many moves is scored as undecided.
MAX_ROLLOUT_MOVES = 400
# Points won or lost are worth this fraction of a round win.
POINT_VALUE = 1 / 250
# The rollout policy's weights: the normal player's defaults (see NormalStrategy).
_NORMAL = NormalStrategy()
ACTION_WEIGHT = _NORMAL.action_weight
WILD_HOLD = _NORMAL.wild_hold
HIT_NEXT_BONUS = _NORMAL.hit_next_bonus
REVERSE_AWAY_BONUS = _NORMAL.reverse_away_bonus
SAME_COLOR_BONUS = _NORMAL.same_color_bonus
KEEP_DRAWN_WILD_FROM = _NORMAL.keep_drawn_wild_from
CHALLENGE_FROM_CARDS = _NORMAL.challenge_from_cards
# A player's chance to go out first is taken as proportional to cards ** -EVAL_EXPONENT (see
# position_value): the best fit to normal-vs-normal rounds in both variants (bench/ai_position.py).
EVAL_EXPONENT = 1.1
# Pruning starts once every candidate has had this many rollouts.
PRUNE_AFTER = 4
# Guesses at a blind hand's older cards tried until one is accepted (else the last is kept).
FIT_TRIES = 12
# A guess failing one test of the player's plays is still accepted with this probability
# (true hands of normal players fail a test about 2% of the time, random hands about 30%).
MISS_ACCEPTANCE = 0.1
# Random picks tried for a card before listing every card that may fill its place.
PICK_TRIES = 8
# Rollouts give the GIL back once this many seconds have passed since they last did: a little
# more than the interpreter's switch interval (5 ms), so a thread waiting for it has asked for
# it by then and takes it (see release_gil). Each release wakes a waiting thread and, on one
# CPU, restarts its wait: more often than the interval, it would never ask.
GIL_RELEASE_SECONDS = 1.2 * sys.getswitchinterval()
# A determinization can be dealt for these phases; others are decided without rollouts.
SAMPLED_PHASES = frozenset({Phase.PLAY, Phase.DRAWN, Phase.CHOOSE_COLOR})


@dataclass(frozen=True)
class Rollouts:
    """Per candidate, the rollout values on shared determinizations (same index, same deal)."""

    values: tuple[tuple[float, ...], ...]

    @property
    def runs(self) -> int:
        """Rollouts run in total."""
        return sum(len(v) for v in self.values)

    def mean(self, index: int) -> float:
        """The mean value of candidate ``index``."""
        values = self.values[index]
        return sum(values) / len(values) if values else 0.0

    def best(self, baseline: int = 0, margin: float = 0.0) -> int:
        """The best candidate still rolled out at the end; it must beat ``baseline`` by
        ``margin`` standard errors on the shared deals."""
        if not self.values[baseline]:
            return baseline
        rounds = max(len(v) for v in self.values)
        finished = [i for i, v in enumerate(self.values) if len(v) == rounds]
        best = max(finished, key=self.mean)
        if best == baseline or margin <= 0:
            return best
        lead = paired_z(self.values[best], self.values[baseline])
        return best if lead > margin else baseline


class Sampler:
    """Deals determinizations of one view; the constraints are worked out once per decision."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.seats = seat_order(view)
        # House rules are not in the view: rollouts use the official rules (and the classic
        # edition the cards seen betray; "standard" in every other game).
        rules = RuleSet(variant=view.variant, edition=edition_of(view), target=100_000)
        self.template = Game(list(self.seats), rules, 0)
        # The rollout policy never reads the round memory: not keeping it saves time per move.
        self.template.remember_turns = False
        deck_size = len(self.template.deck)
        mine = {c.card for c in view.hand}
        self.free = [i for i in range(deck_size) if i not in mine]
        side, back_side = view.side, other_side(view.side)
        by_front: dict[Face, list[int]] = {}
        by_back: dict[Face, list[int]] = {}
        for i in self.free:
            by_front.setdefault(self.template.face(i, side), []).append(i)
            by_back.setdefault(self.template.face(i, back_side), []).append(i)
        # Each constrained slot lists the cards that may fill it, most constrained first.
        self.top = by_front.get(view.top, [])
        self.under = (
            by_front.get(view.under_top, [])
            if view.under_top is not None and view.discard_count > 1
            else None
        )
        self.pile_top = (
            by_back.get(view.draw_pile_back, []) if view.draw_pile_back is not None else None
        )
        # Every discard was seen when played (both sides, in Flip): pin the whole pile once.
        # Cards with the same faces play alike, so which copy goes where does not matter.
        self.discard = self._pin_discards(by_front)
        if self.discard is not None:
            pinned = set(self.discard)
            self.free = [c for c in self.free if c not in pinned]
            by_back = {
                back: [c for c in cards if c not in pinned] for back, cards in by_back.items()
            }
            if self.pile_top is not None:
                self.pile_top = [c for c in self.pile_top if c not in pinned]
        self.hand_slots: list[tuple[int, list[list[int]] | int]] = []
        # Per opponent dealt blind: what their turns say, and per card the oldest place in
        # their hand it may fill.
        self.readings: dict[int, tuple[HandReading, dict[int, int]]] = {}
        variant = self.template.rules.variant
        for opponent in view.opponents:
            seat = self.seats.index(opponent.player)
            reading = read_hand(opponent, variant)
            if opponent.backs is None:
                self.hand_slots.append((seat, opponent.card_count))
                if reading is not None:
                    self.readings[seat] = (reading, self._first_slots(reading))
                continue
            slots = [by_back.get(b, []) for b in opponent.backs]
            if reading is not None:
                # The cards they held at a turn could not have been played on what it faced.
                slots = [
                    [c for c in options if reading.first_slot(self.template.face(c, side)) <= i]
                    or options
                    for i, options in enumerate(slots)
                ]
            self.hand_slots.append((seat, slots))
        self.me = self.seats.index(view.player)

    def _first_slots(self, reading: HandReading) -> dict[int, int]:
        """Per free card, the oldest place in the reading's hand it may fill."""
        faces = self.template.faces(self.view.side)
        by_face: dict[Face, int] = {}
        first: dict[int, int] = {}
        for card in self.free:
            face = faces[card]
            slot = by_face.get(face)
            if slot is None:
                slot = by_face[face] = reading.first_slot(face)
            first[card] = slot
        return first

    def _pin_discards(self, by_front: dict[Face, list[int]]) -> list[int] | None:
        """One physical card per discard, matching both faces seen (None: history unknown)."""
        view = self.view
        if not view.discards or len(view.discards) != view.discard_count:
            return None
        back_side = other_side(view.side)
        backs = view.discard_backs
        used: set[int] = set()
        pile: list[int] = []
        for i, face in enumerate(view.discards):
            card = next(
                (
                    c
                    for c in by_front.get(face, ())
                    if c not in used
                    and (backs is None or self.template.face(c, back_side) == backs[i])
                ),
                None,
            )
            if card is None:
                return None
            used.add(card)
            pile.append(card)
        return pile

    def sample(self, rng: random.Random) -> Game:
        """A game consistent with the view, in the view's phase, hidden cards dealt at random."""
        view = self.view
        taken: set[int] = set()

        def take(options: list[int]) -> int | None:
            left = [c for c in options if c not in taken]
            if not left:
                return None
            card = left[0] if len(left) == 1 else rng.choice(left)
            taken.add(card)
            return card

        pinned = self.discard
        top = under = None
        if pinned is None:
            top = take(self.top)
            under = take(self.under) if self.under is not None else None
        pile_top = take(self.pile_top) if self.pile_top is not None else None
        hands: list[list[int]] = [[] for _ in self.seats]
        hands[self.me] = [c.card for c in view.hand]
        open_counts: list[tuple[int, int]] = []
        missing: list[tuple[int, int]] = []
        for seat, slots in self.hand_slots:
            if isinstance(slots, int):
                open_counts.append((seat, slots))
                continue
            hand = hands[seat]
            for options in slots:
                card = take(options)
                if card is None:
                    # Our guess at an earlier slot used the only fitting card: fill at random.
                    missing.append((seat, 1))
                else:
                    hand.append(card)
        rest = [c for c in self.free if c not in taken]
        shuffle(rng, rest)
        if pinned is None and top is None:
            top = rest.pop()
        faces = self.template.faces(view.side)
        for seat, count in open_counts:
            read = self.readings.get(seat)
            if read is None:
                missing.append((seat, count))
                continue
            pick = _guess_older_cards(read, min(count, read[0].covered), rest, faces, rng)
            hands[seat].extend(pick)
            chosen = set(pick)
            rest = [c for c in rest if c not in chosen]
            missing.append((seat, count - len(pick)))
        for seat, count in missing:
            hands[seat].extend(rest.pop() for _ in range(min(count, len(rest))))
        # No Mercy: the hands set aside by the Mercy rule, unseen, until the next reshuffle.
        set_aside: list[list[int]] = [[] for _ in self.seats]
        for player, count in view.set_aside:
            set_aside[self.seats.index(player)] = [rest.pop() for _ in range(min(count, len(rest)))]
        if pinned is not None:
            discard = list(pinned)
        else:
            assert top is not None
            # Without the pile's history, the older discards are dealt at random.
            old = max(0, view.discard_count - 1 - (under is not None))
            discard = [rest.pop() for _ in range(min(old, len(rest)))]
            discard.extend(c for c in (under, top) if c is not None)
        draw_pile = rest + ([pile_top] if pile_top is not None else [])
        return self._game(rng, hands, discard, draw_pile, set_aside)

    def _game(
        self,
        rng: random.Random,
        hands: list[list[int]],
        discard: list[int],
        draw_pile: list[int],
        set_aside: list[list[int]],
    ) -> Game:
        view, seats = self.view, self.seats
        game = self.template.fork(rng.getrandbits(32))
        game.hands = hands
        game.set_aside = set_aside
        game.knocked_out = [seats.index(player) for player in view.knocked_out]
        owed = dict(view.lost_turns)
        game.lost_turns = [owed.get(player, 0) for player in seats]
        game.discard = discard
        game.draw_pile = draw_pile
        game.side = view.side
        game.color = view.color
        game.direction = view.direction
        game.round_no = view.round_no
        game.dealer = seats.index(view.dealer) if view.dealer in seats else 0
        game.current = self.me
        called = {o.player: o.called_uno for o in view.opponents}
        game.uno_declared = [view.called_uno if p == view.player else called[p] for p in seats]
        game.turn_log = [[] for _ in seats]
        game.received = [0] * len(seats)
        game.phase = Phase.PLAY
        if view.phase == Phase.CHOOSE_COLOR:
            _resume_color_choice(game, view, self.me)
        elif view.phase == Phase.DRAWN:
            game.phase = Phase.DRAWN
            game.drawn_card = view.drawn_card
        return game


def _guess_older_cards(
    read: tuple[HandReading, dict[int, int]],
    count: int,
    rest: list[int],
    faces: Sequence[Face],
    rng: random.Random,
) -> list[int]:
    """A blind opponent's ``count`` oldest cards, oldest first, drawn from ``rest``.

    Each card is drawn from those its turns allow in its place; a guess that fails tests of
    their plays is accepted only now and then, so deals lean to hands that play as they did.
    """
    reading, first = read
    guess: list[int] = []
    for _ in range(FIT_TRIES):
        guess = []
        taken: set[int] = set()
        for slot in range(count):
            card = _pick(rest, first, slot, taken, rng)
            if card is None:
                break
            guess.append(card)
            taken.add(card)
        oldest = [faces[c] for c in guess]
        # Each failed test is survived with MISS_ACCEPTANCE: stop at the first one not survived.
        if all(
            test(oldest[:cards]) or rng.random() < MISS_ACCEPTANCE for cards, test in reading.tests
        ):
            return guess
    return guess


def _pick(
    rest: list[int], first: dict[int, int], slot: int, taken: set[int], rng: random.Random
) -> int | None:
    """A random card of ``rest`` that may fill ``slot`` and is not taken (None: there is none)."""
    if not rest:
        return None
    for _ in range(PICK_TRIES):
        card = rest[rng.randrange(len(rest))]
        if first[card] <= slot and card not in taken:
            return card
    allowed = [c for c in rest if first[c] <= slot and c not in taken]
    return rng.choice(allowed) if allowed else None


def can_sample(view: PlayerView) -> bool:
    """Whether the decision can be rebuilt in a determinization.

    Playing, the card just drawn, or naming the colour for a wild on top (with cards left: a
    last-card Wild Draw Color ends the round; the deal's starting wild has other consequences).
    """
    if view.phase == Phase.CHOOSE_COLOR:
        # (Not ``in (Kind.WILD, *DRAW_WILD_KINDS)``: mypyc cannot compile a starred tuple there.)
        kind = view.top.kind
        return (
            bool(view.hand)
            and view.discard_count > 1
            and (kind is Kind.WILD or kind in DRAW_WILD_KINDS)
        )
    return view.phase in SAMPLED_PHASES


def _resume_color_choice(game: Game, view: PlayerView, me: int) -> None:
    """Put the game back in the colour choice for the wild on top.

    After our own wild the colour in play is still the old one; a wild turned up by a Flip
    leaves no colour, and its draw effect does not apply.
    """
    game.phase = Phase.CHOOSE_COLOR
    kind = view.top.kind
    if kind not in DRAW_WILD_KINDS or view.color is None:
        game.after_color = AfterColor.NEXT_TURN
        return
    game.after_color = AfterColor.PENALTY
    game.penalty_kind = kind
    game.pending_draw = DRAW_AMOUNT.get(kind, 0)
    game.penalty_source = me
    game.penalty_challengeable = True
    game.penalty_guilty = any(c.face.color is view.color for c in view.hand)


def determinize(view: PlayerView, rng: random.Random) -> Game:
    """A game consistent with ``view`` (phase PLAY, or the colour choice after our wild)."""
    return Sampler(view).sample(rng)


# ---------------------------------------------------------------------- rollout policy


def policy_move(game: Game, player: str) -> Move:
    """The normal player's heuristics, read straight from the game (fast enough to roll out)."""
    seat = game.current
    if game.players[seat] != player:
        raise ValueError(f"{player} has nothing to decide")
    legal = game.legal_moves(player)
    # An identity scan: ``in`` would call the moves' dataclass __eq__ on every other move.
    for move in legal:
        if move is CALL_UNO:
            return CALL_UNO
    phase = game.phase
    if phase is _PLAY:
        return _best_play(game, seat, legal)
    if phase is Phase.CHOOSE_COLOR:
        return ChooseColor(_best_color(game, seat))
    if phase is Phase.SWAP_TARGET or phase is Phase.DRAW_TARGET:
        # The hand to swap with, or the All Wild target: the closest to going out.
        targets = [m for m in legal if isinstance(m, (SwapWith, TargetDraw))]
        order = {
            game.players[game.next_seat(seat, step)]: step for step in range(1, len(game.hands))
        }
        return min(targets, key=lambda m: (len(game.hand(m.target)), order[m.target]))
    if phase is Phase.PENALTY:
        stacks = [m for m in legal if isinstance(m, PlayCard)]
        if stacks:
            points = game.points()
            return max(stacks, key=lambda m: points[m.card])
        source = game.penalty_source
        if (
            CHALLENGE in legal
            and source is not None
            and len(game.hands[source]) >= CHALLENGE_FROM_CARDS
        ):
            return CHALLENGE
        return ACCEPT
    return _drawn_move(game, seat, legal)


def _fewest_other(hands: list[list[int]], seat: int) -> int:
    """The smallest hand but ``seat``'s."""
    sizes = list(map(len, hands))
    sizes[seat] = MAX_HAND
    return min(sizes)


def _endgame(game: Game, seat: int) -> bool:
    hands = game.hands
    return len(hands[seat]) <= 3 or _fewest_other(hands, seat) <= 2


def _bluff(game: Game, seat: int, face: Face) -> bool:
    color = game.color
    if face.kind not in DRAW_WILD_KINDS or color is None:
        return False
    faces = game.faces()
    return any(faces[c].color is color for c in game.hands[seat])


# The rollout policy runs for every move of every rollout, so it reads the game's face and
# points tables directly, counts colours with list.count (cheaper than a Counter for a hand)
# and compares kinds against these aliases (an enum member lookup on its class is slow).
_NUMBER, _REVERSE = Kind.NUMBER, Kind.REVERSE
_PLAY = Phase.PLAY


def _best_play(game: Game, seat: int, legal: list[Move]) -> Move:
    """NormalStrategy.play_or_draw with its default weights."""
    plays = [m for m in legal if type(m) is PlayCard]
    if not plays:
        return DRAW
    faces = game.faces()
    if len(plays) == 1:
        only = plays[0]
        assert isinstance(only, PlayCard)
        # (No draw instead at a "must play if able" table: DRAW is then not in ``legal``.)
        return DRAW if DRAW in legal and _bluff(game, seat, faces[only.card]) else only
    hands = game.hands
    hand = hands[seat]
    colors = [faces[c].color for c in hand]
    fewest = _fewest_other(hands, seat)
    danger = fewest <= 1
    endgame = len(hand) <= 3 or fewest <= 2
    step = game.direction
    next_count = len(hands[(seat + step) % len(hands)])
    previous_count = len(hands[(seat - step) % len(hands)])
    points = game.points()
    in_play = game.color
    best: Move = DRAW
    best_score = -math.inf
    for move in plays:
        assert isinstance(move, PlayCard)
        face = faces[move.card]
        kind = face.kind
        score = float(points[move.card]) if kind is _NUMBER or danger else ACTION_WEIGHT
        color = face.color
        if color is None:
            if kind in DRAW_WILD_KINDS and in_play is not None and in_play in colors:
                continue
            if not endgame:
                score -= WILD_HOLD
        else:
            score += SAME_COLOR_BONUS * (colors.count(color) - 1)
        if next_count <= 2:
            if kind in HITS_NEXT:
                score += HIT_NEXT_BONUS
            elif kind is _REVERSE and previous_count > next_count:
                score += REVERSE_AWAY_BONUS
        if score > best_score:
            best, best_score = move, score
    return best if best is not DRAW or DRAW in legal else plays[0]


def _drawn_move(game: Game, seat: int, legal: list[Move]) -> Move:
    drawn = game.drawn_card
    assert drawn is not None
    face = game.face(drawn)
    if _bluff(game, seat, face):
        return PASS
    keep = not _endgame(game, seat) and len(game.hands[seat]) >= KEEP_DRAWN_WILD_FROM
    if face.color is None and keep:
        return PASS
    return next(m for m in legal if isinstance(m, PlayCard))


def _best_color(game: Game, seat: int) -> Color:
    faces = game.faces()
    points = game.points()
    held: dict[Color | None, int] = {}
    weight: dict[Color | None, int] = {}
    for card in game.hands[seat]:
        color = faces[card].color
        held[color] = held.get(color, 0) + 1
        weight[color] = weight.get(color, 0) + points[card]
    best = max(game.color_choices(), key=lambda m: (held.get(m.color, 0), weight.get(m.color, 0)))
    return best.color


def rollout_value(
    game: Game,
    player: str,
    point_value: float = POINT_VALUE,
    depth: int | None = None,
    exponent: float = EVAL_EXPONENT,
) -> float:
    """Play the round out with the policy; 1 for a win, plus ``point_value`` per point won and
    minus it per point left in our hand. With ``depth``, stop after that many moves and score
    the position by ``position_value`` instead."""
    limit = MAX_ROLLOUT_MOVES if depth is None else depth
    for _ in range(limit):
        if game.phase in TERMINAL_PHASES:
            break
        current = game.players[game.current]
        game.apply(current, policy_move(game, current))
    # (A round ended by the very last move counts as ended, not as a position.)
    if game.phase not in TERMINAL_PHASES:
        if depth is not None:
            return position_value(game, player, point_value, exponent)
        return -game.hand_points(player) * point_value
    result = game.history[-1]
    if result.winner == player:
        return 1 + result.awarded[player] * point_value
    if game.knocked_out and game.seat_of(player) in game.knocked_out:
        return -knockout_cost(game) * point_value
    return -result.hand_points[player] * point_value


def position_value(game: Game, player: str, point_value: float, exponent: float) -> float:
    """A round in progress scored like a finished one, in expectation.

    Each player's chance to go out first is taken as proportional to ``(cards held) **
    -exponent``; a win earns the points left in the other hands, a loss costs our own.
    """
    seat = game.seat_of(player)
    if game.knocked_out:
        return _knocked_out_value(game, seat, point_value, exponent)
    weights = [math.pow(max(len(hand), 1), -exponent) for hand in game.hands]
    p_win = weights[seat] / sum(weights)
    own = game.hand_points(player)
    others = sum(game.hand_points(p) for p in game.players if p != player)
    return p_win * (1 + others * point_value) - (1 - p_win) * own * point_value


def _knocked_out_value(game: Game, seat: int, point_value: float, exponent: float) -> float:
    """``position_value`` in No Mercy once someone is knocked out: the knocked-out have no
    chance to go out, and being knocked out costs as much as a hand the winner scores it for."""
    gone = game.knocked_out
    if seat in gone:
        return -knockout_cost(game) * point_value
    weights = [
        0.0 if s in gone else math.pow(max(len(hand), 1), -exponent)
        for s, hand in enumerate(game.hands)
    ]
    p_win = weights[seat] / sum(weights)
    own = game.hand_points(game.players[seat])
    others = sum(game.hand_points(p) for p in game.players if p != game.players[seat])
    bonus = knockout_cost(game) * len(gone)
    return p_win * (1 + (others + bonus) * point_value) - (1 - p_win) * own * point_value


def knockout_cost(game: Game) -> int:
    """What a knockout is worth to the hand's winner (No Mercy's bonus; 0 elsewhere)."""
    return variant_entry(game.rules.variant).knockout_bonus


def release_gil() -> None:
    """Let another thread that asked for the GIL take it (the event loop, for a click).

    Compiled by mypyc, engine and rollouts alike, a decision may never pass through the
    interpreter's eval loop, which is where a thread hands the GIL over to one that has waited
    for it a switch interval (``sys.getswitchinterval()``, 5 ms) and so asked: the event loop
    then waited up to 52 ms for a decision's thread. A select on nothing with no timeout
    releases the GIL without giving the CPU away, as ``os.sched_yield()`` or ``time.sleep(0)``
    would (a time slice each on a busy core). Releasing it after every rollout let the event
    loop in so often that rollouts per decision fell by almost half in bench.ai_load, and
    once a millisecond never let a waiting thread ask (each release restarts its wait): every
    ``GIL_RELEASE_SECONDS`` (6 ms) bounds the wait at about 7 ms. (Windows cannot select on
    nothing; there a zero sleep releases it, at the cost of a time slice.)
    """
    if sys.platform == "win32":
        time.sleep(0)
    else:
        select.select([], [], [], 0)


def run_rollouts(
    view: PlayerView,
    candidates: Sequence[Move],
    rng: random.Random,
    *,
    max_rollouts: int | None,
    deadline: float | None,
    clock: Callable[[], float],
    prune_z: float = 0.0,
    point_value: float = POINT_VALUE,
    depth: int | None = None,
    exponent: float = EVAL_EXPONENT,
) -> Rollouts:
    """Every candidate played out on the same determinizations (common random numbers).

    The comparison is then not drowned by the luck of the deal. With ``prune_z`` a candidate
    that trails the leader by that many standard errors gets no more rollouts (the first
    candidate, the heuristic's choice, always does), so the budget goes where it decides
    something. The loop stops at ``max_rollouts`` in total or when one more round of rollouts
    (timed from the slowest so far) would pass ``deadline`` on ``clock``; with neither it would
    never stop, so callers pass one. ``depth`` and ``exponent`` are as in ``rollout_value``.
    """
    sampler = Sampler(view)
    values: list[list[float]] = [[] for _ in candidates]
    active = list(range(len(candidates)))
    runs = 0
    slowest = 0.0
    released = time.perf_counter()
    while len(active) > 1 and (max_rollouts is None or runs + len(active) <= max_rollouts):
        started = clock() if deadline is not None else 0.0
        if deadline is not None and started + slowest >= deadline:
            break
        seed = rng.getrandbits(32)
        deal = sampler.sample(random.Random(seed))
        for index in active:
            game = deal.fork(seed)
            game.apply(view.player, candidates[index])
            values[index].append(rollout_value(game, view.player, point_value, depth, exponent))
            now = time.perf_counter()
            if now - released >= GIL_RELEASE_SECONDS:
                release_gil()
                released = now
        runs += len(active)
        if deadline is not None:
            slowest = max(slowest, clock() - started)
        if prune_z > 0 and len(values[0]) >= PRUNE_AFTER:
            active = _survivors(values, active, prune_z)
    return Rollouts(tuple(tuple(v) for v in values))


def _survivors(values: list[list[float]], active: list[int], z: float) -> list[int]:
    leader = max(active, key=lambda i: sum(values[i]))
    kept = []
    for index in active:
        if index in (0, leader) or paired_z(values[index], values[leader]) > -z:
            kept.append(index)
    return kept


def paired_z(values: Sequence[float], others: Sequence[float]) -> float:
    """How many standard errors the mean of ``values`` lies above ``others`` on shared deals."""
    diffs = [a - b for a, b in zip(values, others, strict=False)]
    if len(diffs) < 2:
        return 0.0
    mean = sum(diffs) / len(diffs)
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
    if spread == 0:
        return math.copysign(math.inf, mean) if mean else 0.0
    return mean / (spread / math.sqrt(len(diffs)))


__all__ = [
    "Rollouts",
    "Sampler",
    "can_sample",
    "determinize",
    "policy_move",
    "rollout_value",
    "run_rollouts",
]
