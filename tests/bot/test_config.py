"""Settings: where they come from, how a bad one is reported, where each is documented."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot.config import (
    TURN_TIMEOUT_MAX,
    TURN_TIMEOUT_MIN,
    ConfigError,
    Settings,
    format_number,
    load_settings,
    setting_range,
    unknown_environment,
)
from bot.option_records import HOSTED
from bot.options import OPTIONS

from .conftest import FAKE_TOKEN

ROOT = Path(__file__).resolve().parents[2]


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run python -m bot in a clean environment from an empty folder."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("UNO_", "DISCORD_"))}
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_missing_token_exits_2_with_one_line(tmp_path: Path) -> None:
    """Without DISCORD_TOKEN the bot prints one line naming it and exits with status 2."""
    result = run_bot(tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN is not set" in lines[0]
    assert "Traceback" not in result.stderr + result.stdout


@pytest.mark.slow
def test_malformed_token_exits_2(tmp_path: Path) -> None:
    """A token that is not three dot-separated parts is refused before connecting."""
    result = run_bot(tmp_path, DISCORD_TOKEN="not-a-token")
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "DISCORD_TOKEN is invalid" in result.stderr


def use_config(monkeypatch: pytest.MonkeyPatch, config: Path, text: str) -> Path:
    """Write ``text`` to ``config`` and make it the bot's only source of a token."""
    config.write_text(text)
    monkeypatch.setenv("UNO_CONFIG", str(config))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    return config


@pytest.mark.slow
def test_bad_setting_names_the_setting(tmp_path: Path) -> None:
    """A bad number names its environment variable and exits 2."""
    result = run_bot(tmp_path, DISCORD_TOKEN=FAKE_TOKEN, UNO_TURN_TIMEOUT="soon")
    assert result.returncode == 2
    assert "UNO_TURN_TIMEOUT is invalid" in result.stderr


def test_config_file_is_read_and_environment_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """config.toml supplies settings; an environment variable overrides the file."""
    use_config(
        monkeypatch,
        tmp_path / "config.toml",
        f'discord_token = "{FAKE_TOKEN}"\nturn_timeout = 90\ndb_path = "a.db"\n',
    )
    monkeypatch.setenv("UNO_DB_PATH", str(tmp_path / "env.db"))
    settings = load_settings()
    assert settings.turn_timeout == 90
    assert settings.db_path == tmp_path / "env.db"
    assert settings.discord_token.get_secret_value() == FAKE_TOKEN


def test_unknown_setting_in_the_file_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A misspelt key in config.toml is reported rather than ignored."""
    config = tmp_path / "config.toml"
    config.write_text(f'discord_token = "{FAKE_TOKEN}"\nturn_timout = 90\n')
    monkeypatch.setenv("UNO_CONFIG", str(config))
    with pytest.raises(ConfigError, match="turn_timout"):
        load_settings()


def test_example_config_documents_every_setting() -> None:
    """config.example.toml names every setting and loads as valid settings."""
    text = (ROOT / "config.example.toml").read_text()
    documented = set(re.findall(r"^#? ?(\w+) =", text, flags=re.MULTILINE))
    assert documented == set(Settings.model_fields)
    values = tomllib.loads(text)
    values["discord_token"] = FAKE_TOKEN
    assert Settings(**values).turn_timeout == 60


def test_token_is_never_shown_in_repr() -> None:
    """The token is a secret: printing the settings does not reveal it."""
    settings = Settings(discord_token=FAKE_TOKEN)
    assert FAKE_TOKEN not in repr(settings)


def test_db_synchronous_is_read_in_any_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """UNO_DB_SYNCHRONOUS=full means FULL; the default is NORMAL."""
    monkeypatch.setenv("DISCORD_TOKEN", FAKE_TOKEN)
    monkeypatch.delenv("UNO_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    assert load_settings().db_synchronous == "NORMAL"
    monkeypatch.setenv("UNO_DB_SYNCHRONOUS", "full")
    assert load_settings().db_synchronous == "FULL"
    monkeypatch.setenv("UNO_DB_SYNCHRONOUS", "off")
    with pytest.raises(ConfigError, match="UNO_DB_SYNCHRONOUS"):
        load_settings()


def test_turn_timeout_range_is_one_pair_of_constants() -> None:
    """The setting accepts exactly TURN_TIMEOUT_MIN to TURN_TIMEOUT_MAX (15 to 600)."""
    assert (TURN_TIMEOUT_MIN, TURN_TIMEOUT_MAX) == (15, 600)
    assert setting_range("turn_timeout") == (TURN_TIMEOUT_MIN, TURN_TIMEOUT_MAX)
    for value in (TURN_TIMEOUT_MIN, TURN_TIMEOUT_MAX):
        assert Settings(discord_token=FAKE_TOKEN, turn_timeout=value).turn_timeout == value
    for value in (TURN_TIMEOUT_MIN - 1, TURN_TIMEOUT_MAX + 1):
        with pytest.raises(ValueError, match="turn_timeout"):
            Settings(discord_token=FAKE_TOKEN, turn_timeout=value)


def documented_ranges() -> dict[str, str]:
    """'15 to 600' for every setting with a numeric range."""
    ranges = {}
    for field in Settings.model_fields:
        bounds = setting_range(field)
        if bounds is not None:
            ranges[field] = f"{format_number(bounds[0])} to {format_number(bounds[1])}"
    return ranges


def test_every_range_is_in_the_example_config_and_the_readme() -> None:
    """Each bounded setting's range is written above its key and in its docs/settings.md row."""
    example = (ROOT / "config.example.toml").read_text()
    readme = (ROOT / "docs" / "settings.md").read_text()
    ranges = documented_ranges()
    assert {"turn_timeout", "lobby_timeout", "ai_catch_rate"} <= set(ranges)
    for field, words in ranges.items():
        block = re.search(rf"((?:^#.*\n)+)^#? ?{field} =", example, flags=re.MULTILINE)
        assert block is not None and words in block[1], (field, words)
        row = re.search(rf"^\| `{field}` \|.*$", readme, flags=re.MULTILINE)
        assert row is not None and f"| {words} |" in row[0], (field, words)


def test_a_hosted_options_config_key_is_made_from_its_record() -> None:
    """Each hosted option the bot ships with is a Settings field whose type, default and
    range are its record's (the annotation only keeps the access typed)."""
    for name, option in HOSTED.items():
        field = Settings.model_fields[name]
        assert field.annotation == option.config_type, name
        assert field.default == option.default, name
        expected = None if option.low is None else (option.low, option.high)
        assert setting_range(name) == expected, name


def test_every_declared_hosted_option_is_documented() -> None:
    """Every option declared as a config key has its key in config.example.toml and a row
    in docs/settings.md with its variable."""
    example = (ROOT / "config.example.toml").read_text()
    readme = (ROOT / "docs" / "settings.md").read_text()
    hosted = [name for name, option in OPTIONS.items() if option.config]
    assert set(HOSTED) < set(hosted)
    for name in hosted:
        assert re.search(rf"^#? ?{name} =", example, flags=re.MULTILINE), name
        row = rf"^\| `{name}` \| `UNO_{name.upper()}` \|"
        assert re.search(row, readme, flags=re.MULTILINE), name


def test_every_setting_has_a_readme_row_with_its_variable() -> None:
    """docs/settings.md's table names each setting and its environment variable."""
    readme = (ROOT / "docs" / "settings.md").read_text()
    for field in Settings.model_fields:
        env = "DISCORD_TOKEN" if field == "discord_token" else f"UNO_{field.upper()}"
        assert re.search(rf"^\| `{field}` \| `{env}` \|", readme, flags=re.MULTILINE), field


def test_unknown_uno_variables_are_named_with_the_closest_known_one() -> None:
    """Misspelt UNO_* variables get one warning each; known and foreign ones none."""
    environ = {
        "UNO_TURN_TIMOUT": "30",
        "UNO_DISCORD_TOKEN": "x",
        "UNO_ZZZ": "1",
        "UNO_DB_PATH": "a.db",
        "UNO_CONFIG": "c.toml",
        "HOME": "/root",
    }
    assert unknown_environment(environ) == [
        "unknown environment variable UNO_DISCORD_TOKEN is ignored; did you mean DISCORD_TOKEN?",
        "unknown environment variable UNO_TURN_TIMOUT is ignored; did you mean UNO_TURN_TIMEOUT?",
        "unknown environment variable UNO_ZZZ is ignored",
    ]


def test_each_setting_is_labelled_by_where_it_came_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key from the file is named as the file's key; one from the environment by its name."""
    config = use_config(
        monkeypatch,
        tmp_path / "c.toml",
        f'discord_token = "{FAKE_TOKEN}"\nturn_timeout = 90\nai_delay = 2\n',
    )
    monkeypatch.setenv("UNO_AI_DELAY", "1")
    settings = load_settings()
    assert settings.label("turn_timeout") == f"turn_timeout in {config}"
    assert settings.label("discord_token") == f"discord_token in {config}"
    assert settings.label("ai_delay") == "UNO_AI_DELAY"
    assert settings.label("db_path") == "UNO_DB_PATH"


def test_the_language_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """UNO_LANGUAGE takes a catalog code or Discord locale, is empty by default, and a value
    that is no locale at all is refused naming the variable."""
    config = tmp_path / "empty.toml"
    config.write_text("")
    monkeypatch.setenv("UNO_CONFIG", str(config))
    monkeypatch.setenv("DISCORD_TOKEN", FAKE_TOKEN)
    monkeypatch.delenv("UNO_LANGUAGE", raising=False)
    assert load_settings().language == ""
    for value in ("fi", "sv-SE", "no", "nb"):
        monkeypatch.setenv("UNO_LANGUAGE", value)
        assert load_settings().language == value
    monkeypatch.setenv("UNO_LANGUAGE", "Finnish please")
    with pytest.raises(ConfigError, match="UNO_LANGUAGE is invalid"):
        load_settings()


def test_a_bad_log_level_is_echoed_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """UNO_LOG_LEVEL=verbose is named as the host wrote it, not upper-cased; debug is DEBUG."""
    monkeypatch.setenv("DISCORD_TOKEN", FAKE_TOKEN)
    monkeypatch.delenv("UNO_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("UNO_LOG_LEVEL", "verbose")
    with pytest.raises(ConfigError, match="got 'verbose'"):
        load_settings()
    monkeypatch.setenv("UNO_LOG_LEVEL", "debug")
    assert load_settings().log_level == "DEBUG"
