"""Card counting from public information only.

In Flip every opponent's card shows its other face, and the real deck pairs each face with only
one or two possible faces on the other side, so the faces in play can be narrowed down to a few
candidates per card. In classic only the deck's composition is known.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, partial

from bot.engine.cards import Card, Color, Face, Kind, Side
from bot.engine.decks import deck_of as variant_deck
from bot.engine.rules import Edition
from bot.engine.scoring import face_points
from bot.engine.variants import variant
from bot.engine.view import OpponentView, PlayerView

from .normal import NormalStrategy

# The normal player's default weights, for reading its plays (read from an instance: compiled,
# a dataclass field's default is not a class attribute).
_NORMAL = NormalStrategy()
ACTION_WEIGHT = _NORMAL.action_weight
SAME_COLOR_BONUS = _NORMAL.same_color_bonus
# Plays from smaller hands are not read: near the end of a round normal plays differently.
READ_FROM_CARDS = 4
HandTest = Callable[[Sequence[Face]], bool]

# Specials that only exist in one classic edition betray it when seen.
EDITION_MARKERS: dict[Kind, Edition] = {
    Kind.WILD_SHUFFLE_HANDS: "shuffle_hands",
    Kind.WILD_SWAP_HANDS: "swap_hands",
}


def edition_of(view: PlayerView) -> Edition:
    """The classic edition the cards seen so far betray (standard unless a special shows)."""
    seen = {c.face.kind for c in view.hand} | {view.top.kind}
    for kind, edition in EDITION_MARKERS.items():
        if kind in seen:
            return edition
    # Customizable wilds come with either special; which one does not matter for counting.
    return "shuffle_hands" if Kind.WILD_CUSTOMIZABLE in seen else "standard"


def deck_of(view: PlayerView) -> tuple[Card, ...]:
    """The physical deck the view's game is most likely played with."""
    entry = variant(view.variant)
    return variant_deck(entry, edition_of(view) if entry.deck.chosen_by == "edition" else "")


@cache
def _cards_by_face(deck: tuple[Card, ...], side: Side) -> dict[Face, tuple[int, ...]]:
    by_face: defaultdict[Face, list[int]] = defaultdict(list)
    for index, card in enumerate(deck):
        by_face[card.face(side)].append(index)
    return {face: tuple(cards) for face, cards in by_face.items()}


def other_side(side: Side) -> Side:
    """The side not in play."""
    return Side.DARK if side is Side.LIGHT else Side.LIGHT


def unseen_faces(view: PlayerView) -> Counter[Face]:
    """Faces in play of every card we cannot see (others' hands, the draw pile, old discards)."""
    deck = deck_of(view)
    mine = {c.card for c in view.hand}
    pool = Counter(card.face(view.side) for i, card in enumerate(deck) if i not in mine)
    seen = view.discards or (view.top, view.under_top)
    for known in seen:
        if known is not None and pool[known] > 0:
            pool[known] -= 1
    return pool


def playable_on(face: Face, top: Face, color: Color | None) -> bool:
    """Whether ``face`` could have been played on ``top`` with ``color`` in play."""
    if face.color is None or face.color is color:
        return True
    if face.kind is not top.kind or top.color is None:
        return False
    return face.kind is not Kind.NUMBER or face.number == top.number


@dataclass(frozen=True)
class Bar:
    """Faces none of an opponent's ``cards`` oldest cards can be."""

    cards: int
    rules_out: Callable[[Face], bool]


@dataclass(frozen=True)
class HandReading:
    """What an opponent's turns this round say about the cards they hold now, oldest first.

    A bar is certain for a normal player; a test is only likely (it reads a play made the
    normal way from cards counted since, not from the whole hand held then) and is checked
    on a whole guess at their older cards.
    """

    bars: tuple[Bar, ...]
    tests: tuple[tuple[int, HandTest], ...]

    @property
    def covered(self) -> int:
        """How many of their oldest cards anything is known about."""
        return max([b.cards for b in self.bars] + [cards for cards, _ in self.tests])

    def first_slot(self, face: Face) -> int:
        """The oldest of their cards (0: the oldest) that ``face`` may be."""
        return max((b.cards for b in self.bars if b.rules_out(face)), default=0)

    def misses(self, oldest: Sequence[Face]) -> int:
        """How many tests a guess at their oldest cards fails."""
        return sum(not test(oldest[:cards]) for cards, test in self.tests)


def read_hand(opponent: OpponentView, variant: str) -> HandReading | None:
    """Read every turn ``opponent`` took this round as a normal player's (None: nothing known).

    A normal player never draws holding a playable card, so after a draw every card held then
    was unplayable on what they faced; mid-round they play a wild only when no coloured card
    fits, name the colour they hold most, and otherwise play their best-scoring card. Cards
    received since a turn are unknown to it: a turn covers the ``card_count -
    received_since`` oldest cards, since cards received are added behind the others.
    """
    bars: list[Bar] = []
    tests: list[tuple[int, HandTest]] = []
    for turn in opponent.turns:
        old = opponent.card_count - turn.received_since
        if old <= 0:
            continue
        top, color, played = turn.top, turn.color, turn.played
        if played is None:
            bars.append(Bar(old, partial(playable_on, top=top, color=color)))
            continue
        # A hand of old + 1 or more cards then: at least READ_FROM_CARDS, nobody close to out.
        if old + 1 < READ_FROM_CARDS or turn.fewest_other <= 2:
            continue
        if played.color is None:
            bars.append(Bar(old, partial(_coloured_and_playable, top=top, color=color)))
            if turn.named is not None:
                tests.append((old, partial(_named_most, named=turn.named)))
        else:
            test = partial(_best_play, played=played, top=top, color=color, variant=variant)
            tests.append((old, test))
    if not bars and not tests:
        return None
    return HandReading(tuple(bars), tuple(tests))


def _coloured_and_playable(face: Face, top: Face, color: Color | None) -> bool:
    return face.color is not None and playable_on(face, top, color)


def _named_most(faces: Sequence[Face], named: Color) -> bool:
    held = Counter(f.color for f in faces if f.color is not None)
    return held[named] >= max(held.values(), default=0)


def _best_play(
    faces: Sequence[Face], played: Face, top: Face, color: Color | None, variant: str
) -> bool:
    held = Counter(f.color for f in faces if f.color is not None)
    assert played.color is not None
    held[played.color] += 1
    bar = _normal_score(played, held, variant)
    return not any(
        f.color is not None and playable_on(f, top, color) and _normal_score(f, held, variant) > bar
        for f in faces
    )


def _normal_score(face: Face, held: Counter[Color], variant: str) -> float:
    """The normal player's mid-round score for a coloured card (see NormalStrategy)."""
    base = face_points(face, variant) if face.kind is Kind.NUMBER else ACTION_WEIGHT
    if face.color is None:
        return base
    return base + SAME_COLOR_BONUS * (held[face.color] - 1)


def candidate_fronts(view: PlayerView, back: Face) -> list[Face]:
    """Faces in play that a card showing ``back`` may have (Flip), excluding our own cards."""
    deck = deck_of(view)
    mine = {c.card for c in view.hand}
    cards = _cards_by_face(deck, other_side(view.side)).get(back, ())
    return [deck[i].face(view.side) for i in cards if i not in mine]


def hand_candidates(view: PlayerView, opponent: OpponentView) -> list[list[Face]] | None:
    """Per card of ``opponent``, the faces in play it may have; None without backs."""
    if opponent.backs is None:
        return None
    return [candidate_fronts(view, back) for back in opponent.backs]


def prob_holds_color(view: PlayerView, opponent: OpponentView, color: Color) -> float:
    """The probability that ``opponent`` holds at least one card of ``color`` right now.

    Their cards are taken one by one as independent (each from what their turns allow it to
    be); the cards nothing is known about are drawn from the unseen ones without replacement.
    """
    reading = read_hand(opponent, view.variant)
    covered = 0 if reading is None else min(reading.covered, opponent.card_count)
    candidates = hand_candidates(view, opponent)
    if candidates is not None:
        p_none = 1.0
        for slot, faces in enumerate(candidates):
            if reading is not None:
                faces = [f for f in faces if reading.first_slot(f) <= slot] or faces
            if faces:
                p_none *= 1 - sum(f.color is color for f in faces) / len(faces)
        return 1 - p_none
    pool = unseen_faces(view)
    p_none = _p_none_drawn(pool, color, opponent.card_count - covered)
    if reading is not None:
        first = {face: reading.first_slot(face) for face in pool}
        for slot in range(covered):
            allowed = [(f, n) for f, n in pool.items() if first[f] <= slot]
            total = sum(n for _, n in allowed)
            if total:
                p_none *= 1 - sum(n for f, n in allowed if f.color is color) / total
    return 1 - p_none


def _p_none_drawn(pool: Counter[Face], color: Color, count: int) -> float:
    """Drawing ``count`` cards from ``pool`` without replacement: the chance none has ``color``."""
    total = sum(pool.values())
    others = total - sum(n for f, n in pool.items() if f.color is color)
    p_none = 1.0
    for i in range(count):
        if total - i <= 0:
            break
        p_none *= max(others - i, 0) / (total - i)
    return p_none
