"""One server's own defaults (``/uno-settings``), as a validated value; pure like the table.

A server chooses the rules a new game starts with, its timers, its computer players, the
language and look of its public messages, the channels games may be started in and a role
that may end any game. Every field has the bot's own default, so a row saved by an older
version reads with defaults for the fields added since; a value out of range is refused by
validation, never stored. Timers and the catch rate left at None follow the host's config.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from bot.config import TURN_TIMEOUT_MAX, TURN_TIMEOUT_MIN, PaletteName, Settings, setting_range
from bot.engine import RuleSet
from bot.engine.players import Difficulty
from bot.engine.rules import Edition, Scoring
from bot.engine.variants import VariantKey
from bot.engine.variants import variant as variant_entry

# The ranges a server may choose (the start option and the config file use the same ones).
TARGET_MIN, TARGET_MAX = 50, 5000
LANGUAGE_CODES = ("en", "fi", "sv", "nb")
Palette = PaletteName  # one list of palettes: the config's
MAX_CHANNELS = 25  # a channel select holds at most 25 choices

# The house rules a server can switch on, as RuleSet names them (also the start options').
HOUSE_RULES = tuple(
    name for name, field in RuleSet.model_fields.items() if field.annotation is bool
)
# Every on/off setting (one multi-select in the panel), and every one-of-several setting.
SWITCHES = (*HOUSE_RULES, "ai_takeover", "pictures")
CHOICES: dict[str, tuple[str, ...]] = {
    "scoring": get_args(Scoring),
    "edition": get_args(Edition),
    "ai_difficulty": get_args(Difficulty),
    "language": ("", *LANGUAGE_CODES),
    "palette": get_args(Palette),
}
# The number settings, in the order the panel's modal asks for them.
NUMBERS = ("target", "turn_timeout", "turn_reminder", "lobby_timeout", "next_round_delay")
CATCH_RATE = "ai_catch_rate"
T = TypeVar("T")


class ServerSettings(BaseModel):
    """A server's defaults for new games and who may do what; every field has a default."""

    # Unknown keys (written by a newer version) are dropped on reading; see ``parse``.
    model_config = ConfigDict(frozen=True, extra="ignore")

    # Default rules of a new game (a start option overrides each for that game).
    target: int = Field(default=500, ge=TARGET_MIN, le=TARGET_MAX)
    scoring: Scoring = "standard"
    stacking: bool = False
    stack_wild_draw_four_on_draw_two: bool = False
    seven_o: bool = False
    jump_in: bool = False
    draw_until_playable: bool = False
    forced_play: bool = False
    edition: Edition = "standard"
    # Timers in seconds; None: the host's config file decides.
    turn_timeout: int | None = Field(default=None, ge=TURN_TIMEOUT_MIN, le=TURN_TIMEOUT_MAX)
    turn_reminder: int | None = Field(default=None, ge=0, le=3600)
    lobby_timeout: int | None = Field(default=None, ge=30, le=86_400)
    next_round_delay: int | None = Field(default=None, ge=0, le=600)
    # Computer players.
    ai_difficulty: Difficulty = "normal"
    ai_takeover: bool = False
    ai_catch_rate: float | None = Field(default=None, ge=0.0, le=1.0)
    # Public messages: "" follows the host's setting, else the server's own locale.
    language: Literal["", "en", "fi", "sv", "nb"] = ""
    # The table's look; None: the host's config file decides (its pictures and palette).
    pictures: bool | None = None
    palette: Palette | None = None
    # Where games may be started (empty: every channel) and who may end any game.
    channels: tuple[int, ...] = Field(default=(), max_length=MAX_CHANNELS)
    moderator_role: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _check_rules(self) -> ServerSettings:
        if self.stack_wild_draw_four_on_draw_two and not self.stacking:
            raise ValueError("Wild Draw Four on Draw Two is a stacking option: turn stacking on")
        return self

    def rules_for(self, variant: VariantKey, **given: Any) -> RuleSet:
        """The rules of a new ``variant`` game: these defaults, overridden by the start
        options ``given`` (None: not given), less the rules the variant does not offer."""
        chosen = {
            name: getattr(self, name) for name in (*HOUSE_RULES, "target", "scoring", "edition")
        }
        # A server default the variant does not offer (Seven-O in Flip) stays out of its games.
        entry = variant_entry(variant)
        chosen = {name: value for name, value in chosen.items() if entry.offers(name)}
        given = {name: value for name, value in given.items() if value is not None}
        if given.get("stacking") is False:
            # A game started without stacking drops the server's stacking sub-option with it.
            chosen.pop("stack_wild_draw_four_on_draw_two", None)
        return RuleSet(variant=variant, **{**chosen, **given})

    def timers(self, config: Settings) -> Timers:
        """The timers and catch rate a new table takes: the server's, else the config's."""
        return Timers(
            turn_timeout=_either(self.turn_timeout, config.turn_timeout),
            turn_reminder=float(_either(self.turn_reminder, config.turn_reminder)),
            lobby_timeout=_either(self.lobby_timeout, config.lobby_timeout),
            next_round_delay=_either(self.next_round_delay, config.next_round_delay),
            ai_catch_rate=_either(self.ai_catch_rate, config.ai_catch_rate),
        )

    def look(self, config: Settings) -> dict[str, Any]:
        """The defaults of a new table's look: pictures on or off and the palette (the table
        fields of the same names), the server's, else the config's."""
        return {
            "pictures": _either(self.pictures, config.pictures),
            "palette": _either(self.palette, config.palette),
        }

    def changed(self, **values: Any) -> ServerSettings:
        """A copy with ``values``, validated; ValueError naming the first bad setting."""
        unknown = [name for name in values if name not in ServerSettings.model_fields]
        if unknown:
            raise SettingRefused(unknown[0], "unknown")
        try:
            return ServerSettings.model_validate({**self.model_dump(), **values})
        except ValidationError as exc:
            error = exc.errors()[0]
            # A rule that needs another (no field of its own) is refused with an empty name.
            name = str(error["loc"][0]) if error["loc"] else ""
            raise SettingRefused(name, str(error["msg"])) from None

    def official(self) -> bool:
        """Whether nothing differs from the bot's own defaults."""
        return self == ServerSettings()


def bounds(name: str) -> tuple[float, float]:
    """The inclusive (lowest, highest) a number setting accepts."""
    found = setting_range(name, ServerSettings)
    assert found is not None, f"{name} is not a bounded number"
    return found


class SettingRefused(ValueError):
    """A server setting that cannot take the value given: which one ("" when settings do not
    work together), and pydantic's reason."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"{name}: {reason}")
        self.name = name
        self.reason = reason.removeprefix("Value error, ")


class Timers(BaseModel):
    """A table's timers (seconds) and its computer players' catch rate, fixed at its lobby."""

    model_config = ConfigDict(frozen=True)

    turn_timeout: int
    turn_reminder: float
    lobby_timeout: int
    next_round_delay: int
    ai_catch_rate: float


def _either(server: T | None, config: T) -> T:
    return config if server is None else server


def parse(text: str | None) -> ServerSettings:
    """A stored row as settings: None (no row) is the defaults; fields added since the row
    was written take their defaults. ValueError if the row is not valid settings."""
    if text is None:
        return ServerSettings()
    return ServerSettings.model_validate_json(text)
