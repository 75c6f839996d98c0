"""Start-up checks of the database file, run before logging in so a bad one fails at once.

Each problem a host can meet (a folder where the file should be, a file where a folder should
be, a folder this user cannot write, a corrupt file, a full disk, a file from a newer version)
becomes one line naming the setting, the path and what to do, instead of a traceback on every
start of a restart loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import shutil
import sqlite3
import time
from pathlib import Path
from urllib.parse import quote

from .config import Settings
from .store import ConnectionSettings, PostgresSettings, Store
from .store.errors import SchemaTooNewError, StoreError, StoreUnavailableError
from .store.shards import ClusterShapeError, ShardTakenError
from .store.store import describe_url, is_postgres_url, open_store, sqlite_path

SIDE_FILES = ("-wal", "-shm", "-journal")
"""The files SQLite keeps beside the database."""
LOW_SPACE = 1 << 20
"""Below this many free bytes a failed write is reported as a full disk."""
STORE_RETRY_DELAYS: tuple[float, ...] = (1, 2, 4, 8, 16, 32)
"""Seconds to wait after each failed attempt to reach PostgreSQL at start-up (as for Discord):
about a minute in all, through a server restart or a database container still starting."""

log = logging.getLogger(__name__)


class CorruptDatabaseError(Exception):
    """SQLite's own check found the database file damaged."""


class StartupError(Exception):
    """The bot cannot start (or go on); the message is one line, ``status`` the exit status."""

    def __init__(self, message: str, status: int = 2) -> None:
        """A start-up failure reported as ``message`` with exit status ``status``."""
        super().__init__(message)
        self.status = status


def nearest_folder(path: Path) -> Path:
    """The closest existing ancestor of ``path``: where its file or folders would be made."""
    folder = path.parent
    while not folder.exists():
        folder = folder.parent
    return folder


def check_database_path(path: Path, label: str) -> None:
    """Refuse a path SQLite cannot use, without creating or opening anything."""
    if path.is_dir():
        raise StartupError(f"{label} is {path}, which is a directory; name a file in it")
    if path.exists() and not path.is_file():
        raise StartupError(f"{label} is {path}, which is not a regular file")
    folder = nearest_folder(path)
    if not folder.is_dir():
        raise StartupError(f"{label} is {path}, but {folder} is a file, not a folder")
    # SQLite writes its -wal and -shm files beside the database, so the folder must be writable
    # as well as the file itself.
    if os.statvfs(folder).f_flag & os.ST_RDONLY:
        raise StartupError(f"{label} is {path}, but {folder} is on a read-only file system")
    for needed in (folder, path) if path.exists() else (folder,):
        mode = os.R_OK | os.W_OK | (os.X_OK if needed.is_dir() else 0)
        if not os.access(needed, mode):
            raise StartupError(
                f"{label} is {path}, but this user (uid {os.getuid()}) cannot write to "
                f"{needed} (owned by uid {needed.stat().st_uid}); give it to uid {os.getuid()}"
            )


def check_integrity(path: Path) -> None:
    """Raise CorruptDatabaseError (or sqlite3's own error) when ``path`` is not a sound database."""
    clean = not any(Path(f"{path}{suffix}").exists() for suffix in SIDE_FILES)
    # Read-only, and when no -wal or -shm file exists "immutable": SQLite then creates neither,
    # so the check leaves the folder exactly as it found it.
    options = "mode=ro&immutable=1" if clean else "mode=ro"
    connection = sqlite3.connect(f"file:{quote(str(path.resolve()))}?{options}", uri=True)
    try:
        (result,) = connection.execute("PRAGMA quick_check(1)").fetchone()
    finally:
        connection.close()
    if result != "ok":
        raise CorruptDatabaseError(" ".join(str(result).split()))


def describe_database_error(exc: BaseException, path: Path, label: str) -> str:
    """One line saying what is wrong with the database at ``path`` and what to do."""
    name = getattr(exc, "sqlite_errorname", "")
    reason = " ".join(str(exc).split())
    if isinstance(exc, SchemaTooNewError):
        return f"{label}: {path} was written by a newer unoflip ({reason}); upgrade the bot"
    if isinstance(exc, CorruptDatabaseError) or name in ("SQLITE_NOTADB", "SQLITE_CORRUPT"):
        return (
            f"{label}: {path} is corrupt ({reason}); it was left untouched: move it aside "
            f"(mv {path} {path}.corrupt) to start with an empty database, or restore a backup"
        )
    free = shutil.disk_usage(nearest_folder(path)).free
    if (
        name == "SQLITE_FULL"
        or getattr(exc, "errno", None) == errno.ENOSPC
        or (name.startswith("SQLITE_IOERR") and free < LOW_SPACE)
    ):
        return (
            f"{label}: the disk holding {path} is full ({free // 1024} KiB free); "
            "free some space and start again"
        )
    if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM")) or isinstance(
        exc, PermissionError
    ):
        return f"{label}: cannot write to {path} ({reason})"
    return f"{label}: cannot use {path} ({reason})"


def one_line(exc: BaseException) -> str:
    """An exception as one short line: its message, or its type when it has none."""
    return " ".join(str(exc).split()) or type(exc).__name__


def sqlite_label(settings: Settings) -> str:
    """The setting that names the SQLite file: db_url when set, else db_path."""
    return settings.label("db_url" if settings.db_url else "db_path")


def uses_postgres(settings: Settings) -> bool:
    """Whether the store is a PostgreSQL server rather than a SQLite file."""
    return is_postgres_url(settings.store_url)


def describe_store_error(exc: BaseException, settings: Settings) -> str:
    """One line for a store that failed at start-up, naming the setting that chose it."""
    reason = one_line(exc)
    if isinstance(exc, ShardTakenError):
        return f"{settings.label('shard_ids')}: {reason}"  # it says what to do
    if isinstance(exc, ClusterShapeError):
        return f"{settings.label('shard_count')}: {reason}"  # it says what to do
    if uses_postgres(settings):
        where = describe_url(settings.store_url)
        return f"{settings.label('db_url')}: cannot use {where} ({reason})"
    return describe_database_error(
        exc, Path(sqlite_path(settings.store_url)), sqlite_label(settings)
    )


def postgres_settings(settings: Settings) -> PostgresSettings:
    """The PostgreSQL pool the settings ask for."""
    return PostgresSettings(
        min_size=settings.db_pool_min,
        max_size=settings.db_pool_max,
        command_timeout=settings.db_command_timeout,
    )


async def _check_postgres(settings: Settings) -> None:
    """Open and close the PostgreSQL store once (its migrations run then), retrying while the
    server cannot be reached as a start-up retries Discord: one line per failed attempt."""
    started = time.monotonic()
    attempts = len(STORE_RETRY_DELAYS) + 1
    for attempt in range(1, attempts + 1):
        try:
            store = await open_store(settings.store_url, postgres=postgres_settings(settings))
            await store.close()
            return
        except StoreUnavailableError as exc:
            if attempt == attempts:
                raise StartupError(
                    f"{settings.label('db_url')}: cannot reach "
                    f"{describe_url(settings.store_url)} after {attempts} attempts in "
                    f"{time.monotonic() - started:.0f} s: {one_line(exc)}",
                    status=1,
                ) from None
            delay = STORE_RETRY_DELAYS[attempt - 1]
            log.warning(
                "cannot reach %s (attempt %d of %d): %s; retrying in %g s",
                describe_url(settings.store_url),
                attempt,
                attempts,
                one_line(exc),
                delay,
            )
            await asyncio.sleep(delay)
        except Exception as exc:  # a bad URL or password, a missing database: one line
            raise StartupError(describe_store_error(exc, settings)) from None


async def check_database(settings: Settings) -> None:
    """Open the database the way the bot will, or raise StartupError with one line.

    The folder is left as it was found, whatever the outcome: a database, side file or folder
    this check created is removed again (the bot creates them for good once logged in), and a
    corrupt file is only read. A PostgreSQL store is opened and closed once (its migrations run
    then, under their lock).
    """
    if uses_postgres(settings):
        await _check_postgres(settings)
        return
    path = Path(sqlite_path(settings.store_url))
    if str(path) == ":memory:":
        return
    label = sqlite_label(settings)
    check_database_path(path, label)
    existed = path.exists()
    side_files = [Path(f"{path}{suffix}") for suffix in SIDE_FILES]
    existing_side_files = {side for side in side_files if side.exists()}
    new_folders = [folder for folder in (path.parent, *path.parent.parents) if not folder.exists()]
    try:
        if existed:
            check_integrity(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        store = await Store.open(path, ConnectionSettings(synchronous=settings.db_synchronous))
        await store.close()
    except (sqlite3.Error, StoreError, OSError, CorruptDatabaseError) as exc:
        raise StartupError(describe_database_error(exc, path, label)) from None
    finally:
        for leftover in [*side_files, *([] if existed else [path])]:
            if leftover not in existing_side_files:
                leftover.unlink(missing_ok=True)
        for folder in new_folders:
            with contextlib.suppress(OSError):
                folder.rmdir()
