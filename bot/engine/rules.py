"""RuleSet: the variant, the edition, scoring and the house rules of one game."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .variants import DEFAULT_VARIANT, VARIANTS

Edition = Literal["standard", "shuffle_hands", "swap_hands"]
Scoring = Literal["standard", "alternative"]
# A game's scoring: also "one_hand", where no score is kept and each hand is a game of its own
# (No Mercy's default, the sheet's way to play).
GameScoring = Literal["standard", "alternative", "one_hand"]


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
        if self.stack_wild_draw_four_on_draw_two and not self.stacking:
            raise ValueError("Wild Draw Four on Draw Two is a stacking option: turn stacking on")
        return self
