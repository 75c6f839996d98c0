"""Settings from config.toml and the environment (the environment wins)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

# Three dot-separated base64url parts: user id, timestamp, HMAC.
TOKEN_PATTERN = re.compile(r"^[A-Za-z0-9_-]{18,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")
DEFAULT_CONFIG_FILE = "config.toml"


class Settings(BaseSettings):
    """Every setting of the bot; see config.example.toml for the documented list."""

    model_config = SettingsConfigDict(env_prefix="UNO_", extra="forbid", populate_by_name=True)

    discord_token: SecretStr = Field(
        validation_alias=AliasChoices("DISCORD_TOKEN", "discord_token"),
    )
    db_path: Path = Path("./data/uno.db")
    # NORMAL (with WAL) keeps every commit through a killed process; FULL also through a power
    # loss, at the cost of an fsync per write.
    db_synchronous: Literal["NORMAL", "FULL"] = "NORMAL"
    guild_id: int | None = Field(default=None, description="sync commands to this guild only")
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    turn_timeout: int = Field(default=60, ge=10, le=3600)
    turn_reminder: float = Field(default=15.0, ge=0.0, le=3600.0)
    lobby_timeout: int = Field(default=600, ge=30, le=86_400)
    next_round_delay: int = Field(default=30, ge=0, le=600)
    table_edit_interval: float = Field(default=1.0, ge=0.0, le=10.0)
    ai_delay: float = Field(default=1.5, ge=0.0, le=30.0)
    ai_catch_rate: float = Field(default=0.5, ge=0.0, le=1.0)
    # The language of public messages (lobby, table, leaderboard) on every server: a catalog
    # code or Discord locale ("fi", "sv-SE", "no"); empty = each server's own locale. A
    # language without a catalog falls back the same way (the bot logs a warning at start).
    language: str = Field(default="", pattern=r"^([A-Za-z]{2,3}([-_][A-Za-z]{2,4})?)?$")

    @field_validator("discord_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        if not TOKEN_PATTERN.match(value.get_secret_value().strip()):
            raise ValueError("does not look like a bot token (three dot-separated parts)")
        return SecretStr(value.get_secret_value().strip())

    @field_validator("log_level", "db_synchronous", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Init arguments, then the environment, then config.toml (UNO_CONFIG names another)."""
        toml_file = os.environ.get("UNO_CONFIG", DEFAULT_CONFIG_FILE)
        return (
            init_settings,
            env_settings,
            TomlConfigSettingsSource(settings_cls, toml_file=toml_file),
        )


class ConfigError(Exception):
    """A setting is missing or invalid; the message is one line naming it."""


ENV_NAMES = {"discord_token": "DISCORD_TOKEN", "DISCORD_TOKEN": "DISCORD_TOKEN"}


def load_settings() -> Settings:
    """Load the settings or raise ConfigError with one clear line."""
    try:
        return Settings()
    except ValidationError as exc:
        error = exc.errors()[0]
        field = str(error["loc"][0]) if error["loc"] else "config"
        name = ENV_NAMES.get(field, f"UNO_{field.upper()}")
        if error["type"] == "extra_forbidden":
            raise ConfigError(f"unknown setting {field!r} in the config file") from None
        if error["type"] == "missing":
            raise ConfigError(f"{name} is not set (environment or config.toml)") from None
        message = error["msg"].removeprefix("Value error, ")
        raise ConfigError(f"{name} is invalid: {message}") from None
    except (OSError, ValueError) as exc:
        raise ConfigError(f"config file could not be read: {exc}") from None
