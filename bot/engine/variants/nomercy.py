"""UNO Show 'Em No Mercy (Mattel, 2023): 168 cards, stacking by value and the Mercy rule.

The rules contract is shared/RULES-VARIANTS.md section 1. The sheet prints only the deck's
total, so the composition below is the community breakdown of section 1.1 (three
implementations, a fan wiki and editioncards.com less one typo agree); if a physical deck ever
shows otherwise, it is this table and the data file that change.
"""

from __future__ import annotations

from ..cards import LIGHT_COLORS, Face, Kind
from .spec import WHOLE_DECK, DeckSpec, RuleOption, Variant, VariantWords, each_color

# Per colour: two of each number 0-9 (two 0s too) and these actions.
_COLOR_ACTIONS = {
    Kind.DRAW_TWO: 3,
    Kind.DRAW_FOUR: 2,
    Kind.SKIP: 3,
    Kind.SKIP_EVERYONE: 2,
    Kind.REVERSE: 3,
    Kind.DISCARD_ALL: 3,
}
_WILDS = {
    Kind.WILD_REVERSE_DRAW_FOUR: 8,
    Kind.WILD_DRAW_SIX: 4,
    Kind.WILD_DRAW_TEN: 4,
    Kind.WILD_COLOR_ROULETTE: 8,
}
# Section 1.10: every colour action card 20, every wild action card 50.
_COLOR_ACTION_POINTS = 20
_WILD_POINTS = 50
_FIXED = "No Mercy plays by its own rules: {}"

NO_MERCY = Variant(
    key="nomercy",
    command="nomercy",
    description="UNO Show 'Em No Mercy: stack the draws, 25 cards and you are out",
    deck=DeckSpec(
        file="uno_nomercy_deck.csv",
        composition=(
            each_color(LIGHT_COLORS, dict.fromkeys(range(10), 2), _COLOR_ACTIONS)
            | {Face(None, kind): count for kind, count in _WILDS.items()},
        ),
        sizes={WHOLE_DECK: 168},
    ),
    colors=(LIGHT_COLORS,),
    points=dict.fromkeys(_COLOR_ACTIONS, _COLOR_ACTION_POINTS)
    | dict.fromkeys(_WILDS, _WILD_POINTS),
    words=VariantWords(
        name="board.variant.nomercy",
        lobby_title="lobby.title.nomercy",
        table_title="table.title.nomercy",
        summary="summary.variant.nomercy",
        rules="rules.nomercy",
        rules_sections=("turn", "cards", "stacking", "mercy", "uno", "scoring"),
    ),
    art="nomercy",
    max_players=6,
    target=1000,
    no_mercy_rules=True,
    mercy_limit=25,
    knockout_bonus=250,
    rule_options={
        # One hand a game unless scored; the sheet has no alternative scoring (section 1.10).
        "scoring": RuleOption(
            "one_hand", ("one_hand", "standard"), "No Mercy has no alternative scoring"
        ),
        # Section 1.14.7: a voluntary draw is allowed; a table may refuse it ("must play if
        # able", the C-sim default).
        "must_play": RuleOption("off", ("off", "on")),
        # Section 1.3: draw until playable, then play that card, always.
        "draw_until_playable": RuleOption(
            True, (True,), _FIXED.format("you always draw until playable")
        ),
        "forced_play": RuleOption(True, (True,), _FIXED.format("a playable drawn card is played")),
        # Its stacking, 7s and 0s are its own (sections 1.5, 1.6), not the house rules.
        "stacking": RuleOption(False, (False,), _FIXED.format("it stacks Draw Cards by value")),
        "stack_wild_draw_four_on_draw_two": RuleOption(False, (False,)),
        "seven_o": RuleOption(False, (False,), _FIXED.format("its 7s and 0s always count")),
        "jump_in": RuleOption(False, (False,), _FIXED.format("there is no jumping in")),
        "edition": RuleOption("standard", ("standard",)),
    },
)
