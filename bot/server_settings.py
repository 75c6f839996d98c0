"""One server's own defaults (``/uno-settings``), as a validated value; pure like the table.

A server chooses the rules a new game starts with, its timers, its computer players, the
language and look of its public messages, the channels games may be started in and a role
that may end any game. Every field has the bot's own default, so a row saved by an older
version reads with defaults for the fields added since; a value out of range is refused by
validation, never stored. Timers and the catch rate left at None follow the host's config.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from bot.config import PaletteName, Settings, setting_range
from bot.engine.players import Difficulty
from bot.engine.rules import Edition, Scoring
from bot.options import OPTIONS, Option, TableOptions, Value, fallback, resolve

MAX_CHANNELS = 25  # a channel select holds at most 25 choices


def _server_options() -> list[Option]:
    return [option for option in OPTIONS.values() if option.server]


def switches() -> tuple[str, ...]:
    """Every on/off setting, in declaration order (one multi-select in the panel)."""
    return tuple(option.name for option in _server_options() if option.kind is bool)


def choices() -> dict[str, tuple[str, ...]]:
    """Every one-of-several setting and its values ("" : follow the host's setting)."""
    return {option.name: option.choices for option in _server_options() if option.choices}


def numbers() -> tuple[str, ...]:
    """The whole-number settings, in the order the panel's modal asks for them."""
    return tuple(option.name for option in _server_options() if option.kind is int)


def rates() -> tuple[str, ...]:
    """The settings that are a fraction (shown and typed in percent)."""
    return tuple(option.name for option in _server_options() if option.kind is float)


# The house rules (on/off RuleSet fields), as the rules summary and the panel list them.
HOUSE_RULES = tuple(o.name for o in OPTIONS.values() if o.rule and o.kind is bool)
CATCH_RATE = "ai_catch_rate"


class ServerSettings(BaseModel):
    """A server's defaults for new games and who may do what; every field has a default."""

    # Unknown keys (written by a newer version) are dropped on reading; see ``parse``.
    model_config = ConfigDict(frozen=True, extra="ignore")

    # Default rules of a new game (a start option overrides each for that game).
    target: int = OPTIONS["target"].field()
    scoring: Scoring = "standard"
    stacking: bool = False
    stack_wild_draw_four_on_draw_two: bool = False
    seven_o: bool = False
    jump_in: bool = False
    draw_until_playable: bool = False
    forced_play: bool = False
    edition: Edition = "standard"
    # Timers in seconds; None: the host's config file decides.
    turn_timeout: int | None = OPTIONS["turn_timeout"].field(None)
    turn_reminder: int | None = OPTIONS["turn_reminder"].field(None)
    lobby_timeout: int | None = OPTIONS["lobby_timeout"].field(None)
    next_round_delay: int | None = OPTIONS["next_round_delay"].field(None)
    # Computer players.
    ai_difficulty: Difficulty = "normal"
    ai_takeover: bool = False
    ai_catch_rate: float | None = OPTIONS["ai_catch_rate"].field(None)
    # Public messages: "" follows the host's setting, else the server's own locale.
    language: str = ""
    # The table's look; None: the host's config file decides (its pictures and palette).
    pictures: bool | None = None
    palette: PaletteName | None = None
    # Games go on in a thread of their own once they start.
    thread: bool = False
    # Where games may be started (empty: every channel) and who may end any game.
    channels: tuple[int, ...] = Field(default=(), max_length=MAX_CHANNELS)
    moderator_role: int | None = Field(default=None, ge=1)
    # Options declared without a field here (a newer option, a test's own), by name.
    more: dict[str, Value] = {}

    @field_validator("language")
    @classmethod
    def _known_language(cls, value: str) -> str:
        if not OPTIONS["language"].accepts(value):
            raise ValueError(f"not one of {', '.join(OPTIONS['language'].choices)}")
        return value

    @field_validator("more")
    @classmethod
    def _declared(cls, values: dict[str, Value]) -> dict[str, Value]:
        # An option no longer declared is dropped, like an unknown key; a bad value refused.
        kept = {name: value for name, value in values.items() if name in OPTIONS}
        for name, value in kept.items():
            if not OPTIONS[name].accepts(value):
                raise ValueError(f"{name} cannot be {value!r}")
        return kept

    @model_validator(mode="after")
    def _check_rules(self) -> ServerSettings:
        if self.stack_wild_draw_four_on_draw_two and not self.stacking:
            raise ValueError("Wild Draw Four on Draw Two is a stacking option: turn stacking on")
        return self

    def value(self, name: str) -> Any:
        """The server's setting of a declared option (None or "": left to the host)."""
        if name in ServerSettings.model_fields:
            return getattr(self, name)
        return self.more.get(name)

    def shown(self, name: str, config: Settings) -> Any:
        """What a new table takes for ``name`` unless its start says otherwise: the server's
        setting, else the host's config, else the declared default."""
        own = self.value(name)
        return fallback(name, config) if own is None else own

    def table_options(
        self,
        variant: str,
        start: Mapping[str, Any],
        config: Settings,
        locale: object = None,
    ) -> TableOptions:
        """A new ``variant`` table's options: ``start`` (None: not given) over these settings
        over the host's config (``bot.options.resolve``, the one precedence rule)."""
        server = {option.name: self.value(option.name) for option in _server_options()}
        return resolve(variant, start, server, config, locale)

    def changed(self, **values: Any) -> ServerSettings:
        """A copy with ``values``, validated; ValueError naming the first bad setting."""
        fields = ServerSettings.model_fields
        unknown = [name for name in values if name not in fields and name not in OPTIONS]
        if unknown:
            raise SettingRefused(unknown[0], "unknown")
        more = self.more | {name: value for name, value in values.items() if name not in fields}
        values = {name: value for name, value in values.items() if name in fields}
        try:
            return ServerSettings.model_validate({**self.model_dump(), **values, "more": more})
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


def parse(text: str | None) -> ServerSettings:
    """A stored row as settings: None (no row) is the defaults; fields added since the row
    was written take their defaults. ValueError if the row is not valid settings."""
    if text is None:
        return ServerSettings()
    return ServerSettings.model_validate_json(text)
