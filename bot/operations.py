"""The host's maintenance commands beside running the bot: ``unoflip backup`` and
``unoflip forget`` (bot/__main__.py parses the command line)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from urllib.parse import quote

from .store import open_store
from .store.store import is_postgres_url, sqlite_path


class OperationError(Exception):
    """A maintenance command cannot do what was asked; the message is one line."""


def backup_sqlite(store_url: str, destination: Path) -> int:
    """Copy the SQLite store to ``destination`` with SQLite's online backup; its size in bytes.

    Safe while the bot runs: the copy is one consistent state (a read transaction, which never
    blocks the bot's writes in WAL mode). It is written beside ``destination`` and renamed into
    place, so a failed backup never leaves half a file under the name.
    """
    if is_postgres_url(store_url):
        raise OperationError(
            "the store is PostgreSQL: back it up with pg_dump (see docs/operations.md)"
        )
    source_path = Path(sqlite_path(store_url))
    if not source_path.is_file():
        raise OperationError(f"no SQLite database at {source_path}")
    if destination.exists():
        raise OperationError(f"{destination} already exists; name a new file")
    partial = destination.with_name(destination.name + ".partial")
    try:
        source = sqlite3.connect(f"file:{quote(str(source_path.resolve()))}?mode=ro", uri=True)
        try:
            target = sqlite3.connect(partial)
            try:
                source.backup(target)
            finally:
                target.close()
        finally:
            source.close()
        os.replace(partial, destination)
    except (sqlite3.Error, OSError) as error:
        partial.unlink(missing_ok=True)
        raise OperationError(f"backup to {destination} failed: {error}") from None
    return destination.stat().st_size


async def forget_player(store_url: str, player_id: int) -> int:
    """Erase ``player_id``'s standings and stats in the store at ``store_url``; rows erased."""
    store = await open_store(store_url)
    try:
        return await store.standings.forget(player_id)
    finally:
        await store.close()
