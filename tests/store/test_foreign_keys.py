"""Every foreign key has an index leading with its columns, on both backends."""

from __future__ import annotations

from bot.store import Store

from .factories import query

# PostgreSQL: each foreign key's columns, and whether some index of its table leads with them.
_POSTGRES = """
SELECT c.conrelid::regclass::text, c.conkey::int[]::text,
    EXISTS (
        SELECT 1 FROM pg_index AS i
        WHERE i.indrelid = c.conrelid
        AND (i.indkey::int2[])[0:cardinality(c.conkey) - 1] = c.conkey
    )
FROM pg_constraint AS c WHERE c.contype = 'f' ORDER BY 1, 2
"""


async def _unindexed_sqlite(store: Store) -> list[tuple[str, str]]:
    missing = []
    tables = await query(store, "SELECT name FROM sqlite_master WHERE type = 'table'")
    for (table,) in tables:
        keys = await query(store, f"SELECT \"from\" FROM pragma_foreign_key_list('{table}')")
        if not keys:
            continue
        leading = set()
        for (index,) in await query(store, f"SELECT name FROM pragma_index_list('{table}')"):
            first = await query(
                store, f"SELECT name FROM pragma_index_info('{index}') ORDER BY seqno LIMIT 1"
            )
            leading.add(first[0][0])
        primary = await query(store, f"SELECT name FROM pragma_table_info('{table}') WHERE pk = 1")
        leading.update(row[0] for row in primary)  # an INTEGER PRIMARY KEY is the row id
        missing += [(str(table), str(column)) for (column,) in keys if column not in leading]
    return missing


async def test_every_foreign_key_has_an_index(store: Store) -> None:
    """No foreign key makes a delete of its parent row read a whole table."""
    if store.database.dialect == "sqlite":
        assert await _unindexed_sqlite(store) == []
    else:
        rows = await query(store, _POSTGRES)
        assert len(rows) >= 11
        assert [row[:2] for row in rows if not row[2]] == []
