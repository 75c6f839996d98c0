"""Every option a game is started with, declared once, and ``TableOptions``: the one value a
table holds, saves and restores.

An ``Option`` (a pure record of ``bot.option_records``) names a setting once: its type (from
its default), its range or choices, the catalog key that names it, and where it can be chosen
(a start option, a ``/uno settings`` control, a key of the host's config: ``hosted``). The
start commands, the settings panel, the server settings' ranges, the config's keys
(``bot.config.settings_model``) and the table of options in docs/settings.md are read from
``OPTIONS``; a new option is one ``declare(Option(...))`` or ``declare(hosted(...))`` and its
catalog entries (plus the ``TableOptions`` or RuleSet field that carries it, if it needs a
typed one).

``resolve`` is the only precedence rule: what the start command gave, else the server's
setting, else the host's config, else the declared default. Pure (no Discord, no I/O), on the
floor just above the engine and the option records, which it reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_args

from pydantic import BaseModel, ConfigDict

from bot.engine import RuleSet
from bot.engine.players import Difficulty
from bot.engine.rules import Edition, MustPlay, Scoring
from bot.engine.variants import VARIANTS, Variant
from bot.engine.variants import variant as variant_entry
from bot.languages import LANGUAGE_CODES, language_of
from bot.option_records import HOSTED, PaletteName
from bot.option_records import OPTIONS as OPTIONS
from bot.option_records import Option as Option
from bot.option_records import Value as Value
from bot.option_records import declare as declare
from bot.option_records import hosted as hosted
from bot.option_records import withdraw as withdraw

# The most seats any variant has (computer players are numbered up to it; a start may seat
# all but the host's); each variant's own range is in its entry.
MAX_SEATS = max(entry.max_players for entry in VARIANTS.values())


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
    # Offered only by the variants that declare them (``OWN_OPTIONS`` of the registry: No
    # Mercy's "must play if able", UNO Junior's level and its friendly table, where nobody is
    # caught without UNO).
    Option(
        "must_play",
        "off",
        "No Mercy: a player who can play a card may not draw instead",
        choices=get_args(MustPlay),
        rule=True,
        server=False,
    ),
    Option(
        "level",
        3,
        "1: only numbers. 2: adds Skip, Reverse and Wild. 3: all the cards",
        low=1,
        high=3,
        rule=True,
        server=False,
    ),
    Option(
        "catching",
        "on",
        "on: forget to say UNO and you can be caught. off: nobody is caught",
        choices=("on", "off"),
        rule=True,
        server=False,
    ),
    HOSTED["turn_timeout"],
    Option(
        "ai",
        0,
        "Computer players to seat right away (0 to 9)",
        low=0,
        high=MAX_SEATS - 1,
        server=False,
        kept=False,
    ),
    HOSTED["turn_reminder"],
    HOSTED["lobby_timeout"],
    HOSTED["next_round_delay"],
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
    HOSTED["ai_catch_rate"],
    Option(
        "language",
        "",
        "The language of the table's public messages",
        # "": the host's ``language`` (any Discord locale), else the server's own locale.
        choices=("", *LANGUAGE_CODES),
        start=None,
        config=True,
    ),
    HOSTED["pictures"],
    HOSTED["palette"],
    # Not a config key: whether a channel may hold the game's thread (and the bot may open
    # one there) is the server's business, so the server or the start turns it on.
    Option(
        "thread",
        False,
        "Play the game in a thread of its own (the lobby stays in the channel)",
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
    # The game is played in a thread of the lobby's channel, opened when it starts.
    thread: bool = _default("thread")
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
