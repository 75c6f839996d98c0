"""Every option is declared once (bot.options): the start command, the settings panel and the
config read the declarations, one rule says which value wins, and a table saves and restores
its options as one value."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from pydantic import ValidationError

from bot.client import UnoBot
from bot.config import ConfigError, Settings, load_settings, setting_range
from bot.engine import RuleSet
from bot.options import (
    OPTIONS,
    Option,
    TableOptions,
    declare,
    fallback,
    hosted,
    readme_table,
    resolve,
    withdraw,
)
from bot.persistence import Persistence
from bot.server_settings import ServerSettings, switches
from bot.settings_panel import panel_view
from bot.store import Store, open_store
from bot.table import Seat, TableState
from bot.ui.i18n import ENGLISH
from cogs.uno import UnoCog

from .conftest import make_settings

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ANNA, BEN = 101, 102


def away_from_default(option: Option) -> Any:
    """A value the option accepts that is not its default."""
    if option.kind is bool:
        return not option.default
    if option.choices:
        return next(c for c in reversed(option.choices) if c and c != option.default)
    assert option.low is not None and option.high is not None
    return option.kind(option.high if option.high != option.default else option.low)


def classic_takes(option: Option) -> bool:
    """Whether a classic game may set this rule away from its default (Junior's level and
    friendly catching are Junior's own)."""
    try:
        RuleSet(**{"variant": "classic", "stacking": True, option.name: away_from_default(option)})
    except ValidationError:
        return False
    return True


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    """A SQLite store in a temporary folder."""
    opened = await open_store(f"sqlite:///{tmp_path / 'uno.db'}")
    yield opened
    await opened.close()


async def test_a_table_restores_every_option_as_it_was_set(
    store: Store, settings: Settings
) -> None:
    """A classic table started with every option classic offers away from its default saves
    and restores with each one (every rule and every field of TableOptions) unchanged, lobby
    and game."""
    offered = {n: o for n, o in OPTIONS.items() if o.kept and (not o.rule or classic_takes(o))}
    start = {name: away_from_default(option) for name, option in offered.items()}
    options = resolve("classic", start, {}, settings)
    defaults = TableOptions(rules=RuleSet(variant="classic"))
    for name in TableOptions.model_fields:
        if name not in ("rules", "more"):
            assert getattr(options, name) != getattr(defaults, name), name
    for name, option in offered.items():
        if option.rule:
            assert getattr(options.rules, name) != getattr(defaults.rules, name), name
    table = TableState("s1", 9, 42, Seat(str(ANNA), "anna"), options, NOW)
    table.join(BEN, "ben")
    table.message_id = 7
    persistence = Persistence(store, settings)
    assert await persistence.save(table)
    [lobby] = (await persistence.read_saved()).lobbies
    restored = persistence.restore_lobby(lobby)
    assert restored is not None and restored.options == options
    table.start(ANNA, 3, {str(ANNA): "anna", str(BEN): "ben"})
    assert await persistence.save(table)
    [game] = (await Persistence(store, settings).read_saved()).games
    restored = Persistence(store, settings).restore_game(game)
    assert restored is not None
    for name in TableOptions.model_fields:
        assert getattr(restored.options, name) == getattr(options, name), name
    assert restored.rules.model_dump() == options.rules.model_dump()


def test_the_turn_timer_comes_from_start_then_server_then_config() -> None:
    """The one precedence rule: the start option, else the server's setting, else the
    host's config, else the declared default."""
    config = Settings.model_construct(turn_timeout=90, language="")
    chosen = {"turn_timeout": 30}
    server = {"turn_timeout": 45}
    assert resolve("flip", chosen, server, config).turn_timeout == 30
    assert resolve("flip", {}, server, config).turn_timeout == 45
    assert resolve("flip", {}, {}, config).turn_timeout == 90
    assert resolve("flip", {}, {}, object()).turn_timeout == OPTIONS["turn_timeout"].default


def test_a_hosted_option_has_the_config_keys_range_and_default() -> None:
    """An option the config also sets accepts the config key's range and starts from its
    default, the server's setting has the same range, and the config's value is what a
    table takes when nothing else chose one."""
    for name, option in OPTIONS.items():
        if not option.config or name == "language":
            continue
        assert option.default == Settings.model_fields[name].default, name
        bounds = setting_range(name)
        if bounds is not None:
            assert (option.low, option.high) == bounds, name
            assert setting_range(name, ServerSettings) == bounds, name
        chosen = away_from_default(option)
        assert fallback(name, SimpleNamespace(**{name: chosen})) == chosen, name


@pytest.fixture
def new_option() -> Iterator[Option]:
    """An option declared by this test module only (a config key too), withdrawn afterwards."""
    option = declare(hosted("lucky_sevens", False, "Sevens are lucky (a test's own option)"))
    yield option
    withdraw(option.name)


@pytest.fixture
def new_number() -> Iterator[Option]:
    """A whole-number config key declared by this test module only, withdrawn afterwards."""
    option = declare(hosted("lucky_number", 7, "A lucky number", low=1, high=9, start=None))
    yield option
    withdraw(option.name)


@pytest.fixture
def bare_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No UNO_ variables and no config file: load_settings reads what a test sets."""
    for name in list(os.environ):
        if name.upper().startswith("UNO_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


async def test_a_new_option_appears_everywhere_without_touching_them(new_option: Option) -> None:
    """Declared once, an option is a start option of every variant, a switch of the settings
    panel, a server setting that keeps its value, and a table option that ``resolve`` fills."""
    bot = UnoBot(make_settings(Path("unused")), shard_count=1)
    cog = UnoCog(bot)
    assert cog.app_command is not None
    starts = [
        command
        for command in cog.app_command.walk_commands()
        if isinstance(command, discord.app_commands.Command) and command.name == "start"
    ]
    assert starts and all(
        new_option.name in {p.name for p in command.parameters} for command in starts
    )
    assert new_option.name in switches()
    view = panel_view(ENGLISH, ServerSettings(), bot.settings)
    offered = {
        option.value
        for item in view.children
        if isinstance(item, discord.ui.Select)
        for option in item.options
    }
    assert new_option.name in offered
    server = ServerSettings().changed(lucky_sevens=True)
    assert server.value("lucky_sevens") is True
    options = server.table_options("flip", {}, bot.settings)
    assert options.value("lucky_sevens") is True
    assert resolve("flip", {"lucky_sevens": False}, {}, bot.settings).value("lucky_sevens") is False


def test_a_new_hosted_option_is_a_config_key_a_table_follows(
    new_option: Option, bare_environment: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Declared once as hosted, an option is a key of config.toml and UNO_<NAME> (the
    environment winning), and a new table follows it when nothing else chose."""
    assert load_settings(require_token=False).lucky_sevens is False  # type: ignore[attr-defined]
    (bare_environment / "config.toml").write_text("lucky_sevens = true\n")
    from_file = load_settings(require_token=False)
    assert resolve("flip", {}, {}, from_file).value("lucky_sevens") is True
    monkeypatch.setenv("UNO_LUCKY_SEVENS", "false")
    from_env = load_settings(require_token=False)
    assert resolve("flip", {}, {}, from_env).value("lucky_sevens") is False


def test_a_new_hosted_options_config_key_keeps_its_range(
    new_number: Option, bare_environment: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new hosted option's config key refuses a value outside its declared range in the
    config's own words, and takes one inside it."""
    (bare_environment / "config.toml").write_text("lucky_number = 12\n")
    with pytest.raises(ConfigError) as refused:
        load_settings(require_token=False)
    assert str(refused.value) == (
        "lucky_number in config.toml is invalid: Input should be less than or equal to 9"
        " (got 12; allowed 1 to 9)"
    )
    monkeypatch.setenv("UNO_LUCKY_NUMBER", "3")
    settings = load_settings(require_token=False)
    assert resolve("flip", {}, {}, settings).value("lucky_number") == 3


def test_the_settings_page_lists_every_option_as_declared() -> None:
    """The settings page's table of game options (docs/settings.md) is the one the
    declarations print."""
    readme = (Path(__file__).resolve().parents[2] / "docs" / "settings.md").read_text("utf-8")
    start = readme.index("<!-- options table: printed by bot.options.readme_table -->\n")
    end = readme.index("\n<!-- end of options table -->")
    assert readme[start:end].split("\n", 1)[1] == readme_table()
