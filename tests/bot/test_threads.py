"""Games in a thread of their own (issue 32): the lobby stays in the channel, the game goes on
in a thread named after it, which is archived when the match ends; restart-safe."""

from __future__ import annotations

from typing import Any

import discord

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
    anna = table.game.players[0]
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    await world.env.settle()
    assert table.game.top_face().name() == "Red 5"
    assert "Red 5" in embed_text(table.public)
    # The channel holds the lobby's message and Discord's note of the new thread, no table.
    assert [m.id for m in world.channel.history() if m.embeds] == [lobby.id]


def archived(world: World, thread: Any) -> bool:
    """Whether the simulated Discord has the thread archived."""
    return bool(world.env.backend.channels[thread.id].thread_metadata.archived)


async def win_the_match(table: ThreadTable) -> None:
    """Anna plays her last card; Ben's two wilds give her the match (classic, to 50)."""
    rig(table, ["R5", "W W"], top="R3", current=0)
    anna = table.game.players[0]
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    await table.world.env.settle()


async def test_the_match_ends_in_the_thread_and_the_channel_hears_who_won(world: World) -> None:
    """The final table is shown in the thread, which is then archived; the channel gets one
    line saying who won, linking the thread."""
    table = ThreadTable(world, 2)
    await table.start("uno classic start", thread=True, target=50)
    thread = table.thread
    await win_the_match(table)
    assert table.game.phase is Phase.MATCH_OVER
    assert "anna wins the game" in embed_text(table.public)
    assert archived(world, thread)
    said = world.channel.last_message
    assert said.content == f"🏆 anna won the game of Classic UNO in <#{thread.id}>."
    assert world.channel.id not in world.bot.sessions.by_channel
    assert thread.id not in world.bot.sessions.by_thread
    # The channel is free for the next game.
    await world.members[2].slash(world.channel, "uno flip start")
    assert "Join" in labels(world.channel.last_message)


async def test_ending_a_game_in_a_thread_archives_it(world: World) -> None:
    """/uno end used in the thread: the thread's table says so, the channel hears that the game
    is over, and the thread is archived."""
    table = ThreadTable(world, 2)
    await table.start("uno classic start", thread=True)
    thread = table.thread
    ended = await table.players[0].slash(thread, "uno end")
    assert ended.ephemeral
    await world.env.settle()
    assert "anna ended the game" in embed_text(table.public)
    assert (
        world.channel.last_message.content == f"The game of Classic UNO in <#{thread.id}> is over."
    )
    assert archived(world, thread)


async def test_commands_and_a_second_start_in_the_thread_find_its_game(world: World) -> None:
    """In the game's thread /uno hand finds the game, and a second start there or in the
    channel is refused: one game per channel, its thread included."""
    table = ThreadTable(world, 2)
    await table.start("uno classic start", thread=True)
    thread = table.thread
    anna = table.players[0]
    hand = await anna.slash(thread, "uno hand")
    assert hand.ephemeral and "Your hand" in embed_text(hand.response)
    again = await world.members[2].slash(thread, "uno flip start")
    assert again.ephemeral and "already" in (again.response.content or "")
    again = await world.members[2].slash(world.channel, "uno flip start")
    assert again.ephemeral and "already" in (again.response.content or "")
    assert len(world.bot.sessions.by_id) == 1


async def test_without_thread_permissions_the_game_plays_in_the_channel(world: World) -> None:
    """A bot that may not create public threads says so once on the table and plays in the
    channel."""
    deny(world, create_public_threads=True)
    table = ThreadTable(world, 2)
    await table.start("uno classic start", thread=True)
    assert world.channel.threads == []
    assert table.session.state.thread_id is None
    shown = table.public
    assert "Hand" in labels(shown) and shown.channel.id == world.channel.id
    text = embed_text(shown)
    assert "The bot lacks Create Public Threads in this channel" in text
    assert text.count("🧵") == 1


async def test_a_hand_opened_in_the_channel_never_posts_the_table_there(world: World) -> None:
    """A move from a hand opened with /uno hand in the lobby's channel: its click's token
    belongs to the channel, so the table is updated in the thread, never posted anew in the
    channel through it."""
    table = ThreadTable(world, 2)
    await table.start("uno classic start", thread=True)
    rig(table, ["R5 R6 R7", "R1 R2 R3"], top="R9", current=0)
    anna = table.game.players[0]
    opened = await table.actor(anna).slash(world.channel, "uno hand")
    hand = opened.response
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    await world.env.settle()
    assert table.game.top_face().name() == "Red 5"
    assert [m for m in world.channel.history() if "Hand" in labels(m)] == []
    tables = [m for m in table.thread.history() if "Hand" in labels(m)]
    assert [m.id for m in tables] == [table.session.state.message_id]
    assert "Red 5" in embed_text(tables[0])


async def restart(world: World, settings: Settings) -> UnoBot:
    """Replace the bot by a new process-like instance on the same database file."""
    bot = UnoBot(settings, shard_count=1)
    await world.env.restart_bot(bot)
    return bot


async def test_a_game_in_a_thread_survives_a_restart(world: World, settings: Settings) -> None:
    """After a restart the game is still in its thread: the old table's buttons work there, a
    move posts the table anew in the thread, and the match still ends there."""
    table = ThreadTable(world, 2)
    await table.start("uno classic start", thread=True, target=50)
    thread = table.thread
    rig(table, ["R5 R6", "R1 W W"], top="R9", current=0)
    await table.save_now()
    old_table = table.public
    await restart(world, settings)
    table.forget_session()
    restored = world.bot.sessions.by_channel[world.channel.id]
    assert restored.state.thread_id == thread.id
    assert world.bot.sessions.here(thread.id) is restored
    await world.env.settle()
    assert "The bot restarted" in embed_text(
        old_table.channel.get_partial_message(old_table.id) and table.public
    )
    anna, ben = table.game.players
    hand = (await table.actor(anna).click(old_table, label="Hand")).response
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    await world.env.settle()
    tables = [m for m in thread.history() if "Hand" in labels(m)]
    assert [m.id for m in tables] == [restored.state.message_id]
    assert [m for m in world.channel.history() if "Hand" in labels(m)] == []
    hand = await table.hand(ben)
    await table.press(ben, hand, next(b.code for b in buttons(hand) if b.label == "Red 1"))
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 6"))
    await world.env.settle()
    assert table.game.phase is Phase.MATCH_OVER
    assert archived(world, thread)
    assert world.channel.last_message.content.startswith("🏆 anna won")


async def test_a_thread_archived_while_the_bot_was_away_is_reopened(
    world: World, settings: Settings
) -> None:
    """A moderator archived the game's thread while the bot was down: the restored game
    reopens it and plays on there."""
    table = ThreadTable(world, 2)
    await table.start("uno classic start", thread=True)
    thread = table.thread
    await table.save_now()
    world.env.backend.channels[thread.id].thread_metadata.archived = True
    await restart(world, settings)
    table.forget_session()
    await world.env.settle()
    assert not archived(world, thread)
    assert table.session.state.thread_id == thread.id
    assert "The bot restarted" in embed_text(table.public)


async def test_a_thread_deleted_while_the_bot_was_away_leaves_the_game_in_the_channel(
    world: World, settings: Settings
) -> None:
    """The game's thread was deleted while the bot was down: the game goes on in the channel,
    whose new table says why, and its buttons work."""
    table = ThreadTable(world, 2)
    await table.start("uno classic start", thread=True)
    thread_id = table.thread.id
    await table.save_now()
    world.env.backend.delete_channel(thread_id)
    await restart(world, settings)
    table.forget_session()
    await world.env.settle()
    state = table.session.state
    assert state.thread_id is None
    shown = world.channel.last_message
    assert shown.id == state.message_id and "Hand" in labels(shown)
    assert "The game's thread is gone: the game goes on here." in embed_text(shown)
    player = table.game.current_player
    assert player is not None
    result = await table.actor(player).click(shown, label="Hand")
    assert result.ephemeral and "Your hand" in embed_text(result.response)


async def test_a_server_setting_sends_its_finnish_games_to_threads(
    world: World, admin: Any
) -> None:
    """A server that turned threads on in /uno-settings (and speaks Finnish): its next game
    goes on in a thread with a Finnish name, the lobby says where in Finnish, and the end
    is told in Finnish in the channel."""
    shown = (await admin.slash(world.channel, "uno-settings")).response
    await admin.select(shown, ["thread"], custom_id="uno:s:switches")
    await admin.select(shown, ["language:fi"], custom_id="uno:s:choice")
    assert world.bot.sessions.servers.peek(world.guild.id).thread
    assert "Games in a thread: on" in embed_text(shown)
    anna, ben = world.members[:2]
    await anna.slash(world.channel, "uno classic start")
    session = world.bot.sessions.by_channel[world.channel.id]
    assert session.state.options.thread
    lobby = world.channel.last_message
    await ben.click(lobby, custom_id=f"uno:l:{session.id}:join")
    await anna.click(lobby, custom_id=f"uno:l:{session.id}:start")
    (thread,) = world.channel.threads
    assert thread.name == "Klassinen UNO · pelaajan anna pöytä"
    assert f"🧵 Peli jatkuu ketjussa <#{thread.id}>." in embed_text(world.channel.history()[0])
    ended = await anna.slash(thread, "uno end")
    assert ended.ephemeral
    await world.env.settle()
    said = world.channel.last_message.content
    assert said == f"Peli Klassinen UNO ketjussa <#{thread.id}> on päättynyt."
    assert archived(world, thread)


async def test_a_long_name_and_markdown_make_a_plain_thread_name_within_the_limit(
    world: World,
) -> None:
    """A host's name full of markdown is the thread's name as plain text, cut to Discord's
    100 characters."""
    host = world.guild.add_member(world.env.create_user("**Bold**_" + "x" * 120))
    table = ThreadTable(world, 2)
    table.players = [host, world.members[1]]
    await table.start("uno classic start", thread=True)
    name = table.thread.name
    assert len(name) <= 100 and name.startswith("Classic UNO · **Bold**_xxx")
    assert name.endswith("…")


async def test_a_thread_deleted_mid_game_leaves_the_game_in_the_channel(world: World) -> None:
    """Someone deletes the game's thread while it runs: the next update finds it gone, and
    the game goes on in the channel, whose new table says why."""
    table = ThreadTable(world, 2)
    await table.start("uno classic start", thread=True)
    rig(table, ["R5 R6 R7", "R1 R2 R3"], top="R9", current=0)
    world.env.backend.delete_channel(table.thread.id)
    anna = table.game.players[0]
    hand = (await table.actor(anna).slash(world.channel, "uno hand")).response
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    await world.env.settle()
    state = table.session.state
    assert state.thread_id is None
    shown = world.channel.last_message
    assert shown.id == state.message_id and "Hand" in labels(shown)
    text = embed_text(shown)
    assert "The game's thread is gone: the game goes on here." in text and "Red 5" in text


async def test_a_click_in_the_thread_during_the_restore_brings_its_game_back(
    world: World, settings: Settings
) -> None:
    """While start-up is still restoring, a click in the game's thread (Discord says the
    thread's channel id) and /uno hand there bring the game back first and are answered."""
    from .test_restore_in_background import HOLD, held_restore

    table = ThreadTable(world, 2)
    await table.start("uno classic start", thread=True)
    thread = table.thread
    rig(table, ["R5 R6 R7", "R1 R2 R3"], top="R9", current=0)
    await table.save_now()
    old_table = table.public
    bot = UnoBot(settings, shard_count=1)
    held_restore(bot)
    await world.env.restart_bot(bot)
    assert bot.sessions.restoring and not bot.sessions.by_channel
    anna, ben = table.game.players
    answer = await table.actor(anna).click(old_table, label="Hand")
    assert answer.ephemeral and "Your hand" in embed_text(answer.response)
    assert bot.sessions.here(thread.id) is bot.sessions.by_channel[world.channel.id]
    opened = await table.actor(ben).slash(thread, "uno hand")
    assert opened.ephemeral and "Your hand" in embed_text(opened.response)
    await world.env.advance_time(HOLD)
    assert not bot.sessions.restoring


async def test_a_game_started_in_a_thread_plays_there(world: World) -> None:
    """A lobby opened inside a thread (threads hold no threads) with thread on: the game plays
    in that thread and its table says why, once."""
    anna = world.members[0]
    made = world.env.backend.create_thread(world.channel.id, "chat", anna.id)
    (chat,) = [t for t in world.channel.threads if t.id == made.id]
    await anna.slash(chat, "uno classic start", thread=True)
    session = world.bot.sessions.by_channel[chat.id]
    await world.members[1].click(chat.last_message, custom_id=f"uno:l:{session.id}:join")
    await anna.click(chat.last_message, custom_id=f"uno:l:{session.id}:start")
    assert session.state.thread_id is None and session.state.game is not None
    shown = chat.last_message
    assert "Hand" in labels(shown)
    assert "🧵 This channel cannot hold threads: the game is played here." in embed_text(shown)
    assert [t.id for t in world.channel.threads] == [chat.id]


async def test_a_table_button_forged_onto_the_lobby_in_the_channel_changes_nothing(
    world: World,
) -> None:
    """The lobby's message in the channel carries no buttons once the game is in its thread:
    a table or lobby button's id forged onto it is refused privately, and the game is as it
    was."""
    from .hostile import forged_click

    table = ThreadTable(world, 2)
    await table.start("uno classic start", thread=True)
    session = table.session
    before = session.state.revision
    for custom_id in (f"uno:t:{session.id}:next", f"uno:l:{session.id}:start"):
        result = await forged_click(table.players[0], table.lobby, custom_id)
        assert result.ephemeral
    assert session.state.revision == before
    assert [m.id for m in table.thread.history() if "Hand" in labels(m)] == [
        session.state.message_id
    ]
