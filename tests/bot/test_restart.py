"""Games survive a restart: saved every move, restored with their buttons and timers."""

from __future__ import annotations

import random
import sqlite3
from typing import Any

from bot.client import UnoBot
from bot.config import Settings
from bot.engine import Phase

from .conftest import World
from .driver import Table, buttons, embed_text, labels, rig


def rounds_in_db(settings: Settings) -> list[tuple[int, int]]:
    """(game id, round number) of every recorded round, read straight from the file."""
    with sqlite3.connect(settings.db_path) as db:
        return db.execute(
            "SELECT game_id, round_no FROM rounds ORDER BY game_id, round_no"
        ).fetchall()


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
    before = table.game.to_dict()
    old_table = table.public

    await restart(world, settings)

    restored = world.bot.sessions.by_channel[world.channel.id]
    assert restored.game is not None and restored.game.to_dict() == before
    assert "The bot restarted" in embed_text(table.public)
    code = next(b.code for b in buttons(hand_ben) if b.label == "Red 1")
    await table.actor(ben).click(
        hand_ben, custom_id=next(b.custom_id for b in buttons(hand_ben) if b.code == code)
    )
    assert restored.game.top_face().name() == "Red 1"
    again = await table.actor(anna).click(old_table, label="Hand")
    assert again.ephemeral and "2 cards" in embed_text(again.response)


async def test_turn_timer_resumes_after_a_restart(world: World, settings: Settings) -> None:
    """A player who left before the restart still times out afterwards."""
    table = Table(world, 2)
    await table.start("uno classic start")
    rig(table, ["R5 R6 R7", "G1 G2 G3"], top="B9", current=0)
    await table.save_now()
    await restart(world, settings)
    await world.env.advance_time(61)
    game = world.bot.sessions.by_channel[world.channel.id].game
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
    await world.bot.sessions.by_channel[world.channel.id].save()
    assert [r for _, r in rounds_in_db(settings)] == [1]
    await table.players[1].click(table.public, label="Next round")
    assert world.bot.sessions.by_channel[world.channel.id].game.round_no == 2  # type: ignore[union-attr]


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
    broken = world.bot.sessions.by_channel[world.channel.id].db_game_id
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
