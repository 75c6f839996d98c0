"""/uno-settings: a server's defaults shape its new games, only managers change them, the
channel list and moderator role are enforced, and everything survives a restart."""

from __future__ import annotations

from typing import Any

from bot.client import UnoBot
from bot.config import Settings
from bot.server_settings import ServerSettings

from .conftest import World
from .driver import Table, embed_text
from .hostile import forged_click


async def panel(actor: Any, world: World, **options: Any) -> Any:
    """Open the settings panel as ``actor``; the ephemeral message it answers with."""
    result = await actor.slash(world.channel, "uno-settings", **options)
    assert result.ephemeral
    return result.response


def server(world: World) -> ServerSettings:
    """The settings the bot keeps for the world's server."""
    return world.bot.sessions.servers.peek(world.guild.id)


async def numbers(actor: Any, shown: Any, **values: str) -> Any:
    """Press Numbers… on the panel and submit the modal with ``values`` (the rest as shown)."""
    opened = await actor.click(shown, label="Numbers…")
    assert opened.modal is not None
    return await actor.submit_modal(opened, values)


async def test_every_setting_shapes_the_next_game_and_never_a_running_one(
    world: World, admin: Any
) -> None:
    """Rules, timers and computer players chosen in the panel are a new game's; a start option
    overrides one for that game; a later change leaves the open lobby as it was."""
    shown = await panel(admin, world)
    switched = ["stacking", "jump_in", "forced_play", "ai_takeover"]
    await admin.select(shown, switched, custom_id="uno:s:switches")
    for choice in ("scoring:alternative", "edition:swap_hands", "ai_difficulty:hard"):
        await admin.select(shown, [choice], custom_id="uno:s:choice")
    await numbers(
        admin,
        shown,
        target="300",
        turn_timeout="45",
        turn_reminder="20",
        lobby_timeout="120",
        next_round_delay="5",
    )
    opened = await admin.click(shown, label="AI catch rate…")
    await admin.submit_modal(opened, {"ai_catch_rate": "80"})
    assert server(world).ai_catch_rate == 0.8

    table = Table(world, 2)
    await table.open("uno classic start", ai=1, draw_until_playable=True, target=250)
    state = table.session.state
    rules = state.rules
    assert (rules.target, rules.scoring, rules.edition) == (250, "alternative", "swap_hands")
    assert (rules.stacking, rules.jump_in, rules.forced_play) == (True, True, True)
    assert rules.draw_until_playable and not rules.seven_o
    assert (
        state.options.turn_timeout,
        state.options.turn_reminder,
        state.options.lobby_timeout,
    ) == (45, 20, 120)
    assert (state.options.next_round_delay, state.options.ai_catch_rate) == (5, 0.8)
    assert state.options.ai_difficulty == "hard" and state.options.ai_takeover
    assert [seat.ai for seat in state.seats if seat.ai] == ["hard"]
    lobby = embed_text(table.public)
    assert "Not the official rules: to 250 points, alternative scoring" in lobby

    await admin.select(shown, [], custom_id="uno:s:switches")
    assert not server(world).stacking
    assert state.rules.stacking and table.session.state is state  # the open lobby keeps its own


async def test_a_flip_game_leaves_out_the_classic_only_defaults(world: World, admin: Any) -> None:
    """Seven-O and the 112-card edition are classic defaults: a Flip lobby opens without them."""
    shown = await panel(admin, world)
    await admin.select(shown, ["seven_o"], custom_id="uno:s:switches")
    await admin.select(shown, ["edition:shuffle_hands"], custom_id="uno:s:choice")
    table = Table(world, 2)
    await table.open()
    rules = table.session.state.rules
    assert rules.variant == "flip" and not rules.seven_o and rules.edition == "standard"
    assert "Official rules." in embed_text(table.public)


async def test_language_and_look_are_the_servers(world: World, admin: Any) -> None:
    """The public language and the table's look come from the server's settings; a server
    that never chose a look follows the bot's."""
    assert (server(world).pictures, server(world).palette) == (None, None)
    config = world.bot.settings
    assert server(world).shown("pictures", config) == config.pictures
    assert server(world).shown("palette", config) == config.palette
    shown = await panel(admin, world)
    await admin.select(shown, ["language:fi"], custom_id="uno:s:choice")
    await admin.select(shown, ["palette:colour_blind"], custom_id="uno:s:choice")
    await admin.select(shown, [], custom_id="uno:s:switches")  # pictures off
    assert (server(world).palette, server(world).pictures) == ("colour_blind", False)
    await world.members[0].slash(world.channel, "uno flip start")
    state = world.bot.sessions.by_channel[world.channel.id].state
    assert (state.options.language, state.options.pictures, state.options.palette) == (
        "fi",
        False,
        "colour_blind",
    )


async def test_the_command_is_offered_only_to_managers(world: World, admin: Any) -> None:
    """Discord shows /uno-settings to members with Manage Server and hides it from the rest."""
    assert "uno-settings" in admin.available_commands(world.channel)
    offered = world.members[0].available_commands(world.channel)
    assert "uno-settings" not in offered and "uno flip start" in offered


async def test_a_command_granted_to_others_still_refuses_them(world: World) -> None:
    """A server may grant the command to a role without Manage Server: the panel still refuses
    (Manage Server is what changing the settings needs)."""
    (command,) = [c for c in await world.bot.tree.fetch_commands() if c.name == "uno-settings"]
    helpers = world.guild.create_role("Helpers")
    member = world.guild.add_member(world.env.create_user("helper"), roles=[helpers])
    world.guild.set_command_permissions(command, {helpers: True})
    refused = await member.slash(world.channel, "uno-settings", reset=True)
    assert refused.ephemeral and "Manage Server" in refused.response.content


async def test_only_managers_change_settings(world: World, admin: Any) -> None:
    """Without Manage Server every forged control is refused, with a reason."""
    shown = await panel(admin, world)
    await admin.select(shown, ["stacking"], custom_id="uno:s:switches")
    table = Table(world, 2)
    await table.open()
    for control in ("switches", "choice", "channels", "role", "numbers", "reset"):
        forged = await forged_click(world.members[1], table.public, f"uno:s:{control}")
        assert forged.ephemeral and "does not belong" in forged.response.content
    assert server(world).stacking


async def test_bad_values_are_refused_and_change_nothing(world: World, admin: Any) -> None:
    """A number out of range or not a number, and a sub-option without its rule, are refused."""
    shown = await panel(admin, world)
    out_of_range = await numbers(admin, shown, target="7")
    assert "from 50 to 5,000" in out_of_range.response.content
    not_a_number = await numbers(admin, shown, turn_timeout="soon")
    assert "from 15 to 600" in not_a_number.response.content
    orphan = await admin.select(
        shown, ["stack_wild_draw_four_on_draw_two"], custom_id="uno:s:switches"
    )
    assert "do not work together" in orphan.response.content
    forged = await forged_click(admin, shown, "uno:s:choice")  # a select id with no values
    assert forged.ephemeral
    assert server(world) == ServerSettings()


async def test_games_start_only_in_the_chosen_channels(world: World, admin: Any) -> None:
    """With channels chosen, a lobby elsewhere is refused with where to play."""
    games = world.guild.create_text_channel("games")
    shown = await panel(admin, world)
    await admin.select(shown, [games], custom_id="uno:s:channels")
    assert server(world).channels == (games.id,)
    refused = await world.members[0].slash(world.channel, "uno flip start")
    assert f"<#{games.id}>" in refused.response.content
    assert world.channel.id not in world.bot.sessions.by_channel
    await world.members[0].slash(games, "uno flip start")
    assert games.id in world.bot.sessions.by_channel


async def test_the_moderator_role_may_end_any_game(world: World, admin: Any) -> None:
    """A member with the server's moderator role ends a game they neither host nor play."""
    referees = world.guild.create_role("Referees")
    referee = world.guild.add_member(world.env.create_user("referee"), roles=[referees])
    table = Table(world, 2)
    await table.start()
    refused = await referee.slash(world.channel, "uno end")
    assert "Only the host" in refused.response.content
    shown = await panel(admin, world)
    await admin.select(shown, [referees], custom_id="uno:s:role")
    await referee.slash(world.channel, "uno end")
    assert world.channel.id not in world.bot.sessions.by_channel


async def test_settings_survive_a_restart_and_reset(
    world: World, admin: Any, settings: Settings
) -> None:
    """Saved settings are read back by a restarted bot (and a restored lobby keeps the timers
    it opened with); the old panel still works; reset brings the defaults back."""
    shown = await panel(admin, world)
    await numbers(admin, shown, target="321", lobby_timeout="120")
    await world.members[0].slash(world.channel, "uno flip start")
    await world.env.restart_bot(UnoBot(settings, shard_count=1))
    restored = world.bot.sessions.by_channel[world.channel.id].state
    assert (restored.rules.target, restored.options.lobby_timeout) == (321, 120)
    other = world.guild.create_text_channel("more-uno")
    await world.members[1].slash(other, "uno flip start")
    assert world.bot.sessions.by_channel[other.id].state.rules.target == 321
    await numbers(admin, shown, target="400")  # the panel from before the restart still works
    assert server(world).target == 400
    reset = await panel(admin, world, reset=True)
    assert "back to the bot's defaults" in reset.content
    assert server(world) == ServerSettings()
