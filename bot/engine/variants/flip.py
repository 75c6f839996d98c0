"""UNO Flip (Mattel, 2019): the 112 double-sided cards of GDR44, light side and dark side."""

from __future__ import annotations

from ..cards import DARK_COLORS, LIGHT_COLORS, Face, Kind
from .spec import WHOLE_DECK, DeckSpec, RuleOption, Variant, VariantWords, each_color

_NUMBERS = dict.fromkeys(range(1, 10), 2)

FLIP = Variant(
    key="flip",
    command="flip",
    description="UNO Flip: the double-sided deck",
    deck=DeckSpec(
        file="uno_flip_deck.csv",
        composition=(
            each_color(
                LIGHT_COLORS,
                _NUMBERS,
                {Kind.REVERSE: 2, Kind.FLIP: 2, Kind.DRAW_ONE: 2, Kind.SKIP: 2},
            )
            | {Face(None, Kind.WILD): 4, Face(None, Kind.WILD_DRAW_TWO): 4},
            each_color(
                DARK_COLORS,
                _NUMBERS,
                {Kind.REVERSE: 2, Kind.FLIP: 2, Kind.DRAW_FIVE: 2, Kind.SKIP_EVERYONE: 2},
            )
            | {Face(None, Kind.WILD): 4, Face(None, Kind.WILD_DRAW_COLOR): 4},
        ),
        sizes={WHOLE_DECK: 112},
    ),
    colors=(LIGHT_COLORS, DARK_COLORS),
    points={
        Kind.DRAW_ONE: 10,
        Kind.DRAW_FIVE: 20,
        Kind.REVERSE: 20,
        Kind.SKIP: 20,
        Kind.FLIP: 20,
        Kind.SKIP_EVERYONE: 30,
        Kind.WILD: 40,
        Kind.WILD_DRAW_TWO: 50,
        Kind.WILD_DRAW_COLOR: 60,
    },
    words=VariantWords(
        name="board.variant.flip",
        lobby_title="lobby.title.flip",
        table_title="table.title.flip",
        summary="summary.variant.flip",
        rules="rules.flip",
        rules_sections=("turn", "light", "dark", "flip", "challenge", "uno", "scoring", "house"),
        again="match.footer",
    ),
    art="flip",
    rule_options={
        "seven_o": RuleOption(
            False,
            (False,),
            "Seven-O needs classic UNO: the Flip deck has no 0",
            "settings.reason.seven_o_flip",
        ),
        "edition": RuleOption(
            "standard",
            ("standard",),
            "the 112-card editions are classic UNO decks",
            "settings.reason.edition_flip",
        ),
        "stack_wild_draw_four_on_draw_two": RuleOption(
            False, (False,), "the Flip deck has no Wild Draw Four", "settings.reason.wd4_flip"
        ),
    },
)
