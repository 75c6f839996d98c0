"""A shard cluster: bot processes of one bot on one PostgreSQL, each running its own shards.

SimCord runs one bot per event loop, so the processes here take turns at the simulator: a bot
that the simulator detaches (``env.restart_bot``) keeps running on the database, holding its
shard lease and its pool, as a process whose servers are quiet just now would. A crash is
what SIGKILL leaves: nothing of the process runs again, no last save, no goodbye to the
database; its sockets are just gone.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.client import UnoBot
from bot.config import Settings
from bot.engine.snapshot import dump_state
from bot.store import Shards, ShardTakenError, Store, StoreIOError
from tests.store.conftest import (
    create_database,
    drop_database,
    end_session_of,
    require_postgres,
    someone_waits_for_a_shard,
    until,
)

from .conftest import World, make_settings
from .driver import Table, buttons, embed_text, rig
from .test_leaderboard import seed, who


@dataclass
class Cluster:
    """One PostgreSQL database and the bot processes started on it (closed at the end)."""

    url: str
    tmp_path: Any
    bots: list[UnoBot] = field(default_factory=list)

    def settings(self, shard_ids: str, **overrides: Any) -> Settings:
        """A process of two shards in all, running ``shard_ids``."""
        return make_settings(
            self.tmp_path,
            db_url=self.url,
            shard_count=2,
            shard_ids=shard_ids,
            # A replacement waits up to this for a killed process's lease to end (the server
            # ends it within milliseconds; the margin is for a loaded test machine).
            shard_lease_timeout=5.0,
            **overrides,
        )

    def process(self, shard_ids: str) -> UnoBot:
        """A new bot process for ``shard_ids`` (not started yet)."""
        bot = UnoBot(self.settings(shard_ids))
        self.bots.append(bot)
        return bot


@pytest.fixture
def cluster_url() -> Iterator[str]:
    """A fresh PostgreSQL database; skipped without a server (a failure under CI=true)."""
    require_postgres()
    url = create_database()
    yield url
    drop_database(url)


@pytest.fixture
async def cluster(cluster_url: str, tmp_path: Any) -> AsyncIterator[Cluster]:
    """The cluster's database; every process's store is closed afterwards."""
    made = Cluster(cluster_url, tmp_path)
    yield made
    for bot in made.bots:
        store = bot._store
        if store is not None:
            await store.close()


@pytest.fixture
def simcord_bot(cluster: Cluster) -> UnoBot:
    """The first process: shard 0 of 2."""
    return cluster.process("0")


def club(env: Any, shard: int, people: list[Any]) -> World:
    """A server on ``shard`` with a #uno channel and ``people`` as members."""
    guild = env.create_guild(f"Shard {shard} club", shard_id=shard)
    channel = guild.create_text_channel("uno")
    members = [guild.add_member(person) for person in people]
    return World(env, guild, channel, members, members[-1])


def people(env: Any) -> list[Any]:
    """Four users, who may be members of several servers."""
    return [env.create_user(name) for name in ("anna", "ben", "cara", "dan")]


def crash(bot: UnoBot) -> None:
    """Kill a process as SIGKILL does: its tasks stop, and its kernel closes its sockets (the
    lease's and the pool's) without a word to the server. Nothing is saved on the way."""
    store = bot.store
    lease = store.lease
    assert lease is not None
    # Nothing of a killed process hears its connections end: in-process, unhook the lease.
    lease.connection.remove_termination_listener(lease.dropped)
    lease.connection.terminate()
    store.database.pool.terminate()


async def refused(url: str, shard: int) -> bool:
    """Whether a new process claiming ``shard`` of 2 now is refused (a live process runs it)."""
    probe = await Store.open_postgres(url)
    try:
        await probe.claim_shards(Shards(2, frozenset({shard})), lease_timeout=0.1)
    except ShardTakenError:
        return True
    finally:
        await probe.close()
    return False


@pytest.mark.slow
async def test_a_killed_process_is_replaced_and_its_game_goes_on(
    simcord_env: Any, cluster: Cluster
) -> None:
    """Two processes on one PostgreSQL, each with a game; the one running shard 0 is killed
    mid-game. Its replacement (same shard_ids) takes the shard, resumes that game alone, and
    the old table and hand buttons play on; the other process keeps its shard and game."""
    env = simcord_env
    first = env.bot
    everyone = people(env)
    here, there = club(env, 0, everyone), club(env, 1, everyone)
    table = Table(here, 2)
    await table.start("uno classic start")
    rig(table, ["R5 R6 R7", "R1 R2 R3"], top="R9", current=0)
    anna, ben = table.game.players
    hand_anna = await table.hand(anna)
    red_5 = next(b.code for b in buttons(hand_anna) if b.label == "Red 5")
    await table.press(anna, hand_anna, red_5)
    hand_ben = await table.hand(ben)
    before = dump_state(table.game)
    old_table = table.public

    second = cluster.process("1")
    await env.restart_bot(second)  # the first process runs on, out of the simulator's sight
    other = Table(there, 2)
    await other.start("uno classic start")
    other_game = dump_state(other.game)

    crash(first)
    replacement = cluster.process("0")
    await env.restart_bot(replacement)

    assert list(replacement.sessions.by_channel) == [here.channel.id]
    restored = replacement.sessions.by_channel[here.channel.id]
    assert restored.state.game is not None and dump_state(restored.state.game) == before
    assert "The bot restarted" in embed_text(table.public)
    again = await table.actor(anna).click(old_table, label="Hand")
    assert again.ephemeral and "2 cards" in embed_text(again.response)
    # (Ben's move then posts the table anew through his click's token: none survives a crash.)
    red_1 = next(b.custom_id for b in buttons(hand_ben) if b.label == "Red 1")
    await table.actor(ben).click(hand_ben, custom_id=red_1)
    assert restored.state.game.top_face().name() == "Red 1"

    # The second process still runs shard 1 and its game, untouched by the failover.
    assert second.store.lease is not None and second.store.lease.held
    assert await refused(cluster.url, 1) and await refused(cluster.url, 0)
    assert dump_state(second.sessions.by_channel[there.channel.id].state.game) == other_game  # type: ignore[arg-type]


@pytest.mark.slow
async def test_every_process_answers_leaderboard_and_stats_the_same(
    simcord_env: Any, cluster: Cluster
) -> None:
    """The global leaderboard and a player's global /stats read the same whichever process
    answers (one in a server of shard 0, the other in a server of shard 1). Each server's
    games are recorded by the process of its shard, the only one that may write them."""
    env = simcord_env
    first = env.bot
    everyone = people(env)
    here, there = club(env, 0, everyone), club(env, 1, everyone)
    anna, ben, cara, dan = here.members
    await seed(first, here.guild.id, who(anna), who(dan), [120, 30], match_won=True)
    second = cluster.process("1")
    await env.restart_bot(second)
    await seed(second, there.guild.id, who(ben), who(cara), [75])
    await seed(second, there.guild.id, who(cara), who(anna), [10, 10], variant="classic")

    def answers(world: World) -> list[Any]:
        return [
            world.members[0].slash(world.channel, "leaderboard", scope="global"),
            world.members[1].slash(world.channel, "stats", user=world.members[0], scope="global"),
            world.members[0].slash(world.channel, "stats", scope="global"),
        ]

    from_second = [embed_text((await ask).response) for ask in answers(there)]
    # The simulator talks to one process at a time: shard 0 answers through a replacement.
    crash(first)
    await env.restart_bot(cluster.process("0"))
    from_first = [embed_text((await ask).response) for ask in answers(here)]

    assert from_first == from_second
    board, stats, own = from_first
    assert all(name in board for name in ("anna", "ben", "cara", "dan"))
    assert "150" in board and "150" in stats and stats == own


@pytest.mark.slow
async def test_a_process_restores_only_its_own_shards_games_and_lobbies(
    simcord_env: Any, cluster: Cluster
) -> None:
    """Each server's game and lobby come back in the process of its shard
    ((guild_id >> 22) % shard_count), never in the other."""
    env = simcord_env
    everyone = people(env)
    worlds = [club(env, 0, everyone), club(env, 1, everyone)]
    lobbies = [world.guild.create_text_channel("lobby") for world in worlds]
    processes = [env.bot, cluster.process("1")]
    for shard, world in enumerate(worlds):
        if shard:
            await env.restart_bot(processes[shard])
        await Table(world, 2).start("uno flip start")
        await world.members[2].slash(lobbies[shard], "uno classic start")
    for bot in processes:
        crash(bot)

    for shard, world in enumerate(worlds):
        replacement = cluster.process(str(shard))
        await env.restart_bot(replacement)
        assert sorted(replacement.sessions.by_channel) == sorted(
            [world.channel.id, lobbies[shard].id]
        )
        assert replacement.sessions.by_channel[lobbies[shard].id].state.game is None
        assert all(
            session.state.guild_id is not None and (session.state.guild_id >> 22) % 2 == shard
            for session in replacement.sessions.by_channel.values()
        )


async def test_a_shard_taken_while_the_lease_was_down_stops_the_process(
    simcord_env: Any, cluster: Cluster, caplog: pytest.LogCaptureFixture
) -> None:
    """The lease's connection drops and another process, waiting for the shard, takes it
    first: this process says so in one line, writes nothing more, and stops."""
    env = simcord_env
    bot = env.bot
    here = club(env, 0, people(env))
    await Table(here, 2).start("uno classic start")
    store = bot.store
    lease = store.lease
    assert lease is not None
    lease.timeout = 1.0  # how long the lease waits for its shard once reconnected
    newer = await Store.open_postgres(cluster.url)
    try:
        taking = asyncio.create_task(
            newer.claim_shards(Shards(2, frozenset({0})), lease_timeout=10.0)
        )
        await someone_waits_for_a_shard(cluster.url)
        caplog.set_level(logging.ERROR, logger="bot.client")
        await end_session_of(lease.connection, cluster.url)
        await asyncio.wait_for(taking, 10.0)
        # The lease notices, reconnects, waits up to shard_lease_timeout for the shard.
        await until(lambda: lease.lost is not None)  # within lease.timeout, set above
        assert bot._stopping is not None
        await asyncio.wait_for(asyncio.shield(bot._stopping), 10.0)
        reason = (
            "shard 0 of 2 was taken over by another bot process while this one's database "
            "connection was down"
        )
        assert bot.shards_lost == reason
        assert [r.getMessage() for r in caplog.records if r.name == "bot.client"] == [
            f"{reason}; this process stops and saves nothing more"
        ]
        assert bot.is_closed()
        with pytest.raises(StoreIOError, match=r"^not saved: shard 0 of 2 was taken over"):
            await store.lobbies.save(1, "late", here.guild.id, "{}")
        assert [live.game.guild_id for live in await newer.snapshots.load_live_games()] == [
            here.guild.id
        ]
    finally:
        await newer.close()
