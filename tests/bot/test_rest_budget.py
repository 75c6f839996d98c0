"""Every REST call a game makes outside an interaction goes through the one budget: table
edits, turn reminders, their deletion, a table posted anew, the closing notice."""

from __future__ import annotations

from typing import Any

import discord

from .conftest import World
from .driver import Table, buttons, embed_text, rig
from .test_turn_reminder import reminders, table_message


def channel_calls(world: World) -> list[tuple[str, str]]:
    """(method, path) of every request the bot made to a channel (not an interaction's
    answer, a webhook follow-up or the start-up's command sync: Discord exempts the first
    two from its global limit)."""
    return [
        (entry.method, entry.path)
        for entry in world.env.backend.http_requests
        if entry.path.startswith("/channels/")
    ]


async def test_only_the_reminder_and_its_deletion_are_counted_when_clicks_carry_the_table(
    world: World,
) -> None:
    """A reminder and its deletion spend the budget; the edits, the table posted again after
    someone deleted it and the notice at the end go through the clicks' tokens: nothing else
    reaches Discord as a counted request."""
    cleaners = world.guild.create_role(
        "Cleaners", permissions=discord.Permissions(manage_messages=True)
    )
    cleaner = world.guild.add_member(world.env.create_user("cleaner"), roles=[cleaners])
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["R5 R6 R7", "R1 R2 R3"], top="R9", current=0)
    budget = world.bot.sessions.edits
    starts: list[Any] = []
    budget.on_start = lambda key, since, now: starts.append(key)
    before = len(channel_calls(world))

    await world.env.advance_time(16)
    assert len(reminders(world)) == 1
    anna, ben = table.game.players
    hand = await table.actor(anna).click(table_message(world, table), label="Hand")
    await table.press(
        anna, hand.response, next(b.code for b in buttons(hand.response) if b.label == "Red 5")
    )
    await world.env.settle()
    assert reminders(world) == []
    await cleaner.delete(table_message(world, table))
    hand = await table.actor(ben).slash(world.channel, "uno hand")  # the table is gone
    await table.press(
        ben, hand.response, next(b.code for b in buttons(hand.response) if b.label == "Red 1")
    )
    await world.env.settle()
    reposted = world.channel.last_message
    assert reposted.id == table.session.state.message_id and "Hand" in [
        b.label for b in buttons(reposted)
    ]
    await world.members[0].slash(world.channel, "uno end")
    await world.env.settle()
    assert "ended the game" in embed_text(world.channel.last_message)

    calls = channel_calls(world)[before:]
    # Counted: the reminder and its deletion, each a start of the budget. The table's edits,
    # the table posted again (a follow-up of Ben's move) and the closing notice went through
    # interaction tokens, which Discord does not count.
    assert [method for method, _ in calls] == ["POST", "DELETE"], calls
    assert starts.count(None) >= len(calls)


async def test_lobby_clicks_make_no_request_but_their_answers(world: World) -> None:
    """Join, Leave and Add AI redraw the lobby only through their in-place answers: the
    lock's release, which requests an update when the table changed, adds no request."""
    table = Table(world, 2)
    lobby = await table.open()
    await world.env.settle()
    before = len(world.env.backend.http_requests)
    ben = world.members[1]
    await ben.click(world.channel.last_message, label="Join")
    await ben.click(world.channel.last_message, label="Leave")
    await ben.click(world.channel.last_message, label="Join")
    await world.members[0].click(lobby, label="Add AI")
    await world.env.advance_time(5)
    await world.env.settle()
    calls = [(entry.method, entry.path) for entry in world.env.backend.http_requests[before:]]
    assert calls and all(path.endswith("/callback") for _, path in calls), calls
