"""Card counting from public information only.

In Flip every opponent's card shows its other face, and the real deck pairs each face with only
one or two possible faces on the other side, so the faces in play can be narrowed down to a few
candidates per card. In classic only the deck's composition is known.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from functools import cache

from bot.engine.cards import Card, Color, Face, Kind, Side
from bot.engine.decks import classic_deck, flip_deck
from bot.engine.rules import Edition, Variant
from bot.engine.scoring import face_points
from bot.engine.view import OpponentView, PlayerView

from .normal import NormalStrategy

# The normal player's weights, for reading its plays.
ACTION_WEIGHT = NormalStrategy.action_weight
SAME_COLOR_BONUS = NormalStrategy.same_color_bonus
# Plays from smaller hands are not read: near the end of a round normal plays differently.
READ_FROM_CARDS = 4

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
    if view.variant == "flip":
        return flip_deck()
    return classic_deck(edition_of(view))


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


def excluded_faces(opponent: OpponentView) -> Callable[[Face], bool] | None:
    """Faces ``opponent``'s older cards cannot be, judging by their last turn (or None).

    The normal player never draws holding a playable card, so after a draw every older card was
    unplayable on what they faced; only the ``received_since`` cards after are unknown. (A wild
    says less: near the end of a round the normal player spends wilds freely.)
    """
    top = opponent.last_top
    if top is None:
        return None
    color = opponent.last_color
    played = opponent.last_played
    if played is None:
        return lambda face: playable_on(face, top, color)
    return None


def hand_fits(opponent: OpponentView, variant: Variant) -> Callable[[list[Face]], bool] | None:
    """A test that older cards fit ``opponent``'s last play made the normal way (or None).

    A wild's colour is the one they held most of; a coloured card was the best-scoring play
    (highest points, a little more for a colour they held more of). Near the end of a round the
    normal player plays differently, so small hands are not tested.
    """
    top, played = opponent.last_top, opponent.last_played
    old = old_card_count(opponent)
    if top is None or played is None or old < READ_FROM_CARDS:
        return None
    named = opponent.last_named
    if played.color is None:
        if named is None:
            return None

        def named_most(faces: list[Face]) -> bool:
            held = Counter(f.color for f in faces if f.color is not None)
            return held[named] >= max(held.values(), default=0)

        return named_most
    color = opponent.last_color
    own_color = played.color

    def best_play(faces: list[Face]) -> bool:
        held = Counter(f.color for f in faces if f.color is not None)
        held[own_color] += 1
        bar = _normal_score(played, held, variant)
        return not any(
            f.color is not None
            and playable_on(f, top, color)
            and _normal_score(f, held, variant) > bar
            for f in faces
        )

    return best_play


def _normal_score(face: Face, held: Counter[Color], variant: Variant) -> float:
    """The normal player's mid-round score for a coloured card (see NormalStrategy)."""
    base = face_points(face, variant) if face.kind is Kind.NUMBER else ACTION_WEIGHT
    if face.color is None:
        return base
    return base + SAME_COLOR_BONUS * (held[face.color] - 1)


def old_card_count(opponent: OpponentView) -> int:
    """How many of ``opponent``'s cards they already held at their last turn (0: none seen)."""
    if opponent.last_top is None:
        return 0
    return max(0, opponent.card_count - opponent.received_since)


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
    """The probability that ``opponent`` holds at least one card of ``color`` right now."""
    excluded = excluded_faces(opponent)
    old = old_card_count(opponent)
    candidates = hand_candidates(view, opponent)
    if candidates is not None:
        p_none = 1.0
        for slot, faces in enumerate(candidates):
            if excluded is not None and slot < old:
                faces = [f for f in faces if not excluded(f)] or faces
            if faces:
                p_none *= 1 - sum(f.color is color for f in faces) / len(faces)
        return 1 - p_none
    pool = unseen_faces(view)
    p_none = _p_none_drawn(pool, color, opponent.card_count - old)
    if excluded is not None and old:
        allowed = Counter({f: n for f, n in pool.items() if not excluded(f)})
        p_none *= _p_none_drawn(allowed, color, old)
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
