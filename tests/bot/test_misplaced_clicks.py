"""Every component answers only on its kind of message: a forged id on another message is
refused privately and the message stays as it was (bot/ui/kinds.py)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.server_settings import ServerSettings
from bot.ui.i18n import ENGLISH, t
from bot.ui.kinds import MISPLACED_CLICK

from .conftest import World
from .driver import Table, buttons, embed_text
from .hostile import forged_click

MISPLACED = t(ENGLISH, MISPLACED_CLICK)


def page_id(world: World, page: int = 1) -> str:
    """The id of a page button of this server's leaderboard."""
    return f"lb:s:a:p:{page}:{world.guild.id}"


async def leaderboard(world: World) -> Any:
    """Post this server's leaderboard; its public message."""
    await world.members[0].slash(world.channel, "leaderboard")
    return world.channel.last_message


async def settings_panel(world: World, admin: Any) -> Any:
    """Open the settings panel as ``admin``; the ephemeral message."""
    return (await admin.slash(world.channel, "uno-settings")).response


async def test_a_leaderboard_page_on_a_table_is_refused(world: World) -> None:
    """A page id delivered on a game's table leaves the table as it was."""
    table = Table(world, 2)
    await table.start("uno classic start")
    before = embed_text(table.public)
    answer = await forged_click(world.members[0], table.public, page_id(world))
    assert answer.ephemeral and answer.response.content == MISPLACED
    assert embed_text(table.public) == before


async def test_a_leaderboard_page_on_a_hand_is_refused(world: World) -> None:
    """A page id delivered on an ephemeral hand leaves the hand as it was."""
    table = Table(world, 2)
    await table.start("uno classic start")
    anna = table.game.players[0]
    hand = await table.hand(anna)
    before = embed_text(hand)
    answer = await forged_click(table.actor(anna), hand, page_id(world))
    assert answer.response.content == MISPLACED
    assert embed_text(hand) == before


async def test_a_leaderboard_page_on_a_leaderboard_still_pages(world: World) -> None:
    """The same id on a leaderboard is answered by showing the page."""
    board = await leaderboard(world)
    answer = await forged_click(world.members[1], board, page_id(world))
    assert answer.response is not None and answer.response.content != MISPLACED


async def test_a_hand_button_on_the_settings_panel_is_refused(world: World, admin: Any) -> None:
    """A player's hand id delivered on their own settings panel (also ephemeral) leaves the
    panel as it was."""
    table = Table(world, 2)
    table.players[0] = admin
    table.by_id[str(admin.id)] = admin
    await table.start("uno classic start")
    hand = await table.hand(str(admin.id))
    shown = await settings_panel(world, admin)
    before = embed_text(shown)
    answer = await forged_click(admin, shown, buttons(hand)[0].custom_id)
    assert answer.response.content == MISPLACED
    assert embed_text(shown) == before


async def test_a_table_button_on_a_leaderboard_is_refused(world: World) -> None:
    """A table's id delivered on a leaderboard leaves the leaderboard as it was."""
    table = Table(world, 2)
    await table.start("uno classic start")
    table_id = buttons(table.public)[0].custom_id
    board = await leaderboard(world)
    before = embed_text(board)
    answer = await forged_click(world.members[0], board, table_id)
    assert answer.response.content == MISPLACED
    assert embed_text(board) == before


@pytest.mark.parametrize("control", ["reset", "switches"])
async def test_a_settings_control_on_a_table_is_refused(
    world: World, admin: Any, control: str
) -> None:
    """A manager's settings control delivered on a game's table neither changes the settings
    nor puts the panel over the table."""
    shown = await settings_panel(world, admin)
    await admin.select(shown, ["stacking"], custom_id="uno:s:switches")
    table = Table(world, 2)
    await table.start("uno classic start")
    before = embed_text(table.public)
    answer = await forged_click(admin, table.public, f"uno:s:{control}")
    assert answer.ephemeral and answer.response.content == MISPLACED
    assert embed_text(table.public) == before
    assert world.bot.sessions.servers.peek(world.guild.id) != ServerSettings()


async def test_a_settings_control_on_a_leaderboard_is_refused(world: World, admin: Any) -> None:
    """Reset delivered on a leaderboard leaves the board and the settings as they were."""
    shown = await settings_panel(world, admin)
    await admin.select(shown, ["stacking"], custom_id="uno:s:switches")
    board = await leaderboard(world)
    before = embed_text(board)
    answer = await forged_click(admin, board, "uno:s:reset")
    assert answer.response.content == MISPLACED
    assert embed_text(board) == before
    assert world.bot.sessions.servers.peek(world.guild.id).stacking
