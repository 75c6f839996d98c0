"""A game and a lobby saved by the bot before the table redesign still come back.

``data/saved_before_redesign.json`` holds the rows that version wrote (engine state, the ``ui``
blob of a running game, an open lobby). Only the Discord ids are mapped onto this test's
simulated server; the saved text is otherwise used as it was written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.client import UnoBot
from bot.config import Settings
from bot.store import Store

from .conftest import World
from .driver import embed_text, labels

SAVED = json.loads((Path(__file__).parent / "data" / "saved_before_redesign.json").read_text())
OLD_IDS = ["100000000000000001", "100000000000000002", "100000000000000003"]


def moved(text: str, world: World, channel_id: int) -> str:
    """A saved JSON text with the old server's ids replaced by this world's."""
    for old, member in zip(OLD_IDS, world.members, strict=False):
        text = text.replace(old, str(member.id))
    data = json.loads(text)
    if "guild_id" in data:
        data["guild_id"], data["channel_id"] = world.guild.id, channel_id
    return json.dumps(data)


async def write_old_rows(world: World, settings: Settings, lobby_channel: Any) -> None:
    """Put the old version's rows into the bot's database, as that version left them."""
    game, lobby = SAVED["game"], SAVED["lobby"]
    players = [
        (world.members[i].id if player_id > 0 else player_id, name)
        for i, (player_id, name) in enumerate(game["players"])
    ]
    store = await Store.open(settings.db_path)
    try:
        await store.games.create_game(
            world.guild.id,
            world.channel.id,
            game["variant"],
            game["rules_json"],
            players,
            snapshot=(
                moved(game["state_json"], world, world.channel.id),
                moved(game["ui_json"], world, world.channel.id),
            ),
        )
        await store.lobbies.save(
            lobby_channel.id,
            lobby["session_id"],
            world.guild.id,
            moved(lobby["lobby_json"], world, lobby_channel.id),
        )
    finally:
        await store.close()


async def test_a_game_and_a_lobby_saved_before_the_redesign_resume(
    world: World, settings: Settings
) -> None:
    """The old rows restore: the game's seats, turn serial and hands, the lobby's computer
    player and house rules, and both answer clicks on their new messages."""
    lobby_channel = world.guild.create_text_channel("uno-lobby")
    await write_old_rows(world, settings, lobby_channel)
    await world.env.restart_bot(UnoBot(settings, shard_count=1))
    sessions = world.bot.sessions.by_channel

    game_session = sessions[world.channel.id]
    state = game_session.state
    # At least the saved turn: a computer player whose turn it was may have moved since.
    assert state.id == "0ld5e55" and state.serial >= SAVED["game"]["serial"]
    assert [s.name for s in state.seats] == ["anna", "ben", "AI Anna (hard)"]
    assert state.game is not None and len(state.game.players) == 3
    assert state.options.language == "en"  # saved before tables had a language: English, as then
    # Saved before tables had pictures and a palette: the defaults.
    assert state.options.pictures is True and state.options.palette == "standard"
    table = world.channel.last_message
    # Told in the events (beside the picture only the newest that fit a phone are shown, and
    # the computer player may have moved since).
    assert "The bot restarted" in "\n".join(state.log)
    anna = world.members[0]
    hand = await anna.click(table, label="Hand")
    assert hand.ephemeral and "Your hand" in embed_text(hand.response)

    lobby = sessions[lobby_channel.id].state
    assert lobby.game is None and lobby.rules.stacking and lobby.options.turn_timeout == 45
    assert [s.name for s in lobby.seats] == ["cara", "AI Anna (easy)"]
    assert lobby.options.language == "en"
    message = lobby_channel.last_message
    assert "Join" in labels(message)
    await world.members[3].click(message, label="Join")
    assert "3. dan" in embed_text(lobby_channel.last_message)
