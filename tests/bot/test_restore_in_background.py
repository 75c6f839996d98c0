"""Start-up restores saved tables in the background: clicks arriving meanwhile are answered."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from bot.client import UnoBot
from bot.config import Settings
from bot.engine.snapshot import dump_state
from bot.sessions import SessionManager
from bot.store import Store

from .conftest import World
from .driver import Table, buttons, embed_text, rig

# Virtual seconds the background restore is held: past SimCord's settle window (5 s), short of
# every game timer (the turn reminder comes after 15 s).
HOLD = 10.0


def held_restore(bot: UnoBot) -> None:
    """Make ``bot``'s background restore start HOLD virtual seconds late (as if it were busy
    with thousands of other tables); the rows are read at start-up as usual."""
    build = bot.build_services

    def built(store: Store) -> SessionManager:
        sessions = build(store)
        restore: Callable[..., Coroutine[Any, Any, None]] = sessions.restore_saved

        async def later(*args: Any, **kwargs: Any) -> None:
            # A virtual sleep: SimCord settles around it, and advance_time ends it.
            await asyncio.sleep(HOLD)
            await restore(*args, **kwargs)

        sessions.restore_saved = later  # type: ignore[method-assign]
        return sessions

    bot.build_services = built  # type: ignore[method-assign]


async def test_a_click_during_the_restore_is_answered_by_its_table(
    world: World, settings: Settings
) -> None:
    """A move on an old hand while start-up is still restoring brings that table back at once
    and plays; the other channel's lobby waits for the background restore, then works too."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["R5 R6 R7", "R1 R2 R3"], top="R9", current=0)
    await table.save_now()
    anna = table.game.players[0]
    hand = await table.hand(anna)
    before = dump_state(table.game)
    other = world.guild.create_text_channel("uno-2")
    await world.members[5].slash(other, "uno flip start")
    old_lobby = other.last_message

    bot = UnoBot(settings, shard_count=1)
    held_restore(bot)
    await world.env.restart_bot(bot)

    sessions = bot.sessions
    assert sessions.restoring and not sessions.by_channel
    red5 = next(b for b in buttons(hand) if b.label == "Red 5")
    answer = await table.actor(anna).click(hand, custom_id=red5.custom_id)
    assert "Red 5" in embed_text(answer.response)
    restored = sessions.by_channel[world.channel.id]
    assert restored.state.game is not None and dump_state(restored.state.game) != before
    assert restored.state.game.top_face().name() == "Red 5"
    assert other.id not in sessions.by_channel and sessions.restoring

    await world.env.advance_time(HOLD)
    assert not sessions.restoring and other.id in sessions.by_channel
    await world.members[6].click(old_lobby, label="Join")
    assert "finn" in embed_text(other.last_message) and "gus" in embed_text(other.last_message)


async def test_a_command_during_the_restore_finds_the_saved_lobby(
    world: World, settings: Settings
) -> None:
    """/uno start in a channel whose saved lobby is not back yet finds that lobby, rather than
    opening a second one."""
    table = Table(world, 2)
    await table.open()
    bot = UnoBot(settings, shard_count=1)
    held_restore(bot)
    await world.env.restart_bot(bot)
    assert bot.sessions.restoring
    answer = await world.members[3].slash(world.channel, "uno flip start")
    assert answer.ephemeral and "already" in (answer.response.content or "")
    assert bot.sessions.by_channel[world.channel.id].state.seats[0].user_id == world.members[0].id
    await world.env.advance_time(HOLD)
    assert not bot.sessions.restoring
