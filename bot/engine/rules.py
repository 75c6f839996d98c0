"""RuleSet: the variant, the edition, scoring and the house rules of one game."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from .variants import DEFAULT_VARIANT, VARIANTS

Edition = Literal["standard", "shuffle_hands", "swap_hands"]
Scoring = Literal["standard", "alternative"]
# A game's scoring: also "one_hand", where no score is kept and each hand is a game of its own
# (No Mercy's default, the sheet's way to play).
GameScoring = Literal["standard", "alternative", "one_hand"]
# Whether a player left with one card who did not call UNO can be caught: "off" is UNO Junior's
# friendly table (RULES-VARIANTS.md section 3.2), where nobody is caught.
Catching = Literal["on", "off"]
# "on": a player who can play a card may not draw instead (RULES-VARIANTS.md 1.14.7, a No Mercy
# table option). Not a bool, so that it is no server-wide house rule.
MustPlay = Literal["off", "on"]
# UNO Junior's levels (RULES-VARIANTS.md section 3.2): which cards are in its deck.
Level = Literal[1, 2, 3]
# The level every other variant keeps: it is left out of the saved JSON and the repr, so
# those of every game without levels stay what they were before levels existed.
WHOLE_DECK_LEVEL: Level = 3


class RuleSet(BaseModel):
    """Everything that varies between games; every house rule is off by default.

    A field the variant's entry declares in ``rule_options`` takes that entry's default when
    not given, and a value the entry refuses fails validation with the entry's sentence.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    # A key of ``variants.VARIANTS``.
    variant: str = DEFAULT_VARIANT
    # Classic only: the 112-card editions add one Shuffle Hands or Swap Hands wild and three
    # customizable wilds (played as plain wilds) to the 108-card deck.
    edition: Edition = "standard"
    target: int = Field(default=500, ge=1, le=100_000)
    scoring: GameScoring = "standard"
    # The level of a variant whose deck it chooses (Junior): 1 numbers only, 2 adds Skip,
    # Reverse and Wild, 3 the whole deck.
    level: Level = Field(default=WHOLE_DECK_LEVEL, repr=False)
    # "off": a friendly table, where nobody is caught without UNO. Not a bool, so that it is no
    # server-wide house rule (those are RuleSet's bools); left out of the JSON and the repr
    # when "on", like ``level``.
    catching: Catching = Field(default="on", repr=False)
    # Left out of the JSON and the repr when "off", like ``catching``.
    must_play: MustPlay = Field(default="off", repr=False)
    stacking: bool = False
    stack_wild_draw_four_on_draw_two: bool = False
    seven_o: bool = False
    jump_in: bool = False
    draw_until_playable: bool = False
    forced_play: bool = False

    @model_validator(mode="before")
    @classmethod
    def _variant_defaults(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        entry = VARIANTS.get(data.get("variant", DEFAULT_VARIANT))
        if entry is None:
            return data
        defaults: dict[str, object] = {"target": entry.target}
        defaults |= {name: rule.default for name, rule in entry.rule_options.items()}
        return defaults | data

    @field_validator("variant")
    @classmethod
    def _known_variant(cls, key: str) -> str:
        if key not in VARIANTS:
            raise ValueError(f"no such variant: {key!r} (known: {', '.join(VARIANTS)})")
        return key

    @model_validator(mode="after")
    def _check_variant_options(self) -> RuleSet:
        for refusal in VARIANTS[self.variant].refusals(dict(self)):
            raise ValueError(refusal)
        if self.level != WHOLE_DECK_LEVEL and VARIANTS[self.variant].deck.chosen_by != "level":
            raise ValueError("only UNO Junior has levels")
        if self.stack_wild_draw_four_on_draw_two and not self.stacking:
            raise ValueError("Wild Draw Four on Draw Two is a stacking option: turn stacking on")
        if self.must_play == "on" and "must_play" not in VARIANTS[self.variant].rule_options:
            raise ValueError("must play if able is a No Mercy option")
        return self

    @model_serializer(mode="wrap")
    def _leave_out_defaults_of_new_fields(self, handler: SerializerFunctionWrapHandler) -> Any:
        # ``level`` and ``catching`` are written only when they differ from what every game
        # played before they existed had (see WHOLE_DECK_LEVEL).
        data = handler(self)
        if isinstance(data, dict):
            if data.get("level") == WHOLE_DECK_LEVEL:
                data.pop("level")
            if data.get("catching") == "on":
                data.pop("catching")
            if data.get("must_play") == "off":
                data.pop("must_play")
        return data
