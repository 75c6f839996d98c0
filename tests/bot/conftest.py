"""Fixtures for behaviour tests: the real bot inside SimCord's simulated Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import discord
import pytest
import simcord.components
from pydantic import SecretStr
from simcord import Env
from simcord.components import ComponentValidationError, validate_embeds

from bot.client import UnoBot
from bot.config import Settings
from bot.store import Store
from bot.ui.cards import CardArt
from bot.ui.cards.emoji import CardEmojis

FAKE_TOKEN = "MTA1234567890123456789.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"


def make_settings(tmp_path: Any, **overrides: Any) -> Settings:
    """Settings for a test bot: no config file, a temp database, no edit coalescing delay, and
    a text-only table (drawing a picture per edit would double the suite's time; the picture
    tests in test_pictures.py turn it on)."""
    values: dict[str, Any] = {
        "discord_token": SecretStr(FAKE_TOKEN),
        "db_path": tmp_path / "uno.db",
        "table_edit_interval": 0.0,
        "table_edits_per_second": 10_000,
        "next_round_delay": 600,
        "ai_delay": 0.0,
        "pictures": False,
    }
    values.update(overrides)
    return Settings(**values)


@pytest.fixture
def settings(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """Test settings; the environment cannot leak a real token or config file in."""
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("UNO_CONFIG", str(tmp_path / "absent.toml"))
    return make_settings(tmp_path)


@pytest.fixture(autouse=True)
async def close_stores(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[None]:
    """Close every store a test's bots opened: SimCord never closes a bot, and an open
    aiosqlite connection keeps a non-daemon thread alive that stops pytest from exiting."""
    opened: list[Store] = []
    open_store = Store.open

    async def tracked(*args: Any, **kwargs: Any) -> Store:
        store = await open_store(*args, **kwargs)
        opened.append(store)
        return store

    monkeypatch.setattr(Store, "open", tracked)
    yield
    for store in opened:
        await store.close()


def seed_card_emoji(env: Any) -> None:
    """Give the simulated application the standard card emoji, as a previous run of the bot
    left them: the bot finds them by name and draws and creates none."""
    for name in CardEmojis(CardArt()).names:
        env.backend.create_application_emoji(name)


@pytest.fixture
async def simcord_env(simcord_bot: UnoBot, request: pytest.FixtureRequest) -> AsyncIterator[Any]:
    """SimCord's own fixture, with the card emoji already made (``@pytest.mark.fresh_emoji``:
    an application without any, so the bot creates them)."""
    marker = request.node.get_closest_marker("simcord")
    env = Env(simcord_bot, **(marker.kwargs if marker else {}))
    if request.node.get_closest_marker("fresh_emoji") is None:
        seed_card_emoji(env)
    await env.start()
    try:
        yield env
    finally:
        await env.shutdown()
        if env.check_errors:
            env._raise_errors_since(env._errors_acknowledged)


@pytest.fixture
def simcord_bot(settings: Settings) -> UnoBot:
    """The real bot, as SimCord's simcord_env fixture wants it."""
    return UnoBot(settings, shard_count=1)


@dataclass
class World:
    """A server with one channel and a few members, plus the simulator itself."""

    env: Any
    guild: Any
    channel: Any
    members: list[Any]
    mod: Any

    @property
    def bot(self) -> UnoBot:
        """The bot currently attached to the simulator."""
        bot: UnoBot = self.env.bot
        return bot


@pytest.fixture
async def world(simcord_env: Any) -> World:
    """Ten members, a moderator with Manage Channels, and a #uno channel."""
    env = simcord_env
    guild = env.create_guild("UNO Club")
    channel = guild.create_text_channel("uno")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
    names = ["anna", "ben", "cara", "dan", "eve", "finn", "gus", "hana", "ivo", "jo"]
    members = [guild.add_member(env.create_user(name)) for name in names]
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    return World(env, guild, channel, members, mod)


@pytest.fixture
def admin(world: World) -> Any:
    """A member of the world's server with Manage Server (and nothing else)."""
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("admin"), roles=[role])


Finder = Callable[..., Any]


# Characters that draw nothing: a field of only these looks like an empty row to a player.
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff"


def _check_like_discord(embeds: Any) -> None:
    """SimCord's embed checks, plus one it leaves out: Discord refuses a message whose embed
    has a field with a blank name or value (400 "This field is required"). A field of only
    zero-width characters passes Discord but shows a blank row, so it is refused here too."""
    validate_embeds(embeds)
    for embed in embeds or []:
        for index, field in enumerate(embed.get("fields") or []):
            for key in ("name", "value"):
                text = field.get(key)
                if not isinstance(text, str) or not text.strip().strip(INVISIBLE).strip():
                    raise ComponentValidationError(f"fields[{index}].{key}: This field is required")


@pytest.fixture(autouse=True)
def discord_embed_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every behaviour test sends its embeds through Discord's full rules, blank fields too."""
    monkeypatch.setattr(simcord.components, "validate_embeds", _check_like_discord)
