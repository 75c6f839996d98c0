"""The lobby: join, leave, start, cancel, expiry and one session per channel."""

from __future__ import annotations

from simcord import assert_no_errors

from .conftest import World
from .driver import Table, embed_text, labels


async def test_start_opens_a_public_lobby_with_the_four_buttons(world: World) -> None:
    """/uno flip start posts a lobby listing the host, with Join, Leave, Start and Cancel."""
    anna = world.members[0]
    await anna.slash(world.channel, "uno flip start")
    lobby = world.channel.last_message
    assert labels(lobby) == ["Join", "Leave", "Start", "Cancel", "Add AI"]
    assert "anna (host)" in embed_text(lobby)
    assert "UNO Flip lobby" in embed_text(lobby)


async def test_join_and_leave_update_the_player_list(world: World) -> None:
    """Joining adds a name to the lobby message; leaving removes it."""
    anna, ben = world.members[:2]
    await anna.slash(world.channel, "uno flip start")
    await ben.click(world.channel.last_message, label="Join")
    assert "2. ben" in embed_text(world.channel.last_message)
    await ben.click(world.channel.last_message, label="Leave")
    text = embed_text(world.channel.last_message)
    assert "ben" not in text and "Players (1/10)" in text


async def test_joining_twice_is_refused_ephemerally(world: World) -> None:
    """A second Join from the same person gets a private note and changes nothing."""
    anna, ben = world.members[:2]
    await anna.slash(world.channel, "uno flip start")
    await ben.click(world.channel.last_message, label="Join")
    again = await ben.click(world.channel.last_message, label="Join")
    assert again.ephemeral and "already in" in again.response.content
    assert "Players (2/10)" in embed_text(world.channel.last_message)


async def test_only_the_host_can_start(world: World) -> None:
    """Start from a non-host is refused privately; the lobby stays open."""
    table = Table(world, 2)
    await table.open()
    refused = await world.members[1].click(table.public, label="Start")
    assert refused.ephemeral and "Only the host" in refused.response.content
    assert table.session.state.game is None


async def test_start_needs_two_players(world: World) -> None:
    """The Start button is disabled with one player and the lobby stays open."""
    table = Table(world, 1)
    await table.open()
    start = next(b for b in table.public.components[0].children if b.label == "Start")
    assert start.disabled
    assert table.session.state.game is None


async def test_start_turns_the_lobby_into_the_table(world: World) -> None:
    """After Start the same message shows the table with a Hand button (UNO! comes once
    someone is down to two cards) and says why cards were drawn for the deal."""
    table = Table(world, 3)
    lobby = await table.open()
    await table.players[0].click(lobby, label="Start")
    assert table.public.id == lobby.id
    assert labels(table.public) == ["Hand"]
    assert "round 1" in embed_text(table.public)
    assert "Everyone drew a card to choose the dealer" in embed_text(table.public)
    assert_no_errors(world.env)


async def test_lobby_is_full_at_ten(world: World) -> None:
    """An eleventh player cannot join."""
    table = Table(world, 10)
    await table.open()
    full = await world.mod.click(table.public, label="Join")
    assert "full" in full.response.content
    assert len(table.session.state.seats) == 10


async def test_cancel_closes_the_lobby(world: World) -> None:
    """The host's Cancel removes the buttons and frees the channel."""
    table = Table(world, 2)
    await table.open()
    await table.players[0].click(table.public, label="Cancel")
    assert labels(table.public) == []
    assert "cancelled" in embed_text(table.public)
    assert world.channel.id not in world.bot.sessions.by_channel


async def test_non_host_cannot_cancel(world: World) -> None:
    """A player who is not the host cannot cancel the lobby."""
    table = Table(world, 2)
    await table.open()
    refused = await world.members[1].click(table.public, label="Cancel")
    assert "Only the host" in refused.response.content
    assert world.channel.id in world.bot.sessions.by_channel


async def test_idle_lobby_closes_after_the_timeout(world: World) -> None:
    """A lobby nobody starts closes itself after 10 minutes with a message."""
    table = Table(world, 2)
    await table.open()
    await world.env.advance_time(599)
    assert world.channel.id in world.bot.sessions.by_channel
    await world.env.advance_time(2)
    assert world.channel.id not in world.bot.sessions.by_channel
    assert "Nobody started the game" in embed_text(table.public)
    assert labels(table.public) == []


async def test_second_start_in_a_channel_is_refused_with_a_link(world: World) -> None:
    """Another /uno start in a busy channel gets an ephemeral pointer to the open game."""
    table = Table(world, 2)
    lobby = await table.open()
    second = await world.members[2].slash(world.channel, "uno classic start")
    assert second.ephemeral
    assert "already open" in second.response.content
    assert str(lobby.id) in second.response.content


async def test_host_leaving_passes_the_host_on(world: World) -> None:
    """When the host leaves the lobby, the next player becomes host."""
    table = Table(world, 2)
    await table.open()
    await world.members[0].click(table.public, label="Leave")
    assert table.session.state.host_id == world.members[1].id
    assert "ben (host)" in embed_text(table.public)


async def test_incompatible_settings_are_refused(world: World) -> None:
    """Wild Draw Four on Draw Two without stacking is explained, and no lobby opens."""
    refused = await world.members[0].slash(
        world.channel, "uno classic start", wild_draw_four_on_draw_two=True
    )
    assert refused.ephemeral and "stacking" in refused.response.content
    assert world.channel.id not in world.bot.sessions.by_channel
