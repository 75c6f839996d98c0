"""Card counting from public information only.

In Flip every opponent's card shows its other face, and the real deck pairs each face with only
one or two possible faces on the other side, so the faces in play can be narrowed down to a few
candidates per card. In classic only the deck's composition is known.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from functools import cache
from math import prod

from bot.engine.cards import Card, Color, Face, Kind, Side
from bot.engine.decks import classic_deck, flip_deck
from bot.engine.rules import Edition
from bot.engine.view import OpponentView, PlayerView

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
    for known in (view.top, view.under_top):
        if known is not None and pool[known] > 0:
            pool[known] -= 1
    return pool


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
    candidates = hand_candidates(view, opponent)
    if candidates is not None:
        p_none = prod(
            1 - sum(f.color is color for f in faces) / len(faces) for faces in candidates if faces
        )
        return 1 - p_none
    pool = unseen_faces(view)
    total = sum(pool.values())
    others = total - sum(n for f, n in pool.items() if f.color is color)
    # Drawing without replacement: the chance that none of their cards has the colour.
    p_none = 1.0
    for i in range(opponent.card_count):
        if total - i <= 0:
            break
        p_none *= max(others - i, 0) / (total - i)
    return 1 - p_none
