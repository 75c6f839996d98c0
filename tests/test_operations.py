"""``unoflip backup`` and ``unoflip forget``: the host's maintenance commands."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import cli
from bot.store import Store

from .store.factories import ANNA, BEN, GUILD, new_game, standard_round


async def a_played_store(path: Path) -> Store:
    """A SQLite store at ``path`` with one finished game of Anna and Ben, left open."""
    store = await Store.open(path)
    game = await new_game(store, (ANNA, BEN))
    await store.games.record_round(
        game.id, standard_round(1, ANNA, {ANNA: 0, BEN: 30}, match_winner=ANNA)
    )
    await store.games.finish_game(game.id, ANNA)
    return store


def rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    """The rows of one query on the SQLite file at ``path``."""
    connection = sqlite3.connect(path)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


async def test_backup_copies_the_live_database_while_the_bot_has_it_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With the store open (the bot running), the backup holds every row written so far."""
    store = await a_played_store(tmp_path / "uno.db")
    try:
        assert cli(["backup", str(tmp_path / "copy.db"), "--db", str(tmp_path / "uno.db")]) == 0
    finally:
        await store.close()
    assert "backed up SQLite file" in capsys.readouterr().out
    assert rows(tmp_path / "copy.db", "SELECT player_id, points FROM player_totals") != []
    assert rows(tmp_path / "copy.db", "PRAGMA integrity_check") == [("ok",)]
    assert not (tmp_path / "copy.db.partial").exists()


def test_backup_never_overwrites_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An existing destination is refused with one line, and left as it was."""
    sqlite3.connect(tmp_path / "uno.db").close()
    (tmp_path / "copy.db").write_text("keep me")
    assert cli(["backup", str(tmp_path / "copy.db"), "--db", str(tmp_path / "uno.db")]) == 2
    assert "already exists" in capsys.readouterr().err
    assert (tmp_path / "copy.db").read_text() == "keep me"


def test_backup_of_postgresql_points_to_pg_dump(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PostgreSQL has its own backup tool; the command says so instead of trying."""
    url = "postgresql://uno@127.0.0.1:9/uno"
    assert cli(["backup", str(tmp_path / "copy.db"), "--db", url]) == 2
    assert "pg_dump" in capsys.readouterr().err


async def test_forget_erases_a_players_standings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``unoflip forget USER_ID`` leaves no totals and no name for that player."""
    await (await a_played_store(tmp_path / "uno.db")).close()
    forget = ["forget", str(ANNA), "--db", str(tmp_path / "uno.db")]
    assert await asyncio.to_thread(cli, forget) == 0
    assert f"forgot player {ANNA}" in capsys.readouterr().out
    store = await Store.open(tmp_path / "uno.db")
    try:
        assert await store.standings.rank_of(ANNA, guild_id=GUILD) is None
        assert (await store.standings.rank_of(BEN, guild_id=GUILD)) is not None
    finally:
        await store.close()
