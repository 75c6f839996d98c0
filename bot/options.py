"""Every option a game is started with, declared once, and ``TableOptions``: the one value a
table holds, saves and restores.

An ``Option`` names a setting once: its type (from its default), its range or choices, the
catalog key that names it, and where it can be chosen (a start option, a ``/uno settings``
control, a key of the host's config, whose default and range it then takes: ``hosted``). The
start commands, the settings panel, the server settings' ranges and the table of options in
docs/settings.md are read from ``OPTIONS``; a new option is one ``declare(Option(...))`` and
its catalog entries (plus the ``TableOptions`` or RuleSet field that carries it, if it needs a
typed one).

``resolve`` is the only precedence rule: what the start command gave, else the server's
setting, else the host's config, else the declared default. Pure (no Discord, no I/O), on the
floor just above the engine and the config, which it reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, get_args

from pydantic import BaseModel, ConfigDict, Field

from bot.config import PaletteName, Settings, setting_range
from bot.engine import RuleSet
from bot.engine.players import Difficulty
from bot.engine.rules import Edition, MustPlay, Scoring
from bot.engine.variants import VARIANTS, Variant
from bot.engine.variants import variant as variant_entry
from bot.languages import LANGUAGE_CODES, language_of

# The most seats any variant has (computer players are numbered up to it; a start may seat
# all but the host's); each variant's own range is in its entry.
MAX_SEATS = max(entry.max_players for entry in VARIANTS.values())
Value = bool | int | float | str


@dataclass(frozen=True)
class Option:
    """One option of a game, declared once; everything that offers it reads this."""

    name: str
    # The bot's own default; its type is the option's type.
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


def hosted(name: str, description: str, **more: Any) -> Option:
    """An option the host's config also sets (config.toml's key of the same name): its
    default and range are that key's, so the start option, the server's setting and the
    config accept the same values."""
    bounds = setting_range(name)
    low, high = bounds if bounds is not None else (None, None)
    default = Settings.model_fields[name].default
    return Option(name, default, description, low=low, high=high, config=True, **more)


def declare(option: Option) -> Option:
    """Add an option to ``OPTIONS`` (the start command and settings panel built afterwards
    offer it)."""
    OPTIONS[option.name] = option
    return option


def withdraw(name: str) -> None:
    """Take a declared option out again (a test's own option)."""
    OPTIONS.pop(name, None)


for _option in (
    Option(
        "target",
        500,
        "Points needed to win the game (default: the server's, else 500)",
        low=50,
        high=5000,
        rule=True,
    ),
    Option(
        "scoring",
        "standard",
        "standard: the winner scores the others' cards; alternative: lowest total wins",
        choices=get_args(Scoring),
        rule=True,
    ),
    Option(
        "stacking",
        False,
        "Answer a draw card with the same draw card to pass the total on",
        rule=True,
    ),
    Option(
        "stack_wild_draw_four_on_draw_two",
        False,
        "With stacking: a Wild Draw Four may answer a Draw Two",
        rule=True,
        start="wild_draw_four_on_draw_two",
    ),
    Option(
        "seven_o",
        False,
        "Playing a 7 swaps hands with a player; a 0 passes every hand on",
        rule=True,
    ),
    Option("jump_in", False, "Play an identical card out of turn", rule=True),
    Option("draw_until_playable", False, "Keep drawing until you get a playable card", rule=True),
    Option("forced_play", False, "A playable drawn card is played automatically", rule=True),
    Option(
        "edition",
        "standard",
        "The 112-card deck: adds Shuffle Hands or Swap Hands and 3 customizable wilds",
        choices=get_args(Edition),
        rule=True,
    ),
    # Only a variant that declares it offers it (No Mercy; RULES-VARIANTS.md 1.14.7).
    Option(
        "must_play",
        "off",
        "No Mercy: a player who can play a card may not draw instead",
        choices=get_args(MustPlay),
        rule=True,
        server=False,
    ),
    # Not offered yet (a start option needs its catalog words in four languages): the rules
    # a variant fixes or chooses by itself (UNO Junior's level, its friendly "no catching").
    Option(
        "level",
        3,
        "UNO Junior's level: 1 numbers, 2 adds Skip, Reverse and Wild, 3 adds Draw Two",
        low=1,
        high=3,
        rule=True,
        start=None,
        server=False,
    ),
    Option(
        "catching",
        "on",
        "Whether a player who forgets UNO can be caught",
        choices=("on", "off"),
        rule=True,
        start=None,
        server=False,
    ),
    hosted(
        "turn_timeout",
        "Seconds per turn before the bot plays for you (default 60)",
        unit="seconds",
    ),
    Option(
        "ai",
        0,
        "Computer players to seat right away (0 to 9)",
        low=0,
        high=MAX_SEATS - 1,
        server=False,
        kept=False,
    ),
    hosted(
        "turn_reminder",
        "Seconds into a turn when its player is pinged (0: never)",
        start=None,
        value_type=int,  # a server sets whole seconds; the config may say 7.5
    ),
    hosted("lobby_timeout", "Seconds a lobby nobody starts stays open", start=None),
    hosted("next_round_delay", "Seconds between a round's end and the next deal", start=None),
    Option(
        "ai_difficulty",
        "normal",
        "How well the computer players play (default normal)",
        choices=get_args(Difficulty),
    ),
    Option(
        "ai_takeover",
        False,
        "A timed-out player is played by the normal AI instead of just drawing",
    ),
    hosted(
        "ai_catch_rate",
        "How often computer players catch a forgotten UNO (0 to 1)",
        start=None,
    ),
    Option(
        "language",
        "",
        "The language of the table's public messages",
        # "": the host's ``language`` (any Discord locale), else the server's own locale.
        choices=("", *LANGUAGE_CODES),
        start=None,
        config=True,
    ),
    hosted(
        "pictures",
        "Show a picture of the table (default: the server's setting, else the bot's)",
    ),
    hosted(
        "palette",
        "Card colours: standard or colour_blind (default: the server's, else the bot's)",
        choices=get_args(PaletteName),
    ),
):
    declare(_option)
# Kept in these units by the rooms that check a start option's range.
TARGET, TURN_TIMEOUT = OPTIONS["target"], OPTIONS["turn_timeout"]


def _default(name: str) -> Any:
    return OPTIONS[name].default


class TableOptions(BaseModel):
    """Everything a table was started with, fixed when its lobby opened: one value, saved and
    restored as one. Options declared without a field of their own ride in ``more``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rules: RuleSet = RuleSet()
    turn_timeout: int = _default("turn_timeout")
    turn_reminder: float = _default("turn_reminder")
    lobby_timeout: int = _default("lobby_timeout")
    next_round_delay: int = _default("next_round_delay")
    ai_difficulty: Difficulty = _default("ai_difficulty")
    ai_takeover: bool = _default("ai_takeover")
    ai_catch_rate: float = _default("ai_catch_rate")
    # The public messages' catalog code.
    language: str = "en"
    pictures: bool = _default("pictures")
    palette: PaletteName = _default("palette")
    # Declared options that no field above carries (a newer option, a test's own).
    more: dict[str, Value] = {}

    def value(self, name: str) -> Any:
        """The value of a declared option at this table (a rule, a field, or ``more``)."""
        if OPTIONS[name].rule:
            return getattr(self.rules, name)
        if name in TableOptions.model_fields:
            return getattr(self, name)
        return self.more.get(name, OPTIONS[name].default)


def fallback(name: str, config: object) -> Any:
    """An option's value when neither the start nor the server chose one: the host's config
    (``config``: ``bot.config.Settings``, read by attribute) for a config key, else the
    declared default. Also what an older save that kept no value of its own follows."""
    option = OPTIONS[name]
    return getattr(config, name, option.default) if option.config else option.default


def public_language(chosen: str, locale: object = None) -> str:
    """The catalog code of a server's public messages: the language chosen (the server's
    setting, else the host's), else the one serving the server's Discord ``locale``, else
    English."""
    return language_of(chosen) or language_of(locale) or "en"


def resolve(
    variant: str,
    start: Mapping[str, Any],
    server: Mapping[str, Any],
    config: object,
    locale: object = None,
) -> TableOptions:
    """A new table's options, each the start command's (``start``, by option name; None: not
    given), else the server's setting (``server``; None or "": not set), else the host's
    config, else the declared default. The rules keep only what ``variant`` offers; a start
    without stacking drops the server's stacking sub-option with it. The language is a
    catalog code: the chosen one, else the server's Discord ``locale``, else English.
    ValueError (pydantic's) if the rules do not work together."""
    entry = variant_entry(variant)
    chosen: dict[str, Any] = {}
    rules: dict[str, Any] = {}
    for name, option in OPTIONS.items():
        if not option.kept:
            continue
        given, setting = start.get(name), server.get(name)
        if option.rule:
            if given is not None:
                rules[name] = given
            elif setting is not None and entry.offers(name) and not _own_default(entry, name):
                rules[name] = setting
            continue
        if given is not None:
            chosen[name] = given
        elif setting is not None and setting != "":
            chosen[name] = setting
        else:
            chosen[name] = fallback(name, config)
    if start.get("stacking") is False and start.get("stack_wild_draw_four_on_draw_two") is None:
        rules.pop("stack_wild_draw_four_on_draw_two", None)
    code = public_language(chosen.pop("language"), locale)
    fields = {name: chosen.pop(name) for name in list(chosen) if name in TableOptions.model_fields}
    return TableOptions(
        rules=RuleSet(variant=variant, **rules),
        language=code,
        more=chosen,
        **fields,
    )


def _own_default(entry: Variant, name: str) -> bool:
    """Whether ``entry`` has a default of its own for the rule ``name`` (No Mercy: one hand,
    to 1000). A server's rule settings are chosen for games with RuleSet's defaults (Flip,
    classic: standard scoring to 500), so they do not replace a variant's own."""
    base = RuleSet.model_fields[name].default
    own = entry.target if name == "target" else entry.default(name, base)
    return bool(own != base)


def readme_table() -> str:
    """The table of every game option in docs/settings.md, as the declarations say it (a test
    keeps that copy the same: ``python -c "from bot.options import readme_table as r; print(r())"``
    prints it)."""
    rows = [
        "| Option | Default | Range or choices | Start option | `/uno settings` | Config key |",
        "|---|---|---|---|---|---|",
    ]
    host = "(the host's)"
    for option in OPTIONS.values():
        if option.kind is bool:
            allowed = "on / off"
        elif option.choices:
            allowed = ", ".join(f"`{c}`" if c else host for c in option.choices)
        else:
            allowed = f"{_number(option.low)} to {_number(option.high)}"
        default = option.default
        if isinstance(default, bool):
            shown = "on" if default else "off"
        elif isinstance(default, int | float):
            shown = f"`{_number(default)}`"
        else:
            shown = f"`{default}`" if default else host
        start = f"`{option.start_name}`" if option.start_name else "-"
        config = f"`{option.name}`" if option.config else "-"
        server = "yes" if option.server else "-"
        rows.append(f"| `{option.name}` | {shown} | {allowed} | {start} | {server} | {config} |")
    return "\n".join(rows)


def _number(value: float | None) -> str:
    if value is None:
        return "any"
    return str(int(value)) if float(value).is_integer() else str(value)
