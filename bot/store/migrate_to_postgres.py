"""Copy a SQLite store into an empty PostgreSQL database (moving a bot to several processes).

    unoflip migrate-to-postgres data/uno.db postgresql://uno@db.example:5432/uno

Stop the bot first. Both databases are brought to the latest schema, then every table is
copied in one PostgreSQL transaction (all or nothing) and the id sequences are moved past the
copied ids. The SQLite file is only read. A PostgreSQL database that already holds players or
games is refused, so the copy never mixes two histories.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from pathlib import Path

import asyncpg

from .errors import StoreError
from .postgres import mask_password
from .store import Store

# Parents before children, so every foreign key finds its row.
TABLES = (
    "players",
    "games",
    "game_players",
    "rounds",
    "round_scores",
    "match_results",
    "snapshots",
    "player_totals",
    "lobbies",
    "server_settings",
    "match_history",
    "match_history_players",
    "match_history_rounds",
)
# Tables whose ids PostgreSQL generates: their sequences continue after the copied ids.
IDENTITY_TABLES = ("games", "rounds")
BATCH = 20_000


async def copy_sqlite_to_postgres(sqlite_path: str | Path, dsn: str) -> dict[str, int]:
    """Copy every table of the SQLite store at ``sqlite_path`` into PostgreSQL at ``dsn``.

    Returns the rows copied per table. Raises ValueError when the file is missing or the
    PostgreSQL database is not empty, StoreError when either database fails.
    """
    if not Path(sqlite_path).is_file():
        raise ValueError(f"no SQLite database at {sqlite_path}")
    await (await Store.open(sqlite_path)).close()  # brings an older file to the latest schema
    target = await Store.open_postgres(dsn)
    try:
        pool = target.database.pool
        async with pool.acquire() as connection:
            if await connection.fetchval("SELECT EXISTS (SELECT 1 FROM players)"):
                raise ValueError(
                    "the PostgreSQL database already holds players: copy into an empty one"
                )
            source = sqlite3.connect(f"file:{sqlite_path}?mode=ro", uri=True)
            try:
                async with connection.transaction():
                    counts = {
                        table: await _copy_table(source, connection, table) for table in TABLES
                    }
                    for table in IDENTITY_TABLES:
                        await connection.execute(
                            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                            f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                        )
            finally:
                source.close()
    finally:
        await target.close()
    return counts


async def _copy_table(source: sqlite3.Connection, target: asyncpg.Connection, table: str) -> int:
    cursor = source.execute(f"SELECT * FROM {table}")
    columns = [column[0] for column in cursor.description]
    copied = 0
    while rows := cursor.fetchmany(BATCH):
        await target.copy_records_to_table(table, records=rows, columns=columns)
        copied += len(rows)
    return copied


def main(argv: list[str] | None = None) -> int:
    """Command line: copy SQLITE_PATH into POSTGRES_URL and print the rows per table."""
    parser = argparse.ArgumentParser(
        prog="unoflip migrate-to-postgres",
        description="Copy a unoflip SQLite database into an empty PostgreSQL database.",
    )
    parser.add_argument("sqlite_path", help="the bot's SQLite file (db_path)")
    parser.add_argument("postgres_url", help="postgresql://user@host:port/database")
    args = parser.parse_args(argv)
    try:
        counts = asyncio.run(copy_sqlite_to_postgres(args.sqlite_path, args.postgres_url))
    except (ValueError, StoreError, asyncpg.PostgresError) as error:
        print(f"copy failed, nothing was written: {error}", file=sys.stderr)
        return 1
    for table, count in counts.items():
        print(f"{table}: {count} rows")
    # The URL may carry the password; the host typed it, and logs and terminals keep lines.
    masked = mask_password(args.postgres_url)
    print(f"done: set db_url = {masked!r} (with the password you gave) and start the bot")
    return 0


if __name__ == "__main__":
    sys.exit(main())
