"""RuleSet: the variant, the edition, scoring and the house rules of one game."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Variant = Literal["flip", "classic", "nomercy"]
Edition = Literal["standard", "shuffle_hands", "swap_hands"]
Scoring = Literal["standard", "alternative"]
# A game's scoring: also "one_hand", where no score is kept and each hand is a game of its own
# (No Mercy's default way to play; its commands come with the variant registry).
GameScoring = Literal["standard", "alternative", "one_hand"]
# The rules No Mercy always plays by (RULES-VARIANTS.md section 1.3): a player who draws keeps
# drawing until a playable card and plays it. Its stacking, 7s and 0s are its own, not the
# house rules below.
NO_MERCY_FIXED = {"draw_until_playable": True, "forced_play": True}


class RuleSet(BaseModel):
    """Everything that varies between games; every house rule is off by default."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    variant: Variant = "flip"
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
    def _no_mercy_defaults(cls, data: object) -> object:
        # No Mercy is one hand a game unless scored (then to 1000), and always draws until
        # playable with forced play.
        if isinstance(data, dict) and data.get("variant") == "nomercy":
            return {"target": 1000, "scoring": "one_hand", **data, **NO_MERCY_FIXED}
        return data

    @model_validator(mode="after")
    def _check_variant_options(self) -> RuleSet:
        if self.variant == "nomercy":
            house = (self.stacking, self.seven_o, self.jump_in, self.edition != "standard")
            if any(house):
                raise ValueError("No Mercy has its own stacking, 7s and 0s, and no house rules")
            if self.scoring == "alternative":
                raise ValueError("No Mercy has no alternative scoring")
        if self.variant == "flip" and self.seven_o:
            raise ValueError("Seven-O needs classic UNO: the Flip deck has no 0")
        if self.variant == "flip" and self.edition != "standard":
            raise ValueError("the 112-card editions are classic UNO decks")
        if self.stack_wild_draw_four_on_draw_two and not self.stacking:
            raise ValueError("Wild Draw Four on Draw Two is a stacking option: turn stacking on")
        if self.stack_wild_draw_four_on_draw_two and self.variant == "flip":
            raise ValueError("the Flip deck has no Wild Draw Four")
        return self
