"""Numbered SQL migrations (``migrations/NNNN_name.sql``) and the schema_version table."""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass
from importlib import resources

import aiosqlite

from .backend import Dialect
from .connection import execute
from .errors import SchemaTooNewError

_FILE_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered SQL file."""

    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The file split into complete SQL statements (triggers stay whole)."""
        statements: list[str] = []
        pending = ""
        for line in self.sql.splitlines(keepends=True):
            pending += line
            if sqlite3.complete_statement(pending):
                if _strip_comments(pending):
                    statements.append(pending.strip())
                pending = ""
        if _strip_comments(pending):
            raise ValueError(f"migration {self.name} ends inside a statement")
        return statements


def _strip_comments(sql: str) -> str:
    lines = (line.split("--", 1)[0] for line in sql.splitlines())
    return "".join(lines).strip().rstrip(";").strip()


def load_migrations(dialect: Dialect = "sqlite") -> list[Migration]:
    """Every shipped migration of one backend, in version order; numbers run 1, 2, 3, ...

    SQLite's files are in ``migrations/``, PostgreSQL's (same numbers and names, its own
    dialect) in ``migrations/postgres/``.
    """
    folder = resources.files("bot.store").joinpath("migrations")
    if dialect == "postgres":
        folder = folder.joinpath("postgres")
    migrations = []
    for entry in folder.iterdir():
        match = _FILE_NAME.match(entry.name)
        if match:
            migrations.append(Migration(int(match[1]), entry.name, entry.read_text("utf-8")))
    migrations.sort(key=lambda migration: migration.version)
    versions = [migration.version for migration in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise ValueError(f"migration numbers must be 1..n without gaps, got {versions}")
    return migrations


LATEST_VERSION = len(load_migrations())


async def schema_version(connection: aiosqlite.Connection) -> int:
    """The version the database is at; 0 for an empty database."""
    await execute(
        connection,
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
    )
    async with connection.execute("SELECT MAX(version) FROM schema_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row is not None and row[0] is not None else 0


async def migrate(connection: aiosqlite.Connection, target: int | None = None) -> int:
    """Apply every migration above the current version up to ``target``; return the version.

    Each migration runs in its own transaction together with its schema_version row, so a
    failure leaves the database at the previous version. The connection must be in autocommit
    mode (``isolation_level=None``) and not inside a transaction.

    Foreign keys are off while migrations run, as SQLite's table-rebuild procedure needs
    (dropping a rebuilt parent table would otherwise check, and fail, every row pointing at
    it), and every foreign key is checked before each migration commits.
    """
    migrations = load_migrations()
    target = len(migrations) if target is None else target
    current = await schema_version(connection)
    if current > len(migrations):
        raise SchemaTooNewError(
            f"database schema is version {current}; this bot knows up to {len(migrations)}"
        )
    foreign_keys = await _foreign_keys(connection)
    await execute(connection, "PRAGMA foreign_keys = OFF")
    try:
        for migration in migrations[current:target]:
            await _apply(connection, migration)
    finally:
        await execute(connection, f"PRAGMA foreign_keys = {'ON' if foreign_keys else 'OFF'}")
    return await schema_version(connection)


async def _foreign_keys(connection: aiosqlite.Connection) -> bool:
    async with connection.execute("PRAGMA foreign_keys") as cursor:
        row = await cursor.fetchone()
    return bool(row and row[0])


async def _apply(connection: aiosqlite.Connection, migration: Migration) -> None:
    """Run one migration and record it in one transaction (nothing if another process did)."""
    await execute(connection, "BEGIN IMMEDIATE")
    try:
        # Another process may have migrated while we waited for the write lock.
        if await schema_version(connection) >= migration.version:
            await execute(connection, "ROLLBACK")
            return
        for statement in migration.statements():
            await execute(connection, statement)
        async with connection.execute("PRAGMA foreign_key_check") as cursor:
            broken = await cursor.fetchone()
        if broken is not None:
            raise sqlite3.IntegrityError(
                f"migration {migration.name} breaks a foreign key: {tuple(broken)}"
            )
        await execute(
            connection,
            "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
            (migration.version, migration.name, int(time.time() * 1000)),
        )
        await execute(connection, "COMMIT")
    except BaseException:
        if connection.in_transaction:
            await execute(connection, "ROLLBACK")
        raise
