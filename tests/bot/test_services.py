"""The bot's services are built once and handed in, the rooms below the client read it through
their protocols, and one rule (and one list) says which language answers a person."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.client import UnoBot
from bot.config import Settings
from bot.languages import LANGUAGE_CODES
from bot.server_settings import ServerSettings
from bot.settings_panel import PanelHost, panel_view
from bot.ui.buttons import ButtonHost
from bot.ui.i18n import ENGLISH, Lang, t

from .conftest import World
from .test_languages import Server, user_locales  # noqa: F401  (a fixture)

FI = Lang("fi")


def test_the_bot_is_what_the_rooms_below_it_read(settings: Settings) -> None:
    """UnoBot satisfies the protocols that buttons and the settings panel read it through
    (checked by mypy), and has no sessions before its store is open."""
    bot = UnoBot(settings, shard_count=1)
    button_host: ButtonHost = bot
    panel_host: PanelHost = bot
    assert panel_host.settings is settings
    with pytest.raises(RuntimeError):
        _ = button_host.sessions


async def test_the_services_share_one_store(world: World) -> None:
    """The settings book and persistence the sessions use are the ones built over the bot's
    store, once."""
    bot = world.bot
    assert bot.sessions.servers is bot.servers
    assert bot.servers.store is bot.store
    assert bot.sessions.persistence is not None and bot.sessions.persistence.store is bot.store


def test_the_settings_offer_every_language() -> None:
    """/uno-settings offers every language of the one list, and the automatic choice."""
    view = panel_view(ENGLISH, ServerSettings(), Settings.model_construct(pictures=True))
    offered = {
        option.value
        for item in view.children
        if isinstance(item, discord.ui.Select)
        for option in item.options
    }
    assert {f"language:{code}" for code in LANGUAGE_CODES} <= offered
    assert "language:auto" in offered


def test_a_server_may_choose_only_a_listed_language() -> None:
    """A language not in the list is refused as a server setting."""
    assert ServerSettings(language="fi").language == "fi"
    with pytest.raises(ValueError):
        ServerSettings(language="de")


async def test_the_panel_answers_as_the_table_does(
    simcord_env: Any,
    user_locales: dict[int, str],  # noqa: F811
) -> None:
    """A reader whose Discord language has no catalog gets the settings panel in the server's
    chosen language, by the same rule as the table's answers (not the server's locale)."""
    server = Server(simcord_env, "sv-SE")
    role = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = server.guild.add_member(simcord_env.create_user("admin"), roles=[role])
    user_locales[admin.id] = "de"
    await server.bot.servers.save(server.guild.id, ServerSettings(language="fi"))
    shown = await admin.slash(server.channel, "uno-settings")
    assert shown.response.embeds[0].title == t(FI, "settings.title", where=server.guild.name)
