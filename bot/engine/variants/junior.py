"""UNO Junior: 56 cards numbered 0-8, 2-4 players, 5 cards each, three levels, no score.

The rules contract is shared/RULES-VARIANTS.md section 3. The deck is PROVISIONAL: no source
gives the count of each kind, so the data file ``uno_junior_deck.provisional.csv`` holds the
placeholder of section 3.1 (numbers 0-8 once per colour, one Skip, Reverse and Draw Two per
colour, eight Wilds). A physical deck replaces the file and the table below, and nothing else.

The level (``RuleSet.level``) filters the deck: level 1 numbers only (36 cards), level 2 adds
Skip, Reverse and Wild (52), level 3 adds the Draw Twos (56). The rest is classic UNO without a
Wild Draw Four (so without a challenge), the round opening on a number card, and no score: the
first player out wins the game.
"""

from __future__ import annotations

from ..cards import LIGHT_COLORS, Face, Kind
from .spec import DeckSpec, RuleOption, Variant, VariantWords, each_color

_JUNIOR = "UNO Junior keeps to its simple rules: {}"

JUNIOR = Variant(
    key="junior",
    command="junior",
    description="UNO Junior: numbers 0-8, three levels, first out wins",
    deck=DeckSpec(
        file="uno_junior_deck.provisional.csv",
        composition=(
            each_color(
                LIGHT_COLORS,
                dict.fromkeys(range(9), 1),
                {Kind.SKIP: 1, Kind.REVERSE: 1, Kind.DRAW_TWO: 1},
            )
            | {Face(None, Kind.WILD): 8},
        ),
        chosen_by="level",
        # Level 3 (the whole deck) first: the default.
        sizes={"3": 56, "1": 36, "2": 52},
    ),
    colors=(LIGHT_COLORS,),
    # No score is kept (``scored``); the table still names every kind it holds.
    points=dict.fromkeys((Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO, Kind.WILD), 0),
    words=VariantWords(
        name="board.variant.junior",
        lobby_title="lobby.title.junior",
        table_title="table.title.junior",
        summary="summary.variant.junior",
        rules="rules.junior",
        rules_sections=("turn", "levels", "cards", "uno", "winning"),
    ),
    art="junior",
    min_players=2,
    max_players=4,
    hand_size=5,
    opens_on_number=True,
    scored=False,
    rule_options={
        # No score: the first player out wins, and the game ends there (section 3.2).
        "scoring": RuleOption("one_hand", ("one_hand",), _JUNIOR.format("first out wins")),
        "level": RuleOption(3, (1, 2, 3), "UNO Junior has levels 1, 2 and 3"),
        # Section 3.2 [C]: a friendly table turns catching off (offered, off by default).
        "catching": RuleOption("on", ("on", "off")),
        "stacking": RuleOption(False, (False,), _JUNIOR.format("nothing stacks")),
        "stack_wild_draw_four_on_draw_two": RuleOption(False, (False,)),
        "seven_o": RuleOption(False, (False,), _JUNIOR.format("no Seven-O")),
        "jump_in": RuleOption(False, (False,), _JUNIOR.format("no jumping in")),
        "draw_until_playable": RuleOption(False, (False,), _JUNIOR.format("draw one card")),
        "forced_play": RuleOption(False, (False,), _JUNIOR.format("a drawn card may be kept")),
        "edition": RuleOption("standard", ("standard",)),
    },
)
