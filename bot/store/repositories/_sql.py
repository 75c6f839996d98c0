"""Small SQL helpers shared by the repositories."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any, TypeVar

from pydantic import BaseModel

from ..backend import Connection, Executed, Params, Row
from ..shards import Shards, shard_sql

__all__ = [
    "Executed",
    "execute",
    "fetch_all",
    "fetch_one",
    "from_row",
    "hold_shard",
    "now_ms",
    "own_servers",
    "shard_held",
]

GLOBAL_SCOPE = 0
M = TypeVar("M", bound=BaseModel)


def now_ms() -> int:
    """The current time in unix milliseconds."""
    return time.time_ns() // 1_000_000


async def execute(connection: Connection, sql: str, params: Params = ()) -> Executed:
    """Run one statement; how many rows it changed."""
    return await connection.execute(sql, params)


async def fetch_all(connection: Connection, sql: str, params: Params = ()) -> list[Row]:
    """Every row of one query."""
    return await connection.fetch_all(sql, params)


async def fetch_one(connection: Connection, sql: str, params: Params = ()) -> Row | None:
    """The first row of one query (meant for queries of at most one row), or None."""
    rows = await fetch_all(connection, sql, params)
    return rows[0] if rows else None


async def hold_shard(connection: Connection, guild_id: int) -> None:
    """Inside a write transaction: stop it unless this process's shard claim still holds the
    shard of server ``guild_id`` (a no-op without a claim: SQLite, or a single process).

    The shard's fence lock is held shared until the commit (an advisory lock, no row lock),
    so a new claim of the shard waits for this write, and a write after that claim is
    refused (the backend raises StoreIOError).
    """
    claim = connection.claim
    if claim is not None:
        await fetch_all(
            connection,
            "SELECT hold_shard(?, ?)",
            (claim.shards.shard_of(guild_id), claim.epoch),
        )


def shard_held(connection: Connection, guild_column: str) -> tuple[str, list[int]]:
    """An ``AND ...`` condition on a server id column that stops the statement as hold_shard
    does, and its parameters; empty without a claim. For one-statement writes."""
    claim = connection.claim
    if claim is None:
        return "", []
    return f" AND hold_shard({shard_sql(guild_column)}, ?)", [claim.shards.count, claim.epoch]


def own_servers(shards: Shards | None, guild_column: str) -> tuple[str, list[int]]:
    """A WHERE condition on a server id column keeping this process's servers (all of them
    without a shard claim), and its parameters. For the restore lists at start-up."""
    return ("1 = 1", []) if shards is None else shards.sql(guild_column)


def from_row(model: type[M], row: Row, **overrides: Any) -> M:
    """A model filled from the row's columns of the same names, plus ``overrides``."""
    columns = set(row.keys())
    values = {name: row[name] for name in model.model_fields if name in columns}
    return model.model_validate({**values, **overrides})


def totals_keys(guild_id: int, variant: str) -> Iterable[tuple[int, str]]:
    """The four player_totals rows one game's results count in: server/global x variant/all."""
    return (
        (guild_id, variant),
        (guild_id, "all"),
        (GLOBAL_SCOPE, variant),
        (GLOBAL_SCOPE, "all"),
    )
