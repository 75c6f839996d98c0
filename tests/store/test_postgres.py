"""What only the PostgreSQL backend has: migrations under a lock, several processes, outages.

The shared behaviour (rounds once, lobbies, leaderboards, stats) runs on both backends through
the ``store`` fixture in the other files.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.engine import Phase, dumps
from bot.engine.simulate import RandomAgent
from bot.persistence import Persistence
from bot.store import LATEST_VERSION, SchemaTooNewError, Store, StoreIOError
from bot.store.migrate import load_migrations
from bot.store.postgres import translate

from .conftest import TEST_POOL
from .factories import ANNA, BEN, new_game, play_and_save, query, standard_round, started_table


def test_both_backends_ship_the_same_numbered_migrations() -> None:
    """Every SQLite migration has a PostgreSQL twin with the same number and name."""
    sqlite = [(m.version, m.name) for m in load_migrations("sqlite")]
    assert sqlite == [(m.version, m.name) for m in load_migrations("postgres")]
    assert len(sqlite) == LATEST_VERSION


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT ? + ?", ("SELECT $1 + $2", ())),
        ("WHERE a = :x AND b > :y OR c = :x", ("WHERE a = $1 AND b > $2 OR c = $1", ("x", "y"))),
        ("SELECT excluded.points", ("SELECT excluded.points", ())),
    ],
)
def test_placeholders_become_numbered(sql: str, expected: tuple[str, tuple[str, ...]]) -> None:
    """? and :name parameters turn into $n; a name used twice keeps its number."""
    assert translate(sql) == expected


async def test_two_processes_opening_together_migrate_once(pg_url: str) -> None:
    """Three stores opening an empty database at once apply each migration exactly once."""
    stores = await asyncio.gather(*(Store.open_postgres(pg_url, TEST_POOL) for _ in range(3)))
    try:
        versions = await query(stores[0], "SELECT version FROM schema_version ORDER BY 1")
        await new_game(stores[1])
    finally:
        for store in stores:
            await store.close()
    assert versions == [(v,) for v in range(1, LATEST_VERSION + 1)]


async def test_newer_schema_is_refused(pg_url: str) -> None:
    """A database migrated by a newer bot raises instead of being written by older code."""
    store = await Store.open_postgres(pg_url, TEST_POOL)

    async def future(connection: Any) -> None:
        await connection.execute("INSERT INTO schema_version VALUES (999, 'future.sql', 0)")

    await store.database.write(future)
    await store.close()
    with pytest.raises(SchemaTooNewError):
        await Store.open_postgres(pg_url, TEST_POOL)


async def test_two_processes_racing_on_a_round_record_it_once(
    pg_store: Store, shared_pg_url: str
) -> None:
    """Two pools (two bot processes) submitting the same round: one True, one False."""
    first = pg_store  # emptied first: the totals below are this test's alone
    second = await Store.open_postgres(shared_pg_url, TEST_POOL)
    try:
        game = await new_game(first)
        for round_no in range(1, 21):
            round_record = standard_round(round_no, ANNA, {ANNA: 0, BEN: 1})
            results = await asyncio.gather(
                first.games.record_round(game.id, round_record),
                second.games.record_round(game.id, round_record),
            )
            assert sorted(results) == [False, True]
        stats = await second.standings.stats(ANNA)
    finally:
        await second.close()
    assert (stats.rounds_won, stats.total_points) == (20, 20)


async def test_unreachable_server_is_a_store_error() -> None:
    """Opening a store on a port where nothing listens raises StoreIOError naming the server."""
    with pytest.raises(StoreIOError, match=re.escape("127.0.0.1:9/")):
        await Store.open_postgres("postgresql://postgres@127.0.0.1:9/none", TEST_POOL)


class Outage:
    """A TCP relay in front of PostgreSQL that the test can cut (as a crashed server) and
    restore: cutting it resets every open connection and refuses new ones."""

    def __init__(self, target: str) -> None:
        parts = urlsplit(target)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 5432
        self.target = target
        self.listen_port = 0
        self.server: asyncio.Server | None = None
        self.links: set[asyncio.StreamWriter] = set()

    @property
    def url(self) -> str:
        """The URL to give the store: the same database, through the relay."""
        parts = urlsplit(self.target)
        netloc = f"{parts.username}@127.0.0.1:{self.listen_port}"
        return urlunsplit(parts._replace(netloc=netloc))

    async def start(self) -> None:
        """Accept connections (on the same port as before, once started)."""
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", self.listen_port)
        self.listen_port = self.server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        """Stop listening and reset every relayed connection."""
        assert self.server is not None
        self.server.close()
        for writer in list(self.links):
            writer.transport.abort()
        self.links.clear()
        await self.server.wait_closed()

    async def _relay(self, client_in: asyncio.StreamReader, client: asyncio.StreamWriter) -> None:
        server_in, server = await asyncio.open_connection(self.host, self.port)
        self.links.update((client, server))

        async def pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            try:
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                sink.transport.abort()

        await asyncio.gather(pump(client_in, server), pump(server_in, client))


@pytest.fixture
async def outage(shared_pg_url: str) -> AsyncIterator[Outage]:
    """A relay to the shared test database, running."""
    relay = Outage(shared_pg_url)
    await relay.start()
    yield relay
    if relay.server is not None:
        relay.server.close()


async def test_outage_raises_store_errors_then_saves_again(
    pg_store: Store, outage: Outage, caplog: pytest.LogCaptureFixture
) -> None:
    """While the server is gone every call raises StoreIOError with one warning; once it is
    back the next calls write again."""
    relayed = await Store.open_postgres(outage.url, TEST_POOL)
    try:
        game = await new_game(relayed)
        await outage.cut()
        round_one = standard_round(1, ANNA, {ANNA: 0, BEN: 30})
        with caplog.at_level(logging.WARNING, logger="bot.store.postgres"):
            with pytest.raises(StoreIOError):
                await relayed.games.record_round(game.id, round_one)
            with pytest.raises(StoreIOError):
                await relayed.snapshots.save_snapshot(game.id, '{"move": 1}', "{}")
            await outage.start()
            assert await relayed.games.record_round(game.id, round_one)
            assert await relayed.snapshots.save_snapshot(game.id, '{"move": 2}', "{}")
    finally:
        await relayed.close()
    warnings = [r.getMessage() for r in caplog.records]
    assert len([w for w in warnings if "is unavailable" in w]) == 1
    assert any("is back" in w for w in warnings)
    (live,) = await pg_store.snapshots.load_live_games()
    assert live.state_json == '{"move": 2}'
    assert (await pg_store.standings.stats(ANNA)).total_points == 30


async def test_moves_made_during_an_outage_are_saved_when_it_ends(
    pg_store: Store, outage: Outage
) -> None:
    """Persistence's next save after the outage records the missed round and the latest state."""
    table = started_table(seed=0)
    game = table.game
    assert game is not None
    agent = RandomAgent(seed=0, patience=0)
    relayed = await Store.open_postgres(outage.url, TEST_POOL)
    persistence = Persistence(relayed)
    try:
        assert await persistence.save(table)
        await outage.cut()
        saved = []
        while game.phase is not Phase.ROUND_OVER:
            saved.append(await play_and_save(persistence, table, agent))
        assert not any(saved)
        await outage.start()
        table.next_round()
        assert await play_and_save(persistence, table, agent)
    finally:
        await relayed.close()
    (live,) = await pg_store.snapshots.load_live_games()
    assert live.state_json == dumps(game)
    winner = await pg_store.standings.stats(int(game.history[0].winner))
    assert (winner.rounds_won, winner.total_points) == (1, sum(game.history[0].awarded.values()))


async def test_processes_writing_different_games_never_fail(
    pg_store: Store, shared_pg_url: str
) -> None:
    """Two processes recording rounds of two games with the same players, seated in opposite
    orders, at once: every round lands and the shared leaderboard rows add up."""
    first = pg_store  # emptied first: the totals below are this test's alone
    second = await Store.open_postgres(shared_pg_url, TEST_POOL)
    try:
        one = await new_game(first, (ANNA, BEN))
        other = await new_game(second, (BEN, ANNA))

        async def play(store: Store, game_id: int, winner: int, loser: int) -> list[bool]:
            return [
                await store.games.record_round(
                    game_id, standard_round(n, winner, {winner: 0, loser: 1})
                )
                for n in range(1, 31)
            ]

        results = await asyncio.gather(
            play(first, one.id, ANNA, BEN), play(second, other.id, BEN, ANNA)
        )
        anna, ben = await first.standings.stats(ANNA), await first.standings.stats(BEN)
    finally:
        await second.close()
    assert list(results) == [[True] * 30, [True] * 30]
    assert (anna.rounds_played, anna.total_points, ben.total_points) == (60, 30, 30)
