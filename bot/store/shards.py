"""Which servers a bot process owns when the bot runs as several processes (a shard cluster).

Discord puts server ``guild_id`` on shard ``(guild_id >> 22) % shard_count``. A process runs
some shard ids; the store then restores only those servers' games and lobbies, and on
PostgreSQL holds one advisory lock per shard for as long as it runs, so a second process
started with the same shard ids is refused instead of playing the same games twice.
"""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg

from .errors import StoreError

# First key of the two-key advisory locks that stand for shard leases (the second is the id).
SHARD_LOCK = 0x756E6F73  # "unos"


class ShardTakenError(StoreError):
    """Another live process already owns one of this process's shards."""


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

    def owns(self, guild_id: int) -> bool:
        """Whether this process runs the shard of server ``guild_id``."""
        return (guild_id >> 22) % self.count in self.ids

    def sql(self, column: str) -> tuple[str, list[int]]:
        """A WHERE condition on a guild id column keeping this process's servers, and params."""
        marks = ", ".join("?" * len(self.ids))
        return f"(({column} >> 22) % ?) IN ({marks})", [self.count, *sorted(self.ids)]


class ShardLease:
    """Advisory locks on a connection of its own, one per shard, held until released.

    PostgreSQL drops them when the connection ends, so a process that dies (or loses its
    connection) frees its shards for the replacement at once.
    """

    def __init__(self, connection: asyncpg.Connection, shards: Shards) -> None:
        self._connection = connection
        self.shards = shards

    @classmethod
    async def acquire(cls, dsn: str, shards: Shards) -> ShardLease:
        """Take every shard of ``shards`` or none; ShardTakenError names a taken one."""
        connection = await asyncpg.connect(dsn)
        taken: list[int] = []
        try:
            for shard in sorted(shards.ids):
                got = await connection.fetchval(
                    "SELECT pg_try_advisory_lock($1, $2)", SHARD_LOCK, shard
                )
                if not got:
                    taken.append(shard)
        except BaseException:
            await connection.close()
            raise
        if taken:
            await connection.close()  # releases whatever was taken
            listed = ", ".join(map(str, taken))
            raise ShardTakenError(
                f"shard {listed} of {shards.count} is already run by another bot process "
                "on this database; stop it or start this one with other shard_ids"
            )
        return cls(connection, shards)

    async def release(self) -> None:
        """Give the shards up (closing the lease's connection)."""
        await self._connection.close()
