"""UNO All Wild (Mattel, 2021/2022): 112 wild cards in eight kinds; every card plays on every card.

The rules contract is shared/RULES-VARIANTS.md section 2. The per-kind counts are UNVERIFIED
(section 2.1): no source we could read prints them, so the table below is the one breakdown
found, kept in the data file ``uno_allwild_deck.csv`` with the same warning in its header. A
physical deck corrects both, and nothing else.
"""

from __future__ import annotations

from ..cards import Face, Kind
from .spec import WHOLE_DECK, DeckSpec, RuleOption, Variant, VariantWords

# UNVERIFIED (section 2.1): 54 + 14 + 14 + 6 + 10 + 6 + 4 + 4 = 112.
_COUNTS = {
    Kind.WILD: 54,
    Kind.WILD_REVERSE: 14,
    Kind.WILD_SKIP: 14,
    Kind.WILD_SKIP_TWO: 6,
    Kind.WILD_DRAW_TWO: 10,
    Kind.WILD_DRAW_FOUR: 6,
    Kind.WILD_TARGETED_DRAW_TWO: 4,
    Kind.WILD_FORCED_SWAP: 4,
}
# Section 2.8: 20 for each plain Wild left in a hand, 50 for any other card.
_PLAIN_POINTS = 20
_ACTION_POINTS = 50
_NO_COLOURS = "All Wild has no colours and no numbers: {}"

ALL_WILD = Variant(
    key="allwild",
    command="allwild",
    description="UNO All Wild: every card is wild",
    deck=DeckSpec(
        file="uno_allwild_deck.csv",
        composition=({Face(None, kind): count for kind, count in _COUNTS.items()},),
        sizes={WHOLE_DECK: 112},
    ),
    # No colour is ever named (section 2.3); the empty tuple offers no colour choice.
    colors=((),),
    points=dict.fromkeys(_COUNTS, _ACTION_POINTS) | {Kind.WILD: _PLAIN_POINTS},
    words=VariantWords(
        name="board.variant.allwild",
        lobby_title="lobby.title.allwild",
        table_title="table.title.allwild",
        summary="summary.variant.allwild",
        rules="rules.allwild",
        rules_sections=("turn", "cards", "two", "uno", "scoring"),
    ),
    art="classic",
    all_wild_rules=True,
    rule_options={
        "scoring": RuleOption("standard", ("standard", "alternative")),
        # Section 2.5: only same-kind stacking (Wild Draw Two on Two, Four on Four), if asked.
        "stack_wild_draw_four_on_draw_two": RuleOption(
            False, (False,), _NO_COLOURS.format("only the same draw card stacks")
        ),
        "seven_o": RuleOption(False, (False,), _NO_COLOURS.format("there is no 7 or 0")),
        # Every card is always playable: a draw is one card (section 2.3), and no card is
        # identical to the top card in colour to jump in with.
        "draw_until_playable": RuleOption(
            False, (False,), _NO_COLOURS.format("every card is playable")
        ),
        "jump_in": RuleOption(False, (False,), _NO_COLOURS.format("nothing to jump in with")),
        "edition": RuleOption("standard", ("standard",)),
    },
)
