"""Games and lobbies survive a restart: saved every change, restored with buttons and timers."""

from __future__ import annotations

import json
import random
import sqlite3
from typing import Any

import discord
import pytest

from bot.client import UnoBot
from bot.config import Settings
from bot.engine import Phase
from bot.engine.snapshot import dump_state
from bot.sessions import STALE_CLICK
from bot.store import RetryPolicy
from bot.store.connection import execute
from bot.store.repositories import snapshots
from bot.ui.i18n import ENGLISH, t

from .conftest import World
from .driver import TERMINAL, Table, buttons, embed_text, labels, rig


def rounds_in_db(settings: Settings) -> list[tuple[int, int]]:
    """(game id, round number) of every recorded round, read straight from the file."""
    with sqlite3.connect(settings.db_path) as db:
        return db.execute(
            "SELECT game_id, round_no FROM rounds ORDER BY game_id, round_no"
        ).fetchall()


def lobbies_in_db(settings: Settings) -> list[tuple[int, str]]:
    """(channel id, session id) of every saved lobby, read straight from the file."""
    with sqlite3.connect(settings.db_path) as db:
        return db.execute(
            "SELECT channel_id, session_id FROM lobbies ORDER BY channel_id"
        ).fetchall()


def saved_lobby_players(settings: Settings) -> list[str]:
    """The seat names of the one saved lobby, read straight from the file."""
    with sqlite3.connect(settings.db_path) as db:
        (lobby_json,) = db.execute("SELECT lobby_json FROM lobbies").fetchone()
    return [seat["name"] for seat in json.loads(lobby_json)["seats"]]


async def restart(world: World, settings: Settings) -> UnoBot:
    """Replace the bot by a new process-like instance on the same database file."""
    bot = UnoBot(settings, shard_count=1)
    await world.env.restart_bot(bot)
    return bot


async def test_old_messages_keep_working_after_a_restart(world: World, settings: Settings) -> None:
    """After a restart the old table and the old hand message still play the same game."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["R5 R6 R7", "R1 R2 R3"], top="R9", current=0)
    anna, ben = table.game.players
    hand_anna = await table.hand(anna)
    await table.press(
        anna, hand_anna, next(b.code for b in buttons(hand_anna) if b.label == "Red 5")
    )
    hand_ben = await table.hand(ben)
    before = dump_state(table.game)
    old_table = table.public

    await restart(world, settings)

    restored = world.bot.sessions.by_channel[world.channel.id]
    assert restored.state.game is not None and dump_state(restored.state.game) == before
    assert "The bot restarted" in embed_text(table.public)
    again = await table.actor(anna).click(old_table, label="Hand")
    assert again.ephemeral and "2 cards" in embed_text(again.response)
    code = next(b.code for b in buttons(hand_ben) if b.label == "Red 1")
    await table.actor(ben).click(
        hand_ben, custom_id=next(b.custom_id for b in buttons(hand_ben) if b.code == code)
    )
    assert restored.state.game.top_face().name() == "Red 1"
    # No token survives a restart: Ben's move posted the table anew through his click's, and
    # the old table went; one table shows the move.
    await world.env.settle()
    tables = [m for m in world.channel.history() if "Hand" in labels(m)]
    assert [m.id for m in tables] == [restored.state.message_id]
    assert "Red 1" in embed_text(tables[0])


async def test_after_a_restart_one_repost_puts_the_table_back_on_a_token(
    world: World, settings: Settings
) -> None:
    """No token survives a restart, and no new one can edit the old table (Discord lets a
    token edit only what its interaction posted or was clicked on). The first move from a hand
    posts the table anew through its click's token; from then on the moves edit it through
    that token: one repost. The only counted requests are the old table's redraw as the game
    comes back (it says the bot restarted) and its delete after the repost."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["R5 R6 R7", "R1 R2 R3"], top="R9", current=0)
    await table.save_now()
    old_id = table.session.state.message_id
    await restart(world, settings)
    table.forget_session()
    anna, ben = table.game.players
    counted_before = len(world.env.backend.http_requests)

    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    await world.env.settle()
    new_id = table.session.state.message_id
    assert new_id != old_id
    hand = await table.hand(ben)
    await table.press(ben, hand, next(b.code for b in buttons(hand) if b.label == "Red 1"))
    await world.env.settle()

    assert table.session.state.message_id == new_id  # not posted anew a second time
    tables = [m for m in world.channel.history() if "Hand" in labels(m)]
    assert [m.id for m in tables] == [new_id]
    assert "Red 1" in embed_text(tables[0])
    counted = [
        (entry.method, entry.path)
        for entry in world.env.backend.http_requests[counted_before:]
        if entry.path.startswith("/channels/")
    ]
    old_table = f"/channels/{world.channel.id}/messages/{old_id}"
    assert counted == [("PATCH", old_table), ("DELETE", old_table)]


async def test_turn_timer_resumes_after_a_restart(world: World, settings: Settings) -> None:
    """A player who left before the restart still times out afterwards."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["R5 R6 R7", "G1 G2 G3"], top="B9", current=0)
    await table.save_now()
    await restart(world, settings)
    await world.env.advance_time(61)
    game = world.bot.sessions.by_channel[world.channel.id].state.game
    assert game is not None and len(game.hands[0]) == 4


async def test_a_scored_round_is_recorded_once_across_restarts(
    world: World, settings: Settings
) -> None:
    """The round result is written exactly once, however often the game is saved or restored."""
    table = Table(world, 2)
    await table.start("uno classic start", target=5000)
    rig(table, ["R5", "G1 G2 G3"], top="R3", current=0)
    anna = table.game.players[0]
    hand = await table.hand(anna)
    await table.press(anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5"))
    assert table.game.phase is Phase.ROUND_OVER
    await table.save_now()
    await table.save_now()
    await restart(world, settings)
    table.forget_session()
    await table.save_now()
    assert [r for _, r in rounds_in_db(settings)] == [1]
    await table.players[1].click(table.public, label="Next round")
    assert world.bot.sessions.by_channel[world.channel.id].state.game.round_no == 2  # type: ignore[union-attr]


async def test_unreadable_snapshot_ends_only_that_game(
    world: World, settings: Settings, simcord_env: Any
) -> None:
    """A snapshot that cannot be read ends its game with a message; other games resume."""
    other = world.guild.create_text_channel("uno-2")
    table = Table(world, 2)
    await table.start()
    await world.members[2].slash(other, "uno flip start")
    await world.members[3].click(other.last_message, label="Join")
    await world.members[2].click(other.last_message, label="Start")
    broken = table.game_id
    with sqlite3.connect(settings.db_path) as db:
        db.execute("UPDATE snapshots SET state_json = '{broken' WHERE game_id = ?", (broken,))
    await restart(world, settings)
    assert world.channel.id not in world.bot.sessions.by_channel
    assert other.id in world.bot.sessions.by_channel
    assert "could not be resumed" in (world.channel.last_message.content or "")
    with sqlite3.connect(settings.db_path) as db:
        status = db.execute("SELECT status FROM games WHERE id = ?", (broken,)).fetchone()[0]
    assert status == "abandoned"


async def test_a_full_round_by_clicks_survives_a_restart_midway(
    world: World, settings: Settings
) -> None:
    """Half a round, a restart, the other half: the round ends and is recorded once."""
    table = Table(world, 3)
    await table.start()
    rng = random.Random(3)
    for _ in range(6):
        if table.game.phase is not Phase.PLAY:
            break
        await table.play_turn(rng)
    await restart(world, settings)
    table.forget_session()
    await table.play_round(rng)
    assert labels(table.public)
    assert len(rounds_in_db(settings)) == 1


# ---------------------------------------------------------------------- lobbies


@pytest.mark.slow
async def test_a_lobby_survives_a_restart_and_its_old_buttons_work(
    world: World, settings: Settings
) -> None:
    """A lobby with a player and an AI seat comes back; its old message joins, leaves, starts."""
    anna, ben, cara = world.members[:3]
    await anna.slash(
        world.channel, "uno classic start", ai=1, ai_difficulty="easy", target=5000, stacking=True
    )
    await ben.click(world.channel.last_message, label="Join")
    old_lobby = world.channel.last_message
    await restart(world, settings)

    lobby = world.bot.sessions.by_channel[world.channel.id]
    assert [(s.name, s.ai) for s in lobby.state.seats] == [
        ("anna", None),
        ("Anna 🤖", "easy"),
        ("ben", None),
    ]
    assert (lobby.state.rules.variant, lobby.state.rules.target, lobby.state.rules.stacking) == (
        "classic",
        5000,
        True,
    )
    assert lobby.state.options.ai_difficulty == "easy" and lobby.state.host_id == anna.id
    assert "The bot restarted" in embed_text(world.channel.last_message)
    await cara.click(old_lobby, label="Join")
    await ben.click(old_lobby, label="Leave")
    assert "2. Anna 🤖 (easy)\n3. cara" in embed_text(world.channel.last_message)
    await anna.click(old_lobby, label="Start")

    assert lobby.state.game is not None and lobby.state.game.players == [
        str(anna.id),
        "ai1",
        str(cara.id),
    ]
    assert lobbies_in_db(settings) == []
    table = Table(world, 3)
    rng = random.Random(5)
    for _ in range(500):
        if table.game.phase in TERMINAL:
            break
        if lobby.state.is_ai(table.game.current_player):
            await world.env.settle()
        else:
            await table.play_turn(rng)
    assert table.game.phase is Phase.ROUND_OVER
    assert [game for game, _ in rounds_in_db(settings)] == [table.game_id]


async def test_a_restored_lobby_keeps_the_idle_time_it_had_left(
    world: World, settings: Settings
) -> None:
    """Idle 500 s before a restart, a 600 s lobby closes 100 s after it, not 600 s."""
    table = Table(world, 2)
    await table.open()
    await world.env.advance_time(500)
    await restart(world, settings)
    await world.env.advance_time(99)
    assert world.channel.id in world.bot.sessions.by_channel
    await world.env.advance_time(2)
    assert world.channel.id not in world.bot.sessions.by_channel
    assert "Nobody started the game" in embed_text(world.channel.last_message)
    assert lobbies_in_db(settings) == []


async def test_a_lobby_that_timed_out_while_the_bot_was_down_closes_at_start_up(
    world: World, settings: Settings
) -> None:
    """The bot stops, stays down past the lobby's idle time, and closes the lobby on start-up."""
    table = Table(world, 2)
    await table.open()
    await world.bot.sessions.shutdown()  # what the bot does when it is stopped
    await world.env.advance_time(700)
    assert world.channel.id in world.bot.sessions.by_channel  # nothing ran while it was down
    await restart(world, settings)
    assert world.channel.id not in world.bot.sessions.by_channel
    assert "Nobody started the game" in embed_text(world.channel.last_message)
    assert labels(world.channel.last_message) == []
    assert lobbies_in_db(settings) == []


async def test_cancelled_emptied_ended_and_started_lobbies_are_not_restored(
    world: World, settings: Settings
) -> None:
    """Only the open lobby comes back as a lobby: closed ones are gone, a started one is a game."""
    anna, ben, cara, dan, eve, finn = world.members[:6]
    cancelled, emptied, ended, started, still_open = (
        world.channel,
        *(world.guild.create_text_channel(f"uno-{n}") for n in (2, 3, 4, 5)),
    )
    await anna.slash(cancelled, "uno flip start")
    await anna.click(cancelled.last_message, label="Cancel")
    await ben.slash(emptied, "uno flip start")
    await ben.click(emptied.last_message, label="Leave")
    await cara.slash(ended, "uno classic start")
    await cara.slash(ended, "uno end")
    await dan.slash(started, "uno classic start")
    await eve.click(started.last_message, label="Join")
    await dan.click(started.last_message, label="Start")
    await finn.slash(still_open, "uno flip start")
    assert [channel for channel, _ in lobbies_in_db(settings)] == [still_open.id]
    await restart(world, settings)
    sessions = world.bot.sessions.by_channel
    assert sorted(sessions) == sorted([started.id, still_open.id])
    assert (
        sessions[started.id].state.game is not None and sessions[still_open.id].state.game is None
    )


async def test_a_lobby_closed_after_its_message_was_deleted_stays_closed(
    world: World, settings: Settings
) -> None:
    """Ending a lobby whose message is gone posts the notice anew but never saves it again."""
    cleaners = world.guild.create_role(
        "Cleaners", permissions=discord.Permissions(manage_messages=True)
    )
    cleaner = world.guild.add_member(world.env.create_user("cleaner"), roles=[cleaners])
    await world.members[0].slash(world.channel, "uno flip start")
    await cleaner.delete(world.channel.last_message)
    await world.members[0].slash(world.channel, "uno end")
    assert "ended the game" in embed_text(world.channel.last_message)
    assert lobbies_in_db(settings) == []
    await restart(world, settings)
    assert world.channel.id not in world.bot.sessions.by_channel


async def test_a_lobby_row_beside_a_live_game_is_dropped(world: World, settings: Settings) -> None:
    """A channel saved as both lobby and game comes back as the game; the lobby row goes."""
    table = Table(world, 2)
    await table.open()
    with sqlite3.connect(settings.db_path) as db:
        saved = db.execute("SELECT * FROM lobbies").fetchone()
    await table.players[0].click(table.public, label="Start")
    with sqlite3.connect(settings.db_path) as db:
        db.execute("INSERT INTO lobbies VALUES (?, ?, ?, ?, ?)", saved)
    await restart(world, settings)
    restored = world.bot.sessions.by_channel[world.channel.id]
    assert restored.state.game is not None and "Hand" in labels(table.public)
    assert lobbies_in_db(settings) == []


async def test_an_unreadable_lobby_is_dropped_and_its_buttons_still_answer(
    world: World, settings: Settings
) -> None:
    """A lobby that cannot be read is dropped; others come back; its Join says how to restart."""
    other = world.guild.create_text_channel("uno-2")
    await world.members[0].slash(world.channel, "uno classic start")
    broken = world.channel.last_message
    await world.members[1].slash(other, "uno flip start")
    with sqlite3.connect(settings.db_path) as db:
        db.execute(
            "UPDATE lobbies SET lobby_json = '{broken' WHERE channel_id = ?", (world.channel.id,)
        )
    await restart(world, settings)
    assert list(world.bot.sessions.by_channel) == [other.id]
    assert lobbies_in_db(settings) == [(other.id, world.bot.sessions.by_channel[other.id].id)]
    answer = await world.members[2].click(broken, label="Join")
    stale = t(ENGLISH, STALE_CLICK)
    assert answer.ephemeral and answer.response.content == stale
    assert "/uno flip start" in stale and "/uno classic start" in stale


async def test_a_locked_database_does_not_break_the_lobby(world: World, settings: Settings) -> None:
    """While another process holds the database a Join still works; the next change saves it."""
    table = Table(world, 1)
    await table.open()
    store = world.bot.store
    store.database.retry = RetryPolicy(attempts=1)  # give up at once instead of backing off
    await execute(store.database.connection, "PRAGMA busy_timeout = 0")
    blocker = sqlite3.connect(settings.db_path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        joined = await world.members[1].click(table.public, label="Join")
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert not joined.ephemeral and "2. ben" in embed_text(table.public)
    assert saved_lobby_players(settings) == ["anna"]
    await world.members[2].click(table.public, label="Join")
    assert saved_lobby_players(settings) == ["anna", "ben", "cara"]


async def test_a_failing_disk_never_costs_the_move_or_the_game(
    world: World, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An I/O error on save: the click is answered as usual and the game goes on in memory;
    the next save writes the whole state, and a restart brings back the latest move."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["R5 R6 R7", "R1 R2 R3"], top="R9", current=0)
    await table.save_now()
    anna, ben = table.game.players
    write_snapshot = snapshots.write_snapshot

    async def broken_disk(*args: Any) -> bool:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(snapshots, "write_snapshot", broken_disk)
    hand = await table.hand(anna)
    played = await table.press(
        anna, hand, next(b.code for b in buttons(hand) if b.label == "Red 5")
    )
    assert "Something went wrong" not in (played.response.content or "")
    assert table.game.top_face().name() == "Red 5"

    monkeypatch.setattr(snapshots, "write_snapshot", write_snapshot)
    hand = await table.hand(ben)
    await table.press(ben, hand, next(b.code for b in buttons(hand) if b.label == "Red 1"))
    before = dump_state(table.game)
    await restart(world, settings)
    table.forget_session()
    assert dump_state(table.game) == before


@pytest.mark.parametrize(("setting", "pragma"), [("NORMAL", 1), ("FULL", 2)])
async def test_the_store_opens_with_the_chosen_durability(
    world: World, settings: Settings, setting: str, pragma: int
) -> None:
    """db_synchronous reaches SQLite: FULL syncs every write to disk (survives a power cut)."""
    chosen = settings.model_copy(update={"db_synchronous": setting})
    bot = await restart(world, chosen)
    cursor = await bot.store.database.connection.execute("PRAGMA synchronous")
    assert tuple(await cursor.fetchone()) == (pragma,)
