"""Open lobbies: saved on every change, one per channel, ended by closing or by their game."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import Store, StoreIOError
from bot.store.connection import execute

from .factories import ANNA, BEN, CHANNEL, GUILD

OTHER_CHANNEL = 43


async def start_game(store: Store, session_id: str) -> int:
    """Create the game of the channel's lobby, as the bot does when the host presses Start."""
    game = await store.games.create_game(
        GUILD,
        CHANNEL,
        "flip",
        "{}",
        [(ANNA, "Anna"), (BEN, "Ben")],
        snapshot=('{"turn": 0}', '{"ui": 1}'),
        lobby_session_id=session_id,
    )
    return game.id


async def test_saved_lobby_is_loaded_with_its_ids(store: Store) -> None:
    """load_all returns the channel, session, guild and blob of every saved lobby."""
    await store.lobbies.save(CHANNEL, "a1", GUILD, '{"seats": 2}')
    (lobby,) = await store.lobbies.load_all()
    assert (lobby.channel_id, lobby.session_id, lobby.guild_id) == (CHANNEL, "a1", GUILD)
    assert lobby.lobby_json == '{"seats": 2}'
    assert lobby.saved_at.tzinfo is not None


async def test_a_later_save_replaces_the_channels_lobby(store: Store) -> None:
    """A channel keeps one lobby: each save overwrites it, whichever session saved it."""
    await store.lobbies.save(CHANNEL, "a1", GUILD, '{"seats": 1}')
    await store.lobbies.save(CHANNEL, "a1", GUILD, '{"seats": 2}')
    await store.lobbies.save(CHANNEL, "b2", GUILD, '{"seats": 3}')
    await store.lobbies.save(OTHER_CHANNEL, "c3", GUILD, '{"seats": 4}')
    lobbies = {lobby.channel_id: lobby for lobby in await store.lobbies.load_all()}
    assert (lobbies[CHANNEL].session_id, lobbies[CHANNEL].lobby_json) == ("b2", '{"seats": 3}')
    assert lobbies[OTHER_CHANNEL].session_id == "c3"


async def test_delete_removes_only_that_sessions_lobby(store: Store) -> None:
    """A late delete from an older lobby leaves the channel's newer lobby saved."""
    await store.lobbies.save(CHANNEL, "new", GUILD, "{}")
    assert not await store.lobbies.delete(CHANNEL, "old")
    assert [lobby.session_id for lobby in await store.lobbies.load_all()] == ["new"]
    assert await store.lobbies.delete(CHANNEL, "new")
    assert await store.lobbies.load_all() == []


async def test_creating_the_game_ends_its_lobby(store: Store) -> None:
    """The game's row, its first snapshot and the end of its lobby come in one write."""
    await store.lobbies.save(CHANNEL, "a1", GUILD, "{}")
    await store.lobbies.save(OTHER_CHANNEL, "b2", GUILD, "{}")
    game_id = await start_game(store, "a1")
    assert [lobby.session_id for lobby in await store.lobbies.load_all()] == ["b2"]
    (live,) = await store.snapshots.load_live_games()
    assert (live.game.id, live.state_json, live.ui_json) == (game_id, '{"turn": 0}', '{"ui": 1}')


async def test_a_failed_game_creation_keeps_the_lobby(sqlite_store: Store) -> None:
    """A failure at the last step (the lobby's row already deleted) undoes the whole write."""
    await sqlite_store.lobbies.save(CHANNEL, "a1", GUILD, "{}")
    await execute(
        sqlite_store.database.connection,
        "CREATE TEMP TRIGGER full_disk AFTER DELETE ON lobbies"
        " BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    )
    with pytest.raises(StoreIOError):
        await start_game(sqlite_store, "a1")
    assert [lobby.session_id for lobby in await sqlite_store.lobbies.load_all()] == ["a1"]
    assert await sqlite_store.snapshots.load_live_games() == []


async def test_lobby_survives_reopening_the_file(file_store: Store, db_path: Path) -> None:
    """A lobby saved before close is there after a new Store opens the same file."""
    await file_store.lobbies.save(CHANNEL, "a1", GUILD, '{"seats": 2}')
    reopened = await Store.open(db_path)
    try:
        (lobby,) = await reopened.lobbies.load_all()
    finally:
        await reopened.close()
    assert lobby.lobby_json == '{"seats": 2}'
