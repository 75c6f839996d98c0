"""A short card notation for tests, docs and debugging: ``cards("R5 G+2 W+4")``.

Colours: R Y G B (light and classic), P T O U (dark: pink, teal, orange, pUrple).
After the colour: a digit, S (skip), R (reverse), F (flip), SE (skip everyone), +1 +2 +4 +5,
DA (discard all).
Wilds: W, W+4, W+2, W+C (draw color), WSH (shuffle hands), WSW (swap hands), WCU (customizable);
No Mercy's WR+4 (reverse draw four), W+6, W+10 and WCR (color roulette); All Wild's WRV
(reverse), WSK (skip), WSK2 (skip two), WT+2 (targeted draw two) and WFS (forced swap).
A Flip card can be pinned by both faces: ``R5|P3``.
"""

from __future__ import annotations

from collections.abc import Mapping

from .cards import Color, Face, Kind, Side
from .game import Game, Phase
from .rules import RuleSet

COLOR_CODES: dict[str, Color] = {
    "R": Color.RED,
    "Y": Color.YELLOW,
    "G": Color.GREEN,
    "B": Color.BLUE,
    "P": Color.PINK,
    "T": Color.TEAL,
    "O": Color.ORANGE,
    "U": Color.PURPLE,
}
CODE_OF_COLOR = {color: code for code, color in COLOR_CODES.items()}
SYMBOL_CODES: dict[str, Kind] = {
    "S": Kind.SKIP,
    "R": Kind.REVERSE,
    "F": Kind.FLIP,
    "SE": Kind.SKIP_EVERYONE,
    "+1": Kind.DRAW_ONE,
    "+2": Kind.DRAW_TWO,
    "+5": Kind.DRAW_FIVE,
    "+4": Kind.DRAW_FOUR,
    "DA": Kind.DISCARD_ALL,
}
WILD_CODES: dict[str, Kind] = {
    "W": Kind.WILD,
    "W+4": Kind.WILD_DRAW_FOUR,
    "W+2": Kind.WILD_DRAW_TWO,
    "W+C": Kind.WILD_DRAW_COLOR,
    "WSH": Kind.WILD_SHUFFLE_HANDS,
    "WSW": Kind.WILD_SWAP_HANDS,
    "WCU": Kind.WILD_CUSTOMIZABLE,
    "WR+4": Kind.WILD_REVERSE_DRAW_FOUR,
    "W+6": Kind.WILD_DRAW_SIX,
    "W+10": Kind.WILD_DRAW_TEN,
    "WCR": Kind.WILD_COLOR_ROULETTE,
    "WRV": Kind.WILD_REVERSE,
    "WSK": Kind.WILD_SKIP,
    "WSK2": Kind.WILD_SKIP_TWO,
    "WT+2": Kind.WILD_TARGETED_DRAW_TWO,
    "WFS": Kind.WILD_FORCED_SWAP,
}
CODE_OF_KIND = {kind: code for code, kind in {**SYMBOL_CODES, **WILD_CODES}.items()}


def parse_face(token: str) -> Face:
    """The face a token such as ``R5``, ``T+5``, ``USE`` or ``W+C`` names."""
    token = token.strip().upper()
    if token in WILD_CODES:
        return Face(None, WILD_CODES[token])
    color = COLOR_CODES.get(token[:1])
    rest = token[1:]
    if color is None or not rest:
        raise ValueError(f"not a card: {token!r}")
    if rest.isdigit() and len(rest) == 1:
        return Face(color, Kind.NUMBER, int(rest))
    if rest in SYMBOL_CODES:
        return Face(color, SYMBOL_CODES[rest])
    raise ValueError(f"not a card: {token!r}")


def face_code(face: Face) -> str:
    """The notation of ``face`` (the inverse of ``parse_face``)."""
    if face.color is None:
        return CODE_OF_KIND[face.kind]
    symbol = str(face.number) if face.kind is Kind.NUMBER else CODE_OF_KIND[face.kind]
    return CODE_OF_COLOR[face.color] + symbol


def faces(text: str) -> list[Face]:
    """Every face in a space-separated list of tokens."""
    return [parse_face(token) for token in text.split()]


def _wanted(token: str, side: Side) -> tuple[Face | None, Face | None]:
    if "|" in token:
        light, dark = token.split("|")
        return parse_face(light), parse_face(dark)
    face = parse_face(token)
    return (face, None) if side is Side.LIGHT else (None, face)


def setup(
    hands: Mapping[str, str],
    top: str,
    *,
    rules: RuleSet | None = None,
    draw: str = "",
    side: Side = Side.LIGHT,
    color: Color | None = None,
    current: int = 0,
    direction: int = 1,
    seed: int = 0,
) -> Game:
    """A game in the middle of a round with exactly these hands and piles.

    ``top`` lists the discard pile bottom to top (its last token is the top card), ``draw`` the
    cards to be drawn next, first drawn first. Every other card goes into the draw pile below
    them, so the deck stays complete. The colour in play defaults to the top card's colour
    (a variant without colours, All Wild, has none).
    """
    game = Game(list(hands), rules or RuleSet(), seed)
    free = list(range(len(game.deck)))

    def take(token: str) -> int:
        light, dark = _wanted(token, side)
        for card in free:
            if (light is None or game.face(card, Side.LIGHT) == light) and (
                dark is None or game.face(card, Side.DARK) == dark
            ):
                free.remove(card)
                return card
        raise ValueError(f"no card {token!r} left in the {game.rules.variant} deck")

    game.hands = [[take(t) for t in hand.split()] for hand in hands.values()]
    game.discard = [take(t) for t in top.split()]
    next_draws = [take(t) for t in draw.split()]
    game.rng.shuffle(free)
    game.draw_pile = free + next_draws[::-1]
    game.side = side
    top_face = game.top_face()
    game.color = color if color is not None else top_face.color
    if game.color is None and game.color_choices():
        raise ValueError("a wild on top needs color=...")
    game.round_no = 1
    game.current = current
    game.dealer = (current - 1) % len(hands)
    game.direction = direction
    game.phase = Phase.PLAY
    return game
