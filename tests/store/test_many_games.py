"""No limit on live games per process from query parameters (asyncpg binds at most 32,767)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import pytest

from bot.store import Shards, Store
from bot.store.backend import Connection, Executed, Params, Row
from bot.store.repositories._load import ID_BATCH, load_games

MANY = 33_000
"""More live games than one PostgreSQL query can bind parameters for."""


class CountingConnection:
    """A connection that answers every query with no rows and keeps each one's parameters."""

    dialect: Literal["postgres"] = "postgres"
    claim = None

    def __init__(self) -> None:
        self.bound: list[Sequence[Any]] = []

    async def execute(self, sql: str, params: Params = ()) -> Executed:
        """Not used by loading."""
        raise AssertionError("loading games writes nothing")

    async def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Not used by loading."""
        raise AssertionError("loading games writes nothing")

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """No rows; the parameters are kept."""
        assert not isinstance(params, dict)
        assert sql.count("?") == len(params)
        self.bound.append(list(params))
        return []


async def test_loading_40000_games_binds_each_query_below_every_limit() -> None:
    """Every query binds at most ID_BATCH ids, and together they ask for every id once."""
    connection = CountingConnection()
    ids = list(range(1, 40_001))
    await load_games(connection, ids)
    assert max(len(params) for params in connection.bound) <= ID_BATCH < 999
    games_queries = connection.bound[1::2]  # each batch: its seats, then its games
    assert [game_id for params in games_queries for game_id in params] == ids


def test_a_process_of_many_shards_binds_a_few_parameters() -> None:
    """Shard ids 0-49999 of 100000 are one range test; all of them are no test at all."""
    condition, params = Shards(100_000, frozenset(range(50_000))).sql("g.guild_id")
    assert params == [100_000, 0, 49_999] and condition.count("?") == 3
    assert Shards(4, frozenset(range(4))).sql("g.guild_id") == ("1 = 1", [])


async def _insert_live_games(connection: Connection) -> None:
    await connection.execute(
        "INSERT INTO players (id, display_name, updated_at)"
        " VALUES (101, 'Anna', 0), (102, 'Ben', 0)"
    )
    await connection.execute(
        "WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)"
        " INSERT INTO games (id, guild_id, channel_id, variant, rules_json, created_at,"
        " updated_at) SELECT i, (i % 7) << 22, i, 'flip', '{}', 0, 0 FROM n",
        (MANY,),
    )
    for seat, player in enumerate((101, 102)):
        await connection.execute(
            "INSERT INTO game_players (game_id, player_id, seat) SELECT id, ?, ? FROM games",
            (player, seat),
        )


@pytest.mark.slow
async def test_a_process_restores_more_live_games_than_one_query_can_bind(store: Store) -> None:
    """33,000 live games come back at start-up, every one with its two seats."""
    await store.database.write(_insert_live_games)
    live = await store.snapshots.load_live_games()
    assert len(live) == MANY
    assert {len(game.game.players) for game in live} == {2}
    await store.claim_shards(Shards(7, frozenset({0, 1, 2})))
    mine = await store.snapshots.load_live_games()
    assert len(mine) == sum(1 for i in range(1, MANY + 1) if i % 7 in (0, 1, 2))
