"""Copying a SQLite store into PostgreSQL: the same answers after the move, nothing mixed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.store import Store
from bot.store.migrate_to_postgres import main
from bot.store.postgres import mask_password

from .conftest import TEST_POOL
from .factories import ANNA, BEN, CARL, GUILD, OTHER_GUILD, new_game, standard_round
from .test_history import keep


async def history(store: Store) -> None:
    """A finished game, a live game with a snapshot in another server, and an open lobby."""
    finished = await new_game(store, (ANNA, BEN, CARL))
    await store.games.record_round(finished.id, standard_round(1, BEN, {ANNA: 9, BEN: 0}))
    await store.games.record_round(
        finished.id, standard_round(2, ANNA, {ANNA: 0, CARL: 600}, match_winner=ANNA)
    )
    live = await new_game(store, (BEN, CARL), guild_id=OTHER_GUILD, variant="classic")
    await store.games.record_round(live.id, standard_round(1, CARL, {BEN: 40, CARL: 0}))
    await store.snapshots.save_snapshot(live.id, '{"turn": 7}', '{"ui": 1}')
    await store.lobbies.save(77, "lobby1", GUILD, '{"seats": 2}')


async def answers(store: Store) -> tuple[object, ...]:
    """What the bot would show from this store: boards, ranks, stats, live games, lobbies."""
    boards = [
        await store.standings.leaderboard(scope=scope, guild_id=GUILD, sort=sort)
        for scope in ("guild", "global")
        for sort in ("points", "matches_won", "rounds_won")
    ]
    stats = [await store.standings.stats(p, g) for p in (ANNA, BEN, CARL) for g in (GUILD, None)]
    live = [(g.game, g.state_json, g.ui_json) for g in await store.snapshots.load_live_games()]
    lobbies = [(lobby.channel_id, lobby.lobby_json) for lobby in await store.lobbies.load_all()]
    return boards, stats, live, lobbies


async def test_copy_gives_the_same_answers_and_new_ids_continue(
    db_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Leaderboards, stats, live games and lobbies read the same; the next game gets a new id."""
    source = await Store.open(db_path)
    await history(source)
    before = await answers(source)
    await source.close()

    assert await asyncio.to_thread(main, [str(db_path), pg_url]) == 0
    assert "round_scores: 6 rows" in capsys.readouterr().out

    copied = await Store.open_postgres(pg_url, TEST_POOL)
    try:
        assert await answers(copied) == before
        fresh = await new_game(copied)
        assert fresh.id == 3
    finally:
        await copied.close()


async def test_copy_into_a_database_with_data_is_refused(
    db_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A second copy into the same database fails with one line and changes nothing."""
    source = await Store.open(db_path)
    await history(source)
    await source.close()
    assert await asyncio.to_thread(main, [str(db_path), pg_url]) == 0
    assert await asyncio.to_thread(main, [str(db_path), pg_url]) == 1
    assert "already holds players" in capsys.readouterr().err
    copied = await Store.open_postgres(pg_url, TEST_POOL)
    try:
        assert len((await copied.standings.leaderboard(scope="global")).rows) == 3
    finally:
        await copied.close()


def test_missing_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A SQLite path that does not exist is reported, not created."""
    missing = tmp_path / "none.db"
    assert main([str(missing), "postgresql://postgres@127.0.0.1:9/none"]) == 1
    assert "no SQLite database" in capsys.readouterr().err
    assert not missing.exists()


async def test_the_final_line_masks_the_password(
    db_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The URL given with a password is echoed with ``***`` in its place, never the secret."""
    await (await Store.open(db_path)).close()
    with_password = pg_url.replace("postgres@", "postgres:s3cret-Pw0rd@", 1)
    assert with_password != pg_url
    assert await asyncio.to_thread(main, [str(db_path), with_password]) == 0
    printed = capsys.readouterr()
    assert "s3cret-Pw0rd" not in printed.out + printed.err
    assert "postgresql://postgres:***@" in printed.out


def test_mask_password_keeps_everything_but_the_password() -> None:
    """User, server, port and database stay; a URL without a password is unchanged."""
    url = "postgresql://uno:pa%40ss:w@db.example:6432/uno?sslmode=require"
    assert mask_password(url) == "postgresql://uno:***@db.example:6432/uno?sslmode=require"
    assert mask_password("postgresql://uno@db/uno") == "postgresql://uno@db/uno"


async def test_the_match_history_is_copied(db_path: Path, pg_url: str) -> None:
    """A kept match reads the same after the copy, moves and all."""
    source = await Store.open(db_path)
    game_id = await keep(source)
    before = await source.history.match(game_id)
    await source.close()
    assert await asyncio.to_thread(main, [str(db_path), pg_url]) == 0
    copied = await Store.open_postgres(pg_url, TEST_POOL)
    try:
        assert await copied.history.match(game_id) == before
    finally:
        await copied.close()
