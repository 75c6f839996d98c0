"""Settings, the python -m bot entry point and the Dockerfile."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings, load_settings

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


def test_malformed_token_exits_2(tmp_path: Path) -> None:
    """A token that is not three dot-separated parts is refused before connecting."""
    result = run_bot(tmp_path, DISCORD_TOKEN="not-a-token")
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "DISCORD_TOKEN is invalid" in result.stderr


def test_bad_setting_names_the_setting(tmp_path: Path) -> None:
    """A bad number names its environment variable and exits 2."""
    result = run_bot(tmp_path, DISCORD_TOKEN=FAKE_TOKEN, UNO_TURN_TIMEOUT="soon")
    assert result.returncode == 2
    assert "UNO_TURN_TIMEOUT is invalid" in result.stderr


def test_config_file_is_read_and_environment_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """config.toml supplies settings; an environment variable overrides the file."""
    config = tmp_path / "config.toml"
    config.write_text(f'discord_token = "{FAKE_TOKEN}"\nturn_timeout = 90\ndb_path = "a.db"\n')
    monkeypatch.setenv("UNO_CONFIG", str(config))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
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


def test_dockerfile_matches_the_settings_and_layout() -> None:
    """The Dockerfile copies existing paths, runs python -m bot and keeps the DB on /data."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    for source in re.findall(r"^COPY (?!--from)(.+) \S+$", dockerfile, flags=re.MULTILINE):
        for path in source.split():
            assert (ROOT / path).exists(), path
    assert 'CMD ["python", "-m", "bot"]' in dockerfile
    assert "UNO_DB_PATH=/data/uno.db" in dockerfile
    assert 'VOLUME ["/data"]' in dockerfile
    assert re.search(r"^USER (?!root)\w+", dockerfile, flags=re.MULTILINE)
    assert dockerfile.index("requirements.txt") < dockerfile.index("COPY bot")
    assert "db_path" in Settings.model_fields


def test_db_synchronous_is_read_in_any_case(monkeypatch: pytest.MonkeyPatch) -> None:
    """UNO_DB_SYNCHRONOUS=full means FULL; the default is NORMAL."""
    monkeypatch.setenv("DISCORD_TOKEN", FAKE_TOKEN)
    monkeypatch.setenv("UNO_CONFIG", "absent.toml")
    assert load_settings().db_synchronous == "NORMAL"
    monkeypatch.setenv("UNO_DB_SYNCHRONOUS", "full")
    assert load_settings().db_synchronous == "FULL"
    monkeypatch.setenv("UNO_DB_SYNCHRONOUS", "off")
    with pytest.raises(ConfigError, match="UNO_DB_SYNCHRONOUS"):
        load_settings()


def test_the_language_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """UNO_LANGUAGE takes a catalog code or Discord locale, is empty by default, and a value
    that is no locale at all is refused naming the variable."""
    monkeypatch.setenv("UNO_CONFIG", str(tmp_path / "absent.toml"))
    monkeypatch.setenv("DISCORD_TOKEN", FAKE_TOKEN)
    monkeypatch.delenv("UNO_LANGUAGE", raising=False)
    assert load_settings().language == ""
    for value in ("fi", "sv-SE", "no", "nb"):
        monkeypatch.setenv("UNO_LANGUAGE", value)
        assert load_settings().language == value
    monkeypatch.setenv("UNO_LANGUAGE", "Finnish please")
    with pytest.raises(ConfigError, match="UNO_LANGUAGE is invalid"):
        load_settings()
