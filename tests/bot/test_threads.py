"""Games in a thread of their own (issue 32): the lobby stays in the channel, the game goes on
in a thread named after it, which is archived when the match ends; restart-safe."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.client import UnoBot
from bot.config import Settings
from bot.engine import Phase

from .conftest import World
from .driver import Table, buttons, embed_text, labels, rig


class ThreadTable(Table):
    """A table whose game may have gone on in a thread of the world's channel."""

    @property
    def thread(self) -> Any:
        """The game's thread (the one thread of the channel)."""
        threads = self.world.channel.threads
        assert len(threads) == 1, f"threads: {threads}"
        return threads[0]

    @property
    def lobby(self) -> Any:
        """The lobby's message in the channel (the first message the bot posted there)."""
        return self.world.channel.history()[0]

    @property
    def public(self) -> Any:
        """The public message: the lobby until the game has a thread, then the thread's table."""
        threads = self.world.channel.threads
        if not threads or self.session.state.thread_id is None:
            return self.world.channel.last_message
        shown = [m for m in threads[0].history() if m.id == self.session.state.message_id]
        return shown[0] if shown else threads[0].last_message


def deny(world: World, **permissions: bool) -> None:
    """Take permissions away from the bot in the world's channel (a member overwrite)."""
    bot_id = world.env.backend.bot_user.id
    overwrite = discord.PermissionOverwrite(**{name: False for name in permissions})
    allow, refused = overwrite.pair()
    from simcord.backend.models import Overwrite
    from simcord.enums import OverwriteType

    channel = world.env.backend.channels[world.channel.id]
    channel.overwrites.append(
        Overwrite(
            target_id=bot_id, type=OverwriteType.MEMBER, allow=allow.value, deny=refused.value
        )
    )


async def test_a_game_goes_on_in_a_thread_named_after_it(world: World) -> None:
    """Start with thread: the lobby points to a thread named after the game, the table and its
    hands play there, and nothing of the game is posted in the channel."""
    table = ThreadTable(world, 2)
    await table.start("uno classic start", thread=True)
    thread = table.thread
    assert thread.name == "Classic UNO · anna's table"
    assert table.session.state.thread_id == thread.id
    lobby = table.lobby
    assert f"<#{thread.id}>" in embed_text(lobby) and not buttons(lobby)
    assert "Hand" in labels(table.public) and table.public.channel.id == thread.id
    rig(table, ["R5 R6 R7", "R1 R2 R3"], top="R9", current=0)
    anna, ben = table.game.players
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    await world.env.settle()
    assert table.game.top_face().name() == "Red 5"
    assert "Red 5" in embed_text(table.public)
    # The channel holds the lobby's message and Discord's note of the new thread, no table.
    assert [m.id for m in world.channel.history() if m.embeds] == [lobby.id]
