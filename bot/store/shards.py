"""Which servers a bot process owns when the bot runs as several processes (a shard cluster).

Discord puts server ``guild_id`` on shard ``(guild_id >> 22) % shard_count``. A process runs
some shard ids; the store then restores only those servers' games and lobbies, and on
PostgreSQL holds one advisory lock per shard for as long as it runs, so a second process
started with the same shard ids is refused instead of playing the same games twice.

Advisory locks rather than a lease table with an expiry time: PostgreSQL itself frees a
session's locks when the session ends, so there is no clock to trust and no renewal to miss.
A killed process's socket is closed by its kernel and its shards are free at once; a machine
that vanishes without a word is found by the server's TCP keepalives, which the lease's
connection sets to notice it within ``timeout`` seconds. The same keepalives on this side of
the socket tell the process when its own link went silent, with no task polling the server.

A lock alone cannot stop a process that has not noticed yet that its lease is gone: its pool
connections can still write. So every claim also draws a new epoch (a fencing token) into
the ``shard_leases`` rows of its shards, and every write of a server's games, rounds,
snapshots and lobbies checks, in its own transaction, that the server's shard still carries
this process's epoch (the ``hold_shard`` SQL function of migrations 5 and 9), holding a
shared transaction-level advisory lock, not a row lock, so the check costs no MultiXact id.
A late write of the old owner is then refused instead of landing over the new owner's state.

Locks on shard ids alone cannot see two processes that disagree on the shard count: shard 1
of 2 and shard 3 of 4 are different locks, yet both hold server 3 << 22. So the database
records the cluster's shape (its shard count, migration 6) at the first claim, and every
later claim must agree with it; a process without shard_ids claims every shard (of its
shard_count, or the one shard of a single process). Changing the count is a procedure:
stop every process, ``reshard`` (``python -m bot.store.cluster``), start them again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

import asyncpg

from .errors import StoreError, StoreIOError

log = logging.getLogger(__name__)

LEASE_TIMEOUT = 30.0
"""Seconds by default before a silent holder counts as dead, and a claim stops waiting."""
CONNECT_TIMEOUT = 10.0
"""Seconds to wait for the server to accept the lease's connection."""

# First key of the two-key advisory locks that stand for shard leases (the second is the id).
SHARD_LOCK = 0x756E6F73  # "unos"
# First key of the transaction-level locks that fence a shard's writes from a new claim
# (written out in hold_shard, migration 9).
SHARD_FENCE = 0x756E6F66  # "unof"


class ShardTakenError(StoreError):
    """Another live process already owns one of this process's shards."""


class ClusterShapeError(StoreError):
    """This process's shard count disagrees with the cluster the database serves (or the
    cluster cannot be reshaped now): two processes would each own the same servers."""


def shard_sql(guild_column: str) -> str:
    """SQL for the shard of the server in ``guild_column``, as Shards.shard_of computes it;
    its one parameter is the shard count."""
    return f"(({guild_column} >> 22) % ?)"


@dataclass(frozen=True, slots=True)
class Shards:
    """A process's shard ids out of ``count`` shards."""

    count: int
    ids: frozenset[int]

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("shard_count must be at least 1")
        if not self.ids or any(not 0 <= shard < self.count for shard in self.ids):
            raise ValueError(f"shard ids must lie in 0..{self.count - 1}")

    def shard_of(self, guild_id: int) -> int:
        """The shard Discord puts server ``guild_id`` on."""
        return (guild_id >> 22) % self.count

    def owns(self, guild_id: int) -> bool:
        """Whether this process runs the shard of server ``guild_id``."""
        return self.shard_of(guild_id) in self.ids

    def sql(self, column: str) -> tuple[str, list[int]]:
        """A WHERE condition on a guild id column keeping this process's servers, and params.

        One range test per run of consecutive ids (``0-63`` is one), so the parameters stay
        few however many shards a process runs; every shard is no condition at all.
        """
        runs = _runs(sorted(self.ids))
        if runs == [(0, self.count - 1)]:
            return "1 = 1", []
        tests = " OR ".join(f"{shard_sql(column)} BETWEEN ? AND ?" for _ in runs)
        return f"({tests})", [value for low, high in runs for value in (self.count, low, high)]


def _runs(ids: list[int]) -> list[tuple[int, int]]:
    """Sorted ids as runs of consecutive ones: [0, 1, 2, 5] -> [(0, 2), (5, 5)]."""
    runs: list[tuple[int, int]] = []
    for shard in ids:
        if runs and runs[-1][1] == shard - 1:
            runs[-1] = (runs[-1][0], shard)
        else:
            runs.append((shard, shard))
    return runs


def process_shards(count: int | None, ids: list[int] | None) -> Shards:
    """The shards a process runs: ``ids`` of ``count``, or every shard without ``ids`` (of
    ``count``, or the one shard of a bot whose shard count Discord picks)."""
    total = count or 1
    return Shards(total, frozenset(range(total) if ids is None else ids))


@dataclass(frozen=True, slots=True)
class ShardClaim:
    """The shards a process claimed and the epoch of that claim, which its writes must match."""

    shards: Shards
    epoch: int


SHARD_TAKEN_SQLSTATE = "UF001"
"""What hold_shard raises when a write's shard carries another claim's epoch."""


def describe_shards(shards: Shards, ids: list[int] | None = None) -> str:
    """'shard 1 of 4' or 'shards 0, 1 of 4', for log lines and errors."""
    listed = sorted(shards.ids) if ids is None else ids
    noun = "shard" if len(listed) == 1 else "shards"
    return f"{noun} {', '.join(map(str, listed))} of {shards.count}"


def keepalive_settings(timeout: float) -> dict[str, str]:
    """Server settings that make PostgreSQL drop a silent lease connection within ``timeout``.

    The server probes an idle connection after a third of it, then every ninth, three times
    (about two thirds in all), and gives up on data left unacknowledged for ``timeout``.
    """
    idle = max(1, int(timeout / 3))
    interval = max(1, int(timeout / 9))
    return {
        "tcp_keepalives_idle": str(idle),
        "tcp_keepalives_interval": str(interval),
        "tcp_keepalives_count": "3",
        "tcp_user_timeout": str(int(timeout * 1000)),
    }


def _keep_alive(connection: asyncpg.Connection, timeout: float) -> None:
    """The same keepalives on our end: the kernel ends a silent link within ``timeout``, and
    asyncpg then reports the connection lost (Linux socket options; elsewhere the server's
    keepalives still free the shards, and a lost link shows at the next query)."""
    # asyncpg offers no client keepalive setting; its transport's socket is asyncio's own.
    # Should a later asyncpg hide it, the server's keepalives still do the important half.
    transport = getattr(connection, "_transport", None)
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is None or sock.family == socket.AF_UNIX:
        return  # a local socket has no link to lose
    settings = keepalive_settings(timeout)
    options = [
        (socket.SOL_SOCKET, "SO_KEEPALIVE", 1),
        (socket.IPPROTO_TCP, "TCP_KEEPIDLE", int(settings["tcp_keepalives_idle"])),
        (socket.IPPROTO_TCP, "TCP_KEEPINTVL", int(settings["tcp_keepalives_interval"])),
        (socket.IPPROTO_TCP, "TCP_KEEPCNT", int(settings["tcp_keepalives_count"])),
        (socket.IPPROTO_TCP, "TCP_USER_TIMEOUT", int(settings["tcp_user_timeout"])),
    ]
    for level, name, value in options:
        if hasattr(socket, name):
            sock.setsockopt(level, getattr(socket, name), value)


async def _connect(dsn: str, shards: Shards, timeout: float) -> asyncpg.Connection:
    """A lease connection, with keepalives on both ends of its link."""
    connection = await asyncpg.connect(
        dsn,
        timeout=CONNECT_TIMEOUT,
        server_settings={
            **keepalive_settings(timeout),
            # Names the holder in pg_stat_activity, for whoever looks into a refused start.
            "application_name": f"unoflip {describe_shards(shards)}"[:63],
        },
    )
    _keep_alive(connection, timeout)
    return connection


async def _lock(connection: asyncpg.Connection, shards: Shards, wait: float) -> list[int]:
    """Take every shard's lock on ``connection``, each waiting while ``wait`` seconds last;
    the shards still held elsewhere when the wait is over."""
    deadline = time.monotonic() + wait
    taken: list[int] = []
    for shard in sorted(shards.ids):
        left = deadline - time.monotonic()
        if left <= 0:
            if not await connection.fetchval(
                "SELECT pg_try_advisory_lock($1, $2)", SHARD_LOCK, shard
            ):
                taken.append(shard)
            continue
        # A blocking lock with lock_timeout wakes the moment the holder's session ends, with
        # no polling; sorted order keeps two claimants from waiting on each other.
        await connection.execute(f"SET lock_timeout = {max(1, int(left * 1000))}")
        try:
            await connection.execute("SELECT pg_advisory_lock($1, $2)", SHARD_LOCK, shard)
        except asyncpg.LockNotAvailableError:
            taken.append(shard)
    await connection.execute("RESET lock_timeout")
    return taken


async def _claim(connection: asyncpg.Connection, shards: Shards) -> int:
    """Write a new epoch into every shard's row (their locks are held); the epoch.

    Every write holds its shard's fence lock shared until it commits (hold_shard, migration
    9); the claim takes it exclusively around the new epoch, so each write in flight either
    commits before the claim or, waiting behind it, reads the new epoch and is refused.
    """
    async with connection.transaction():
        await connection.execute(
            "SELECT pg_advisory_xact_lock($1, shard) FROM unnest($2::INTEGER[]) AS shard"
            " ORDER BY shard",
            SHARD_FENCE,
            sorted(shards.ids),
        )
        epoch = int(await connection.fetchval("SELECT nextval('shard_lease_epochs')"))
        await connection.execute(
            "INSERT INTO shard_leases (shard_id, epoch) SELECT shard, $2"
            " FROM unnest($1::INTEGER[]) AS shard ORDER BY shard"
            " ON CONFLICT (shard_id) DO UPDATE SET epoch = excluded.epoch",
            sorted(shards.ids),
            epoch,
        )
    return epoch


async def _check_shape(connection: asyncpg.Connection, shards: Shards) -> None:
    """Record the cluster's shard count if the database has none yet; ClusterShapeError if
    it records another one than ``shards.count`` (every process must agree on it, or two
    processes each own some of the same servers)."""
    await connection.execute(
        "INSERT INTO cluster_shape (id, shard_count, changed_at) VALUES (1, $1, $2)"
        " ON CONFLICT (id) DO NOTHING",
        shards.count,
        int(time.time() * 1000),
    )
    recorded = await cluster_shape(connection)
    if recorded is not None and recorded != shards.count:
        _refuse_shape(recorded, shards)


def _refuse_shape(recorded: int, shards: Shards) -> NoReturn:
    raise ClusterShapeError(
        f"this database serves a cluster of {recorded} shards, but this process would run "
        f"{describe_shards(shards)}; give every process shard_count = {recorded} (and "
        "its own shard_ids), or stop them all and reshard (python -m bot.store.cluster)"
    )


async def shards_running(connection: asyncpg.Connection) -> list[int]:
    """The shard ids whose lease some process on this database holds now."""
    rows = await connection.fetch(
        "SELECT objid::BIGINT AS shard FROM pg_locks WHERE locktype = 'advisory' AND granted"
        " AND classid = $1::BIGINT::OID AND objsubid = 2"
        " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        " ORDER BY 1",
        SHARD_LOCK,
    )
    return [int(row["shard"]) for row in rows]


async def cluster_shape(connection: asyncpg.Connection) -> int | None:
    """The shard count the database's cluster runs with; None before its first claim."""
    count = await connection.fetchval("SELECT shard_count FROM cluster_shape WHERE id = 1")
    return None if count is None else int(count)


async def reshard(connection: asyncpg.Connection, count: int) -> int | None:
    """Record ``count`` as the cluster's shard count; the count it had (None: none yet).

    Only while no process runs a shard (ClusterShapeError names those still running). The
    games need nothing: each process restores its servers' games by the shard formula with
    the new count. The old leases' epochs go too, so a late write of an old process finds
    no epoch of its own and is refused.
    """
    if count < 1:
        raise ValueError("shard_count must be at least 1")
    async with connection.transaction():
        # Serialises with the shape check of a process starting now (its insert waits).
        await connection.execute("LOCK TABLE cluster_shape IN EXCLUSIVE MODE")
        running = await shards_running(connection)
        if running:
            noun = "shard" if len(running) == 1 else "shards"
            raise ClusterShapeError(
                f"{noun} {', '.join(map(str, running))} still run; stop every bot process "
                "of this database first"
            )
        old = await cluster_shape(connection)
        await connection.execute(
            "INSERT INTO cluster_shape (id, shard_count, changed_at) VALUES (1, $1, $2)"
            " ON CONFLICT (id) DO UPDATE SET shard_count = excluded.shard_count,"
            " changed_at = excluded.changed_at",
            count,
            int(time.time() * 1000),
        )
        await connection.execute("DELETE FROM shard_leases")
    return old


async def _claimed_since(connection: asyncpg.Connection, claim: ShardClaim) -> list[int]:
    """The shards of ``claim`` that another claim has taken since (their epoch moved on)."""
    rows = await connection.fetch(
        "SELECT shard_id FROM shard_leases WHERE shard_id = ANY($1::INTEGER[]) AND epoch <> $2"
        " ORDER BY shard_id",
        sorted(claim.shards.ids),
        claim.epoch,
    )
    return [row["shard_id"] for row in rows]


class ShardLease:
    """Advisory locks on a connection of its own, one per shard, held until released.

    PostgreSQL drops them when the connection ends, so a process that dies frees its shards
    for the replacement. When this process's own lease connection ends (a database restart,
    a dropped link), the lease says so in one line and takes the shards again; if another
    process has taken one meanwhile, ``on_taken`` is told (once) and the lease gives up.
    """

    def __init__(
        self,
        connection: asyncpg.Connection,
        dsn: str,
        claim: ShardClaim,
        timeout: float,
        on_taken: Callable[[str], None] | None,
    ) -> None:
        self.dsn = dsn
        self.claim = claim
        self.shards = claim.shards
        self.timeout = timeout
        self.on_taken = on_taken
        # Why the shards are no longer ours (another process took one), or None.
        self.lost: str | None = None
        self.regaining: asyncio.Task[None] | None = None
        self._released = False
        self.connection = connection
        self._watch(connection)

    @classmethod
    async def acquire(
        cls,
        dsn: str,
        shards: Shards,
        *,
        timeout: float = LEASE_TIMEOUT,
        on_taken: Callable[[str], None] | None = None,
    ) -> ShardLease:
        """Take every shard of ``shards`` or none, waiting up to ``timeout`` seconds for a
        shard whose holder just died; ShardTakenError names a shard still held, and a fault
        of the server or the link is a StoreIOError (as every store fault is)."""
        try:
            return await cls._acquire(dsn, shards, timeout, on_taken)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            reason = str(error) or type(error).__name__
            raise StoreIOError(
                f"cannot take the lease on {describe_shards(shards)}: {reason}"
            ) from error

    @classmethod
    async def _acquire(
        cls,
        dsn: str,
        shards: Shards,
        timeout: float,
        on_taken: Callable[[str], None] | None,
    ) -> ShardLease:
        connection = await _connect(dsn, shards, timeout)
        try:
            # At once, before waiting for any shard: a process of another shape is refused
            # now, not after a wait for a lock that means nothing to it.
            recorded = await cluster_shape(connection)
            if recorded is not None and recorded != shards.count:
                _refuse_shape(recorded, shards)
            taken = await _lock(connection, shards, 0.0)
            if taken:
                log.warning(
                    "%s held by another connection; waiting up to %g s for it to end",
                    describe_shards(shards, taken),
                    timeout,
                )
                taken = await _lock(connection, shards, timeout)
            if not taken:
                # Checked with the locks held: a reshard refuses while any shard is held,
                # so the count cannot change between this check and the claim.
                await _check_shape(connection, shards)
                epoch = await _claim(connection, shards)
        except BaseException:
            connection.terminate()
            raise
        if taken:
            await connection.close()  # releases whatever was taken
            raise ShardTakenError(
                f"{describe_shards(shards, taken)} is already run by another bot process "
                "on this database; stop it or start this one with other shard_ids"
            )
        return cls(connection, dsn, ShardClaim(shards, epoch), timeout, on_taken)

    @property
    def held(self) -> bool:
        """Whether this process holds its shards right now."""
        return not self._released and self.lost is None and self.regaining is None

    async def release(self) -> None:
        """Give the shards up (closing the lease's connection)."""
        self._released = True
        if self.regaining is not None:
            self.regaining.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.regaining
        if not self.connection.is_closed():
            await self.connection.close()

    def lose(self, reason: str) -> None:
        """The shards are another process's now: remember why and tell ``on_taken``, once
        (the lease's reconnection and a refused write may both find out)."""
        if self.lost is not None or self._released:
            return
        self.lost = reason
        if self.on_taken is not None:
            self.on_taken(reason)

    def _watch(self, connection: asyncpg.Connection) -> None:
        connection.add_termination_listener(self.dropped)

    def dropped(self, connection: asyncpg.Connection) -> None:
        """Told by asyncpg that the lease's connection ended (also after our own close): take
        the shards again unless they were given up."""
        if self._released or connection is not self.connection or self.regaining is not None:
            return
        self.regaining = asyncio.get_running_loop().create_task(
            self._regain(), name="shard-lease-regain"
        )

    async def _regain(self) -> None:
        what = describe_shards(self.shards)
        log.warning(
            "lost the database connection that holds %s; playing on and taking the lease again",
            what,
        )
        delay = 0.5
        try:
            while True:
                try:
                    connection = await _connect(self.dsn, self.shards, self.timeout)
                except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                    log.debug("shard lease: cannot reconnect yet: %s", error)
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 5.0)
                    continue
                try:
                    # Our old session may outlive the link for a while (the server has not
                    # noticed yet): wait for its end as a starting process would.
                    taken = await _lock(connection, self.shards, self.timeout)
                    if not taken:
                        # Free again, but claimed by another process in between (which may
                        # have stopped since): its writes are newer than our memory.
                        taken = await _claimed_since(connection, self.claim)
                except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                    connection.terminate()
                    await asyncio.sleep(delay)
                    continue
                if taken:
                    await connection.close()
                    self.lose(
                        f"{describe_shards(self.shards, taken)} was taken over by another bot "
                        "process while this one's database connection was down"
                    )
                    return
                self.connection = connection
                self._watch(connection)
                log.warning("holding the lease on %s again", what)
                return
        finally:
            self.regaining = None
