"""Classic UNO: the 108-card deck, or a 112-card edition with Shuffle or Swap Hands."""

from __future__ import annotations

from ..cards import LIGHT_COLORS, Face, Kind
from .spec import DeckSpec, RuleOption, Variant, VariantWords, each_color

CLASSIC = Variant(
    key="classic",
    command="classic",
    description="Classic UNO",
    deck=DeckSpec(
        file="uno_classic_deck.csv",
        # The whole file: the 108 cards of every edition, then each edition's four wilds.
        composition=(
            each_color(
                LIGHT_COLORS,
                {0: 1} | dict.fromkeys(range(1, 10), 2),
                {Kind.SKIP: 2, Kind.REVERSE: 2, Kind.DRAW_TWO: 2},
            )
            | {
                Face(None, Kind.WILD): 4,
                Face(None, Kind.WILD_DRAW_FOUR): 4,
                Face(None, Kind.WILD_SHUFFLE_HANDS): 1,
                Face(None, Kind.WILD_SWAP_HANDS): 1,
                Face(None, Kind.WILD_CUSTOMIZABLE): 3,
            },
        ),
        chosen_by="edition",
        sizes={"standard": 108, "shuffle_hands": 112, "swap_hands": 112},
    ),
    colors=(LIGHT_COLORS,),
    points={
        Kind.SKIP: 20,
        Kind.REVERSE: 20,
        Kind.DRAW_TWO: 20,
        Kind.WILD: 50,
        Kind.WILD_DRAW_FOUR: 50,
        Kind.WILD_SHUFFLE_HANDS: 40,
        Kind.WILD_SWAP_HANDS: 40,
        Kind.WILD_CUSTOMIZABLE: 40,
    },
    words=VariantWords(
        name="board.variant.classic",
        lobby_title="lobby.title.classic",
        table_title="table.title.classic",
        summary="summary.variant.classic",
        rules="rules.classic",
        rules_sections=("turn", "cards", "challenge", "uno", "scoring", "house"),
        again="match.footer",
    ),
    art="classic",
    rule_options={
        "edition": RuleOption("standard", ("standard", "shuffle_hands", "swap_hands")),
    },
)
