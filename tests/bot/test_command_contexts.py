"""Where the commands are offered: in servers only, /uno-settings only to managers."""

from __future__ import annotations

import discord

from .conftest import World


async def test_no_command_is_offered_in_a_dm(world: World) -> None:
    """Games live in server channels: a DM with the bot offers no command at all."""
    stranger = world.env.create_user("stranger")
    assert stranger.available_commands() == ()
    assert "uno flip start" in world.members[0].available_commands(world.channel)


async def test_every_command_is_registered_for_servers_only(world: World) -> None:
    """Each top-level command tells Discord: servers only (contexts [0]), not DMs."""
    tree = world.bot.tree
    payloads = [command.to_dict(tree) for command in tree.get_commands()]
    assert {payload["name"] for payload in payloads} >= {"uno", "leaderboard", "stats"}
    for payload in payloads:
        assert payload["contexts"] == [0], payload["name"]
        assert payload["dm_permission"] is False, payload["name"]


async def test_the_settings_command_asks_for_manage_server(world: World) -> None:
    """/uno-settings carries Manage Server as its default member permission."""
    settings = world.bot.tree.get_command("uno-settings")
    assert settings is not None
    permissions = settings.to_dict(world.bot.tree)["default_member_permissions"]
    assert discord.Permissions(int(permissions)) == discord.Permissions(manage_guild=True)
