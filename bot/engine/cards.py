"""Card values: colours, kinds, faces and double-sided cards.

Cards are tiny immutable tuples so the hot path (matching, scoring) stays cheap. A game refers to
physical cards by their index in the deck, which keeps the state small and JSON-friendly.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import NamedTuple


class Side(IntEnum):
    """Which face of the Flip cards is in play (classic games stay on LIGHT)."""

    LIGHT = 0
    DARK = 1


class Color(StrEnum):
    """Card colours of both Flip sides (classic uses the light four)."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"
    PINK = "pink"
    TEAL = "teal"
    ORANGE = "orange"
    PURPLE = "purple"


LIGHT_COLORS: tuple[Color, ...] = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)
DARK_COLORS: tuple[Color, ...] = (Color.PINK, Color.TEAL, Color.ORANGE, Color.PURPLE)


class Kind(StrEnum):
    """What a face does. Values match the deck CSV's kind column."""

    NUMBER = "number"
    SKIP = "skip"
    REVERSE = "reverse"
    DRAW_TWO = "draw_two"
    DRAW_ONE = "draw_one"
    DRAW_FIVE = "draw_five"
    SKIP_EVERYONE = "skip_everyone"
    FLIP = "flip"
    WILD = "wild"
    WILD_DRAW_FOUR = "wild_draw_four"
    WILD_DRAW_TWO = "wild_draw_two"
    WILD_DRAW_COLOR = "wild_draw_color"
    WILD_SHUFFLE_HANDS = "wild_shuffle_hands"
    WILD_SWAP_HANDS = "wild_swap_hands"
    WILD_CUSTOMIZABLE = "wild_customizable"
    # UNO Show 'Em No Mercy (RULES-VARIANTS.md section 1).
    DRAW_FOUR = "draw_four"
    DISCARD_ALL = "discard_all"
    WILD_REVERSE_DRAW_FOUR = "wild_reverse_draw_four"
    WILD_DRAW_SIX = "wild_draw_six"
    WILD_DRAW_TEN = "wild_draw_ten"
    WILD_COLOR_ROULETTE = "wild_color_roulette"
    # UNO All Wild (RULES-VARIANTS.md section 2); its Wild, Wild Draw Two and Wild Draw Four
    # are the kinds above.
    WILD_REVERSE = "wild_reverse"
    WILD_SKIP = "wild_skip"
    WILD_SKIP_TWO = "wild_skip_two"
    WILD_TARGETED_DRAW_TWO = "wild_targeted_draw_two"
    WILD_FORCED_SWAP = "wild_forced_swap"


WILD_KINDS = frozenset(
    {
        Kind.WILD,
        Kind.WILD_DRAW_FOUR,
        Kind.WILD_DRAW_TWO,
        Kind.WILD_DRAW_COLOR,
        Kind.WILD_SHUFFLE_HANDS,
        Kind.WILD_SWAP_HANDS,
        Kind.WILD_CUSTOMIZABLE,
        Kind.WILD_REVERSE_DRAW_FOUR,
        Kind.WILD_DRAW_SIX,
        Kind.WILD_DRAW_TEN,
        Kind.WILD_COLOR_ROULETTE,
        Kind.WILD_REVERSE,
        Kind.WILD_SKIP,
        Kind.WILD_SKIP_TWO,
        Kind.WILD_TARGETED_DRAW_TWO,
        Kind.WILD_FORCED_SWAP,
    }
)
# Wilds whose play is only legal without a card of the colour in play (so they can be challenged).
DRAW_WILD_KINDS = frozenset({Kind.WILD_DRAW_FOUR, Kind.WILD_DRAW_TWO, Kind.WILD_DRAW_COLOR})
# Fixed-size draw penalties; WILD_DRAW_COLOR draws "until the colour" instead.
DRAW_AMOUNT: dict[Kind, int] = {
    Kind.DRAW_ONE: 1,
    Kind.DRAW_TWO: 2,
    Kind.DRAW_FIVE: 5,
    Kind.WILD_DRAW_TWO: 2,
    Kind.WILD_DRAW_FOUR: 4,
}
# No Mercy's Draw Cards and their values (RULES-VARIANTS.md section 1.5): a stack pending on
# a player may be answered with a Draw Card worth at least the last one played.
STACK_VALUE: dict[Kind, int] = {
    Kind.DRAW_TWO: 2,
    Kind.DRAW_FOUR: 4,
    Kind.WILD_REVERSE_DRAW_FOUR: 4,
    Kind.WILD_DRAW_SIX: 6,
    Kind.WILD_DRAW_TEN: 10,
}

KIND_NAMES: dict[Kind, str] = {
    Kind.NUMBER: "",
    Kind.SKIP: "Skip",
    Kind.REVERSE: "Reverse",
    Kind.DRAW_TWO: "Draw Two",
    Kind.DRAW_ONE: "Draw One",
    Kind.DRAW_FIVE: "Draw Five",
    Kind.SKIP_EVERYONE: "Skip Everyone",
    Kind.FLIP: "Flip",
    Kind.WILD: "Wild",
    Kind.WILD_DRAW_FOUR: "Wild Draw Four",
    Kind.WILD_DRAW_TWO: "Wild Draw Two",
    Kind.WILD_DRAW_COLOR: "Wild Draw Color",
    Kind.WILD_SHUFFLE_HANDS: "Wild Shuffle Hands",
    Kind.WILD_SWAP_HANDS: "Wild Swap Hands",
    Kind.WILD_CUSTOMIZABLE: "Wild Customizable",
    Kind.DRAW_FOUR: "Draw Four",
    Kind.DISCARD_ALL: "Discard All",
    Kind.WILD_REVERSE_DRAW_FOUR: "Wild Reverse Draw Four",
    Kind.WILD_DRAW_SIX: "Wild Draw Six",
    Kind.WILD_DRAW_TEN: "Wild Draw Ten",
    Kind.WILD_COLOR_ROULETTE: "Wild Color Roulette",
    Kind.WILD_REVERSE: "Wild Reverse",
    Kind.WILD_SKIP: "Wild Skip",
    Kind.WILD_SKIP_TWO: "Wild Skip Two",
    Kind.WILD_TARGETED_DRAW_TWO: "Wild Targeted Draw Two",
    Kind.WILD_FORCED_SWAP: "Wild Forced Swap",
}


class Face(NamedTuple):
    """One printed side of a card. Wilds have no colour; only numbers have a number."""

    color: Color | None
    kind: Kind
    number: int | None = None

    @property
    def is_wild(self) -> bool:
        """True for every wild, draw-wilds included."""
        return self.color is None

    def name(self) -> str:
        """A player-readable name such as "Red 5", "Teal Skip Everyone" or "Wild Draw Two"."""
        if self.color is None:
            return KIND_NAMES[self.kind]
        label = str(self.number) if self.kind is Kind.NUMBER else KIND_NAMES[self.kind]
        return f"{self.color.value.capitalize()} {label}"


class Card(NamedTuple):
    """A physical card: a light face and, for Flip cards, a dark face."""

    light: Face
    dark: Face | None = None

    def face(self, side: Side) -> Face:
        """The face showing on ``side`` (classic cards only have a light face)."""
        if side is Side.DARK and self.dark is not None:
            return self.dark
        return self.light
