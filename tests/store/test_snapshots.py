"""Live-game snapshots: saved on every move, restored at start-up."""

from __future__ import annotations

from pathlib import Path

from bot.store import Store

from .factories import ANNA, BEN, CARL, new_game, standard_round


async def test_saved_snapshot_is_loaded_with_its_game(store: Store) -> None:
    """load_live_games returns the state, the UI blob and the seats of a live game."""
    game = await new_game(store, (ANNA, BEN, CARL))
    await store.snapshots.save_snapshot(game.id, '{"turn": 1}', '{"table": 555}')
    (live,) = await store.snapshots.load_live_games()
    assert (live.game.id, live.state_json) == (game.id, '{"turn": 1}')
    assert live.ui_json == '{"table": 555}'
    assert [p.name for p in live.game.players] == ["Anna", "Ben", "Carl"]


async def test_later_snapshot_replaces_the_earlier(store: Store) -> None:
    """Each save overwrites the game's one snapshot."""
    game = await new_game(store)
    await store.snapshots.save_snapshot(game.id, '{"turn": 1}', "{}")
    await store.snapshots.save_snapshot(game.id, '{"turn": 2}', '{"hand": 9}')
    (live,) = await store.snapshots.load_live_games()
    assert (live.state_json, live.ui_json) == ('{"turn": 2}', '{"hand": 9}')


async def test_finished_and_abandoned_games_are_not_restored(store: Store) -> None:
    """Only live games come back at start-up."""
    finished, abandoned, live = [await new_game(store) for _ in range(3)]
    for game in (finished, abandoned, live):
        await store.snapshots.save_snapshot(game.id, "{}", "{}")
    await store.games.record_round(
        finished.id, standard_round(1, ANNA, {ANNA: 0, BEN: 600}, match_winner=ANNA)
    )
    await store.games.abandon_game(abandoned.id)
    assert [g.game.id for g in await store.snapshots.load_live_games()] == [live.id]


async def test_snapshot_of_a_closed_game_is_not_written(store: Store) -> None:
    """A late save for an abandoned game returns False and does not revive it."""
    game = await new_game(store)
    await store.games.abandon_game(game.id)
    assert not await store.snapshots.save_snapshot(game.id, "{}", "{}")
    assert await store.snapshots.load_live_games() == []


async def test_live_game_without_a_snapshot_is_listed_without_state(store: Store) -> None:
    """A game that never saved a state is listed with None so the bot can end it."""
    game = await new_game(store)
    (live,) = await store.snapshots.load_live_games()
    assert live.game.id == game.id
    assert (live.state_json, live.ui_json, live.saved_at) == (None, None, None)


async def test_snapshot_survives_reopening_the_file(file_store: Store, db_path: Path) -> None:
    """A snapshot written before close is there after a new Store opens the same file."""
    game = await new_game(file_store)
    await file_store.snapshots.save_snapshot(game.id, '{"turn": 3}', "{}")
    reopened = await Store.open(db_path)
    try:
        (live,) = await reopened.snapshots.load_live_games()
    finally:
        await reopened.close()
    assert live.state_json == '{"turn": 3}'
