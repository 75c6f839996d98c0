"""Settings from config.toml and the environment (the environment wins)."""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import (
    AliasChoices,
    BaseModel,
    Field,
    PrivateAttr,
    SecretStr,
    ValidationError,
    ValidationInfo,
    create_model,
    field_validator,
)
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from bot.option_records import HOSTED, OPTIONS, Option
from bot.option_records import TURN_TIMEOUT_MAX as TURN_TIMEOUT_MAX
from bot.option_records import TURN_TIMEOUT_MIN as TURN_TIMEOUT_MIN
from bot.option_records import PaletteName as PaletteName

# Three dot-separated base64url parts: user id, timestamp, HMAC.
TOKEN_PATTERN = re.compile(r"^[A-Za-z0-9_-]{18,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")
# Stands in for the token where none is needed; it matches the pattern, so no check trips.
UNUSED_TOKEN = SecretStr("unused-token-000000.0000.unused-token-000000000")
DEFAULT_CONFIG_FILE = "config.toml"
CONFIG_ENV = "UNO_CONFIG"
ENV_PREFIX = "UNO_"
TOKEN_ENV = "DISCORD_TOKEN"

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR"]


def _shard_list(spec: str) -> list[int]:
    """ "0-3,6" -> [0, 1, 2, 3, 6]."""
    ids: set[int] = set()
    for part in spec.split(","):
        first, _, last = part.partition("-")
        ids.update(range(int(first), int(last or first) + 1))
    return sorted(ids)


class Settings(BaseSettings):
    """Every setting of the bot; see config.example.toml for the documented list."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="forbid", populate_by_name=True)

    discord_token: SecretStr = Field(
        validation_alias=AliasChoices(TOKEN_ENV, "discord_token"),
    )
    db_path: Path = Path("./data/uno.db")
    # NORMAL (with WAL) keeps every commit through a killed process; FULL also through a power
    # loss, at the cost of an fsync per write.
    db_synchronous: Literal["NORMAL", "FULL"] = "NORMAL"
    # Where the store lives: sqlite:///path (default: db_path) or postgresql://user@host:port/db
    # for several bot processes sharing one database.
    db_url: str | None = None
    # PostgreSQL: the pool's connections per process (kept open, at most) and the seconds one
    # statement may take before it is cancelled (the save is then retried like any failure).
    db_pool_min: int = Field(default=1, ge=0, le=1000)
    db_pool_max: int = Field(default=10, ge=1, le=1000)
    db_command_timeout: float = Field(default=30.0, gt=0, le=3600)

    @field_validator("db_pool_max")
    @classmethod
    def _pool_holds_its_minimum(cls, value: int, info: ValidationInfo) -> int:
        least = info.data.get("db_pool_min")
        if least is not None and value < least:
            raise ValueError(f"must be at least db_pool_min ({least})")
        return value

    @field_validator("db_url")
    @classmethod
    def _store_scheme(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("sqlite:///", "postgresql://")):
            raise ValueError("use sqlite:///path or postgresql://user@host:port/database")
        return value

    @property
    def store_url(self) -> str:
        """db_url, or the SQLite file at db_path when db_url is not set."""
        return self.db_url or f"sqlite:///{self.db_path}"

    # A shard cluster: the bot's shards in all, and the ones this process runs ("0-3", "0,2,5").
    # Unset: one process runs every shard and Discord picks how many.
    shard_count: int | None = Field(default=None, ge=1, le=100_000)
    shard_ids: str | None = Field(default=None, pattern=r"^\d+(-\d+)?(,\d+(-\d+)?)*$")

    @field_validator("shard_ids")
    @classmethod
    def _shards_in_range(cls, value: str | None, info: ValidationInfo) -> str | None:
        count = info.data.get("shard_count")
        if value is None:
            return value
        if count is None:
            raise ValueError("needs shard_count (UNO_SHARD_COUNT) too")
        if max(_shard_list(value)) >= count:
            raise ValueError(f"shard ids must be below shard_count ({count})")
        return value

    # On PostgreSQL: seconds before the server counts a silent holder of a shard as dead, and
    # how long a starting process waits for a shard whose holder just died before refusing.
    shard_lease_timeout: float = Field(default=30.0, ge=1.0, le=600.0)

    @property
    def shard_id_list(self) -> list[int] | None:
        """The shard ids this process runs, or None when it runs them all."""
        return None if self.shard_ids is None else _shard_list(self.shard_ids)

    guild_id: int | None = Field(default=None, ge=1, description="sync commands to this guild only")
    log_level: LogLevel = "INFO"
    # Other libraries' loggers (discord.py, aiosqlite, asyncpg): kept at INFO under a DEBUG
    # log_level, where aiosqlite alone would log every statement.
    library_log_level: LogLevel = "INFO"
    # The port of /metrics (Prometheus) and /healthz; None serves neither.
    metrics_port: int | None = Field(default=None, ge=1, le=65_535)
    # The hosted options (bot.option_records): each key's default and range are its
    # declaration's; the annotation keeps the access typed (a test holds it to the record).
    turn_timeout: int = HOSTED["turn_timeout"].field()
    turn_reminder: float = HOSTED["turn_reminder"].field()
    lobby_timeout: int = HOSTED["lobby_timeout"].field()
    next_round_delay: int = HOSTED["next_round_delay"].field()
    table_edit_interval: float = Field(default=1.0, ge=0.0, le=10.0)
    # Table edits (channel message edits) count against Discord's 50 REST requests a second
    # per bot; interaction responses do not. This is the whole bot's budget for them (raise it
    # if Discord granted the bot more); in a shard cluster each process takes its shards' share.
    table_edits_per_second: int = Field(default=45, ge=1, le=10_000)

    @field_validator("table_edits_per_second")
    @classmethod
    def _budget_shared(cls, value: int, info: ValidationInfo) -> int:
        count, ids = info.data.get("shard_count"), info.data.get("shard_ids")
        if ids is not None and count is not None and value * len(_shard_list(ids)) < count:
            raise ValueError(f"leaves the shards of this process (of {count}) no edit a second")
        return value

    # Hours between two reclaims of the cyclic garbage that freezing keeps (bot.memory): each is
    # one full collection over the whole heap, a pause of a few hundred ms at 10,000 games.
    # 0: never (the frozen garbage then grows by about half an object per click).
    memory_reclaim_hours: float = Field(default=6.0, ge=0.0, le=168.0)
    # Days a finished match stays in /uno history (pruned at start-up and once a day).
    history_days: int = Field(default=365, ge=1, le=36_500)
    # The public table's picture (false: a text-only table) and the card art's palette; each
    # game can choose otherwise with its start options.
    pictures: bool = HOSTED["pictures"].field()
    palette: PaletteName = HOSTED["palette"].field()

    ai_delay: float = Field(default=1.5, ge=0.0, le=30.0)
    ai_catch_rate: float = HOSTED["ai_catch_rate"].field()
    # The heartbeat file the container's HEALTHCHECK reads (bot.health); None writes none.
    health_file: Path | None = None

    # Where each setting came from, for error messages ("turn_timeout in config.toml").
    _labels: dict[str, str] = PrivateAttr(default_factory=dict)

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

    @field_validator("log_level", "library_log_level", "db_synchronous", mode="before")
    @classmethod
    def _upper(cls, value: object, info: ValidationInfo) -> object:
        # Only a known name is upper-cased, so a wrong one is echoed as the host wrote it.
        allowed = get_args(cls.model_fields[str(info.field_name)].annotation)
        known = isinstance(value, str) and value.strip().upper() in allowed
        return value.strip().upper() if known and isinstance(value, str) else value

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
        toml_file = os.environ.get(CONFIG_ENV, DEFAULT_CONFIG_FILE)
        return (
            init_settings,
            env_settings,
            TomlConfigSettingsSource(settings_cls, toml_file=toml_file),
        )

    def label(self, field: str) -> str:
        """How a host would name ``field``: its variable, or its key in the config file."""
        return self._labels.get(field, env_name(field))


class ConfigError(Exception):
    """A setting is missing or invalid; the message is one line naming it."""


_models: dict[tuple[Option, ...], type[Settings]] = {}


def settings_model() -> type[Settings]:
    """``Settings`` with a validated key for every hosted option declared without a typed
    field of its own (a newer option, a test's): its name, type, range and default are the
    declaration's, read by name (``bot.options.fallback``)."""
    later = tuple(
        option
        for name, option in OPTIONS.items()
        if option.config and name not in Settings.model_fields
    )
    if not later:
        return Settings
    if later not in _models:
        fields = {option.name: (option.config_type, option.field()) for option in later}
        _models[later] = create_model(  # type: ignore[call-overload]
            "Settings", __base__=Settings, __doc__=Settings.__doc__, **fields
        )
    return _models[later]


def env_name(field: str) -> str:
    """The environment variable that sets ``field``."""
    return TOKEN_ENV if field in ("discord_token", TOKEN_ENV) else ENV_PREFIX + field.upper()


def known_env_names() -> list[str]:
    """Every environment variable the bot reads."""
    return [env_name(field) for field in settings_model().model_fields] + [CONFIG_ENV]


def setting_range(field: str, model: type[BaseModel] = Settings) -> tuple[float, float] | None:
    """The inclusive (lowest, highest) a numeric setting of ``model`` accepts, or None when
    unbounded."""
    rules = model.model_fields[field].metadata
    lows = [rule.ge for rule in rules if getattr(rule, "ge", None) is not None]
    highs = [rule.le for rule in rules if getattr(rule, "le", None) is not None]
    if not lows or not highs:
        return None
    return float(lows[0]), float(highs[0])


def format_number(value: float) -> str:
    """15.0 -> '15', 0.5 -> '0.5': numbers as a host would write them."""
    return str(int(value)) if float(value).is_integer() else str(value)


def shorten(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters, so one bad value keeps the error to one line."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def find_config_file(environ: Mapping[str, str]) -> Path | None:
    """The config file to read (UNO_CONFIG, else ./config.toml if present), checked."""
    named = environ.get(CONFIG_ENV)
    if named is not None:
        path = Path(named)
        if not path.exists():
            raise ConfigError(f"{CONFIG_ENV} names {path}, which does not exist")
        if not path.is_file():
            raise ConfigError(f"{CONFIG_ENV} names {path}, which is a directory, not a file")
        return path
    path = Path(DEFAULT_CONFIG_FILE)
    if path.is_dir():
        # What Docker leaves when a bind mount names a host file that does not exist.
        raise ConfigError(f"{path.resolve()} is a directory, not a config file")
    return path if path.exists() else None


def read_config_file(path: Path) -> dict[str, Any]:
    """The file's keys and values, or ConfigError naming the file and the problem."""
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{path} could not be read: {exc.strerror}") from None


def unknown_environment(environ: Mapping[str, str]) -> list[str]:
    """One warning per UNO_* variable the bot does not read, with the closest known name."""
    known = known_env_names()
    warnings = []
    for name in sorted(environ):
        if not name.upper().startswith(ENV_PREFIX) or name.upper() in known:
            continue
        close = difflib.get_close_matches(name.upper(), known, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]}?" if close else ""
        warnings.append(f"unknown environment variable {name} is ignored{hint}")
    return warnings


def load_settings(*, require_token: bool = True) -> Settings:
    """Load the settings from the environment and the config file, or raise ConfigError.

    ``require_token=False`` (maintenance commands, which never log in) reads no token.
    """
    environ = os.environ
    model = settings_model()
    config_file = find_config_file(environ)
    file_values = read_config_file(config_file) if config_file is not None else {}
    upper_env = {name.upper() for name in environ}
    labels = {
        field: (
            f"{field} in {config_file}"
            if env_name(field) not in upper_env and field in file_values
            else env_name(field)
        )
        for field in model.model_fields
    }
    try:
        settings = model() if require_token else model(discord_token=UNUSED_TOKEN)
    except ValidationError as exc:
        raise ConfigError(describe_error(exc, labels, config_file, model)) from None
    settings._labels = labels
    return settings


def describe_error(
    exc: ValidationError,
    labels: Mapping[str, str],
    config_file: Path | None,
    model: type[Settings] = Settings,
) -> str:
    """One line for the first problem pydantic found, naming where the setting came from
    (``model``: the settings model that read it, ``settings_model()``)."""
    error = exc.errors()[0]
    key = str(error["loc"][0]) if error["loc"] else "config"
    field = "discord_token" if key == TOKEN_ENV else key
    if error["type"] == "extra_forbidden":
        close = difflib.get_close_matches(key, list(model.model_fields), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        return f"unknown setting {key!r} in {config_file}{hint}"
    label = labels.get(field, env_name(field))
    if error["type"] == "missing":
        return f"{label} is not set (in the environment or {config_file or DEFAULT_CONFIG_FILE})"
    message = str(error["msg"]).removeprefix("Value error, ")
    details = []
    if field != "discord_token":
        details.append(f"got {shorten(repr(error['input']))}")
    bounds = setting_range(field, model) if field in model.model_fields else None
    if bounds is not None:
        details.append(f"allowed {format_number(bounds[0])} to {format_number(bounds[1])}")
    suffix = f" ({'; '.join(details)})" if details else ""
    return f"{label} is invalid: {message}{suffix}"
