"""The declarations of a game's options as pure data: ``Option``, the ``OPTIONS`` registry,
and the options the host's config also sets (``HOSTED``).

On the ground floor so that both the config (which makes a validated key of every hosted
option) and ``bot.options`` (which adds the rules and builds ``TableOptions``) read the same
records: one ``declare(hosted(...))`` is a start option, a ``/uno-settings`` control and a
config key with its type, range and default.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

from pydantic import Field

Value = bool | int | float | str
# The card art's palettes: the usual colours, or Okabe & Ito's for colour-vision deficiencies.
PaletteName = Literal["standard", "colour_blind"]
# One range for the turn timer, whether it comes from the config, a server or a game's option.
TURN_TIMEOUT_MIN = 15
TURN_TIMEOUT_MAX = 600


@dataclass(frozen=True)
class Option:
    """One option of a game, declared once; everything that offers it reads this."""

    name: str
    # The bot's own default; its type is the option's type (and a config key's).
    default: Value
    # The start option's English description (the catalogs translate it by the option's name).
    description: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    # A RuleSet field (the engine's rules); else a field of TableOptions.
    rule: bool = False
    # The start option's name (None: not offered when a game starts); "": the option's name.
    start: str | None = ""
    # A /uno settings control (its catalog key is ``setting.<name>``).
    server: bool = True
    # A key of config.toml (UNO_<NAME>): the host's default when the server leaves it unset.
    config: bool = False
    # Kept with the table (a TableOptions value); False: it only acts as the game starts.
    kept: bool = True
    # "seconds" for a timer (its refusal says the unit).
    unit: str = ""
    # The option's type when it is not its default's (a whole number of seconds whose config
    # key, a float, allows fractions).
    value_type: type | None = None

    @property
    def kind(self) -> type:
        """The option's Python type: bool, int, float or str."""
        return self.value_type or type(self.default)

    @property
    def config_type(self) -> Any:
        """The type of the option's config key: its default's, or one of its choices."""
        return Literal[self.choices] if self.choices else type(self.default)

    @property
    def key(self) -> str:
        """The catalog key of the option's name."""
        return f"setting.{self.name}"

    @property
    def start_name(self) -> str | None:
        """The name of the start command's option, or None when a start does not offer it."""
        return None if self.start is None else self.start or self.name

    def accepts(self, value: object) -> bool:
        """Whether ``value`` is of the option's type and within its range or choices."""
        if self.kind is bool:
            return isinstance(value, bool)
        if self.kind in (int, float):
            number = isinstance(value, int) or (self.kind is float and isinstance(value, float))
            if not number or isinstance(value, bool):
                return False
            assert isinstance(value, int | float)
            return (self.low is None or value >= self.low) and (
                self.high is None or value <= self.high
            )
        return isinstance(value, str) and (not self.choices or value in self.choices)

    def field(self, default: Any = ...) -> Any:
        """A pydantic ``Field`` with this option's range, and its default unless another is
        given (a server's setting defaults to None: not set)."""
        return Field(default=self.default if default is ... else default, ge=self.low, le=self.high)


OPTIONS: dict[str, Option] = {}


def declare(option: Option) -> Option:
    """Add an option to ``OPTIONS`` (the start command, settings panel and config model built
    afterwards offer it)."""
    OPTIONS[option.name] = option
    return option


def withdraw(name: str) -> None:
    """Take a declared option out again (a test's own option)."""
    OPTIONS.pop(name, None)


def hosted(name: str, default: Value, description: str, **more: Any) -> Option:
    """An option the host's config also sets (config.toml's key ``name``, ``UNO_<NAME>``), with
    the same default and range for the start option, the server's setting and the config."""
    return Option(name, default, description, config=True, **more)


# The hosted options the bot ships with, in the order ``bot.options`` declares them among the
# others; the config's typed fields of the same names are built from these records.
HOSTED: dict[str, Option] = {
    option.name: option
    for option in (
        hosted(
            "turn_timeout",
            60,
            "Seconds per turn before the bot plays for you (default 60)",
            low=TURN_TIMEOUT_MIN,
            high=TURN_TIMEOUT_MAX,
            unit="seconds",
        ),
        hosted(
            "turn_reminder",
            15.0,
            "Seconds into a turn when its player is pinged (0: never)",
            low=0.0,
            high=3600.0,
            start=None,
            value_type=int,  # a server sets whole seconds; the config may say 7.5
        ),
        hosted(
            "lobby_timeout",
            600,
            "Seconds a lobby nobody starts stays open",
            low=30,
            high=86_400,
            start=None,
        ),
        hosted(
            "next_round_delay",
            30,
            "Seconds between a round's end and the next deal",
            low=0,
            high=600,
            start=None,
        ),
        hosted(
            "ai_catch_rate",
            0.5,
            "How often computer players catch a forgotten UNO (0 to 1)",
            low=0.0,
            high=1.0,
            start=None,
        ),
        hosted(
            "pictures",
            True,
            "Show a picture of the table (default: the server's setting, else the bot's)",
        ),
        hosted(
            "palette",
            "standard",
            "Card colours: standard or colour_blind (default: the server's, else the bot's)",
            choices=get_args(PaletteName),
        ),
    )
}
