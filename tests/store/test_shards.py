"""Shard clusters: each process restores only its servers, and owns its shards alone."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.config import Settings
from bot.store import Shards, ShardTakenError, Store, StoreIOError
from bot.store.shards import ShardLease

from .conftest import TEST_POOL, end_session_of, someone_waits_for_a_shard, until
from .factories import ANNA, BEN, new_game, query, standard_round

HOLDER = Path(__file__).with_name("lease_holder.py")
REPO = Path(__file__).resolve().parents[2]

FAKE_TOKEN = "MTA1234567890123456.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"


@pytest.fixture(autouse=True)
def no_outside_config(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    """Settings read no config file or UNO_ variables from the machine."""
    monkeypatch.setenv("UNO_CONFIG", f"{tmp_path}/absent.toml")
    for name in ("UNO_SHARD_COUNT", "UNO_SHARD_IDS", "UNO_DB_URL", "UNO_DB_PATH"):
        monkeypatch.delenv(name, raising=False)


def guild_on_shard(shard: int, count: int, n: int = 1) -> int:
    """A server id that Discord puts on ``shard`` of ``count``."""
    return ((n * count + shard) << 22) | 12345


def test_a_server_belongs_to_the_shard_discord_gives_it() -> None:
    """(guild_id >> 22) % shard_count decides, as in Discord's sharding formula."""
    shards = Shards(4, frozenset({1, 3}))
    assert [shards.owns(guild_on_shard(s, 4)) for s in range(4)] == [False, True, False, True]
    assert Shards(1, frozenset({0})).owns(81384788765712384)


@pytest.mark.parametrize(("count", "ids"), [(0, {0}), (4, set()), (4, {4}), (2, {-1})])
def test_impossible_shards_are_refused(count: int, ids: set[int]) -> None:
    """No shards, or ids outside 0..count-1, are an error."""
    with pytest.raises(ValueError, match="shard"):
        Shards(count, frozenset(ids))


async def test_restore_lists_only_the_processs_own_servers(store: Store) -> None:
    """Live games and lobbies of other shards' servers stay for their own process."""
    games = {shard: await new_game(store, guild_id=guild_on_shard(shard, 3)) for shard in range(3)}
    for shard in range(3):
        await store.lobbies.save(500 + shard, f"l{shard}", guild_on_shard(shard, 3), "{}")
    await store.claim_shards(Shards(3, frozenset({0, 2})))
    live = [g.game.id for g in await store.snapshots.load_live_games()]
    lobbies = [lobby.session_id for lobby in await store.lobbies.load_all()]
    assert live == [games[0].id, games[2].id]
    assert lobbies == ["l0", "l2"]


async def test_every_shard_is_leased_once(pg_store: Store, shared_pg_url: str) -> None:
    """A second process claiming a taken shard is refused with one line naming it; a process
    with other shards starts; the replacement of a stopped process takes its shards."""
    await pg_store.claim_shards(Shards(4, frozenset({0, 1})))
    second = await Store.open_postgres(shared_pg_url, TEST_POOL)
    third = await Store.open_postgres(shared_pg_url, TEST_POOL)
    replacement = await Store.open_postgres(shared_pg_url, TEST_POOL)
    try:
        with pytest.raises(ShardTakenError, match=r"^shard 1 of 4 is already run") as refused:
            await second.claim_shards(Shards(4, frozenset({1, 2})), lease_timeout=0.2)
        assert "\n" not in str(refused.value)
        await third.claim_shards(Shards(4, frozenset({2, 3})))  # shard 2 was not kept by second
        await pg_store.close()  # the first process stops (or dies: its connection ends)
        await replacement.claim_shards(Shards(4, frozenset({0, 1})))
        game = await new_game(replacement, (ANNA, BEN), guild_id=guild_on_shard(0, 4))
        assert [g.game.id for g in await replacement.snapshots.load_live_games()] == [game.id]
    finally:
        for store in (second, third, replacement):
            await store.close()


def lease_of(store: Store) -> ShardLease:
    """The shard lease a store holds (after claim_shards on PostgreSQL)."""
    assert store.lease is not None
    return store.lease


@pytest.mark.slow
async def test_a_killed_processs_shard_is_taken_by_its_replacement(
    pg_store: Store, shared_pg_url: str
) -> None:
    """A real process holding shard 0 is killed with SIGKILL (no clean shutdown); a
    replacement that was refused a moment earlier now takes the shard."""
    holder = subprocess.Popen(
        [sys.executable, str(HOLDER), shared_pg_url, "2", "0"],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert holder.stdout is not None
    try:
        assert holder.stdout.readline() == b"held\n"
        with pytest.raises(ShardTakenError):
            await pg_store.claim_shards(Shards(2, frozenset({0})), lease_timeout=0.1)
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=10)
        # The kernel closed the dead process's socket: the server ends its session and frees
        # the lock; the claim waits for that (up to its timeout) instead of refusing.
        await pg_store.claim_shards(Shards(2, frozenset({0})), lease_timeout=10.0)
        assert lease_of(pg_store).held
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait(timeout=10)
        holder.stdout.close()
    assert holder.returncode == -signal.SIGKILL


async def test_a_waiting_claim_wakes_when_the_holder_goes(
    pg_store: Store, shared_pg_url: str
) -> None:
    """A claim started while the holder still runs waits, and gets the shard the moment the
    holder's connection ends (an aborted socket: no goodbye to the server)."""
    await pg_store.claim_shards(Shards(2, frozenset({0, 1})))
    replacement = await Store.open_postgres(shared_pg_url, TEST_POOL)
    try:
        claim = asyncio.create_task(
            replacement.claim_shards(Shards(2, frozenset({1})), lease_timeout=10.0)
        )
        await someone_waits_for_a_shard(shared_pg_url)
        assert not claim.done()
        lease = lease_of(pg_store)
        lease.connection.remove_termination_listener(lease.dropped)  # a dead process hears nothing
        lease.connection.terminate()
        await asyncio.wait_for(claim, 10.0)
        assert lease_of(replacement).held
    finally:
        await replacement.close()


async def test_the_lease_connection_tells_the_server_to_notice_a_dead_machine(
    pg_store: Store,
) -> None:
    """The lease's own session probes its client (TCP keepalives) within the lease timeout,
    so a holder whose machine vanished without closing its socket frees its shards, and
    names itself in pg_stat_activity."""
    await pg_store.claim_shards(Shards(4, frozenset({2, 3})), lease_timeout=30.0)
    connection = lease_of(pg_store).connection
    assert await connection.fetchval("SHOW tcp_keepalives_idle") == "10"
    assert await connection.fetchval("SHOW tcp_keepalives_interval") == "3"
    assert await connection.fetchval("SHOW tcp_keepalives_count") == "3"
    assert await connection.fetchval("SHOW tcp_user_timeout") == "30000"
    assert await connection.fetchval("SHOW application_name") == "unoflip shards 2, 3 of 4"


async def test_a_dropped_lease_connection_takes_its_shards_again(
    pg_store: Store, shared_pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The server ends the lease's session (a restart, a dropped link): one line says so,
    the lease takes the shards again on a new connection, and one line says that."""
    caplog.set_level(logging.WARNING, logger="bot.store.shards")
    lost: list[str] = []
    await pg_store.claim_shards(Shards(2, frozenset({1})), lease_timeout=2.0, on_lost=lost.append)
    lease = lease_of(pg_store)
    first = lease.connection
    await end_session_of(first, shared_pg_url)
    await until(lambda: lease.connection is not first and lease.held)
    assert lost == []
    assert [record.getMessage() for record in caplog.records] == [
        "lost the database connection that holds shard 1 of 2; playing on and taking the "
        "lease again",
        "holding the lease on shard 1 of 2 again",
    ]
    other = await Store.open_postgres(shared_pg_url, TEST_POOL)
    try:
        with pytest.raises(ShardTakenError):
            await other.claim_shards(Shards(2, frozenset({1})), lease_timeout=0.1)
    finally:
        await other.close()
    await new_game(pg_store, guild_id=guild_on_shard(1, 2))  # still writing


async def test_a_shard_taken_while_the_lease_was_down_stops_this_process_writing(
    pg_store: Store, shared_pg_url: str
) -> None:
    """Another process was waiting for the shard and got it while the lease's connection was
    down: the lease reports it once, in one line, and the store writes nothing more (a late
    save would overwrite the new owner's newer state)."""
    lost: list[str] = []
    await pg_store.claim_shards(Shards(2, frozenset({0})), lease_timeout=0.3, on_lost=lost.append)
    lease = lease_of(pg_store)
    other = await Store.open_postgres(shared_pg_url, TEST_POOL)
    try:
        taking = asyncio.create_task(
            other.claim_shards(Shards(2, frozenset({0})), lease_timeout=10.0)
        )
        await someone_waits_for_a_shard(shared_pg_url)
        await end_session_of(lease.connection, shared_pg_url)
        await asyncio.wait_for(taking, 10.0)
        await until(lambda: bool(lost))
        assert lost == [
            "shard 0 of 2 was taken over by another bot process while this one's database "
            "connection was down"
        ]
        assert not lease.held
        with pytest.raises(StoreIOError, match=r"^not saved: shard 0 of 2 was taken over"):
            await new_game(pg_store, guild_id=guild_on_shard(0, 2))
        await new_game(other, guild_id=guild_on_shard(0, 2))
    finally:
        await other.close()


def test_shard_settings_parse_ranges() -> None:
    """shard_ids takes ranges and lists; without it the process runs every shard."""
    settings = Settings(discord_token=FAKE_TOKEN, shard_count=8, shard_ids="0-2,6")
    assert settings.shard_id_list == [0, 1, 2, 6]
    assert Settings(discord_token=FAKE_TOKEN).shard_id_list is None


@pytest.mark.parametrize(
    ("count", "ids", "message"),
    [(None, "0-1", "needs shard_count"), (4, "2-4", "below shard_count"), (4, "a", "pattern")],
)
def test_bad_shard_settings_are_refused(count: int | None, ids: str, message: str) -> None:
    """shard_ids without shard_count, ids past the count, or a malformed list are refused."""
    with pytest.raises(ValidationError, match=message):
        Settings(discord_token=FAKE_TOKEN, shard_count=count, shard_ids=ids)


def test_db_url_must_name_a_known_backend() -> None:
    """db_url is sqlite:/// or postgresql://; unset, it is the SQLite file at db_path."""
    with pytest.raises(ValidationError, match="sqlite:///path or postgresql://"):
        Settings(discord_token=FAKE_TOKEN, db_url="mysql://x")
    assert Settings(discord_token=FAKE_TOKEN, db_path="d/u.db").store_url == "sqlite:///d/u.db"


async def epochs(store: Store) -> dict[int, int]:
    """Every shard's current epoch, from shard_leases."""
    rows = await query(store, "SELECT shard_id, epoch FROM shard_leases")
    return {int(shard): int(epoch) for shard, epoch in rows}  # type: ignore[call-overload]


async def test_every_claim_draws_a_larger_epoch_for_its_shards(
    pg_store: Store, shared_pg_url: str
) -> None:
    """A claim writes its new epoch into each of its shards' rows; the next claim of a
    shard (after the first process stopped) writes a larger one there, and only there."""
    await pg_store.claim_shards(Shards(2, frozenset({0, 1})))
    first = lease_of(pg_store).claim.epoch
    assert await epochs(pg_store) == {0: first, 1: first}
    await lease_of(pg_store).release()
    replacement = await Store.open_postgres(shared_pg_url, TEST_POOL)
    try:
        await replacement.claim_shards(Shards(2, frozenset({1})))
        second = lease_of(replacement).claim.epoch
        assert second > first
        assert await epochs(replacement) == {0: first, 1: second}
    finally:
        await replacement.close()


def late_writes(guild: int, game_id: int) -> dict[str, Callable[[Store], Awaitable[object]]]:
    """Each kind of write a process makes for a server: a move's snapshot, a round, a lobby,
    a new game, a lobby's end, an abandoned game."""
    return {
        "snapshot": lambda s: s.snapshots.save_snapshot(game_id, '{"late": true}'),
        "round": lambda s: s.games.record_round(
            game_id, standard_round(1, ANNA, {ANNA: 0, BEN: 9}), snapshot=('{"late": 1}', "{}")
        ),
        "lobby": lambda s: s.lobbies.save(7, "late", guild, "{}"),
        "new game": lambda s: new_game(s, guild_id=guild),
        "lobby end": lambda s: s.lobbies.delete(8, "kept"),
        "abandon": lambda s: s.games.abandon_game(game_id),
    }


@pytest.mark.parametrize("kind", list(late_writes(0, 0)))
async def test_a_process_whose_shard_was_taken_cannot_write_through_its_pool(
    pg_store: Store, shared_pg_url: str, kind: str
) -> None:
    """The lease's connection is gone but the process has not noticed (no word from the
    socket yet) while another process claims the shard: the old process's next write, on a
    pool connection that stayed open all along, is refused and changes nothing; the process
    hears why once; the new owner writes on."""
    guild = guild_on_shard(0, 2)
    lost: list[str] = []
    await pg_store.claim_shards(Shards(2, frozenset({0})), on_lost=lost.append)
    game = await new_game(pg_store, guild_id=guild)
    await pg_store.lobbies.save(8, "kept", guild, "{}")
    lease = lease_of(pg_store)
    lease.connection.remove_termination_listener(lease.dropped)  # not noticed yet
    lease.connection.terminate()
    newer = await Store.open_postgres(shared_pg_url, TEST_POOL)
    try:
        await newer.claim_shards(Shards(2, frozenset({0})), lease_timeout=10.0)
        assert await newer.snapshots.save_snapshot(game.id, '{"newer": true}')
        before = await query(newer, "SELECT * FROM snapshots, games, lobbies")
        with pytest.raises(StoreIOError, match=r"^not saved: shard 0 of 2 was taken over"):
            await late_writes(guild, game.id)[kind](pg_store)
        assert await query(newer, "SELECT * FROM snapshots, games, lobbies") == before
        assert lost == [
            "shard 0 of 2 was taken over by another bot process; this one's late write was refused"
        ]
        assert not lease.held
        with pytest.raises(StoreIOError, match=r"^not saved"):
            await pg_store.snapshots.save_snapshot(game.id, "{}")  # and nothing after it
        assert len(lost) == 1
        await late_writes(guild, game.id)[kind](newer)  # the new owner writes on
    finally:
        await newer.close()


async def test_a_shard_claimed_and_given_up_while_the_lease_was_down_is_still_lost(
    pg_store: Store, shared_pg_url: str
) -> None:
    """Another process claims the shard while this one's lease is down, then stops before
    the lease is back: the lock is free again, but the epoch shows the other claim, so the
    lease gives the shard up instead of serving stale games over the other's writes."""
    lost: list[str] = []
    await pg_store.claim_shards(Shards(2, frozenset({1})), lease_timeout=10.0, on_lost=lost.append)
    other = await Store.open_postgres(shared_pg_url, TEST_POOL)
    try:
        taking = asyncio.create_task(
            other.claim_shards(Shards(2, frozenset({1})), lease_timeout=10.0)
        )
        await someone_waits_for_a_shard(shared_pg_url)
        await end_session_of(lease_of(pg_store).connection, shared_pg_url)
        await asyncio.wait_for(taking, 10.0)
    finally:
        await other.close()  # the lease, still waiting, now gets the lock
    await until(lambda: bool(lost))
    assert lost == [
        "shard 1 of 2 was taken over by another bot process while this one's database "
        "connection was down"
    ]
    with pytest.raises(StoreIOError, match=r"^not saved"):
        await new_game(pg_store, guild_id=guild_on_shard(1, 2))


async def test_a_single_process_store_writes_without_a_claim(
    pg_store: Store, shared_pg_url: str
) -> None:
    """A process that runs every shard claims none and checks none: its writes go through
    whatever shard_leases holds."""
    guild = guild_on_shard(0, 2)
    other = await Store.open_postgres(shared_pg_url, TEST_POOL)
    try:
        await other.claim_shards(Shards(2, frozenset({0})))
        game = await new_game(pg_store, guild_id=guild)
        await pg_store.lobbies.save(8, "kept", guild, "{}")
        for write in late_writes(guild, game.id).values():
            await write(pg_store)
        assert pg_store.lease is None
    finally:
        await other.close()


async def test_a_write_for_a_server_of_another_shard_is_refused_alone(pg_store: Store) -> None:
    """A server whose shard this process does not run is never written from it; the refusal
    says why and leaves the process's own shards writable."""
    lost: list[str] = []
    await pg_store.claim_shards(Shards(2, frozenset({0})), on_lost=lost.append)
    with pytest.raises(
        StoreIOError, match=r"^not saved: its server is on shard 1 of 2, which this process"
    ):
        await new_game(pg_store, guild_id=guild_on_shard(1, 2))
    await new_game(pg_store, guild_id=guild_on_shard(0, 2))
    assert lost == []
