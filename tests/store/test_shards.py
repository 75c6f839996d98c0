"""Shard clusters: each process restores only its servers, and owns its shards alone."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.config import Settings
from bot.store import Shards, ShardTakenError, Store

from .conftest import TEST_POOL
from .factories import ANNA, BEN, new_game

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
            await second.claim_shards(Shards(4, frozenset({1, 2})))
        assert "\n" not in str(refused.value)
        await third.claim_shards(Shards(4, frozenset({2, 3})))  # shard 2 was not kept by second
        await pg_store.close()  # the first process stops (or dies: its connection ends)
        await replacement.claim_shards(Shards(4, frozenset({0, 1})))
        game = await new_game(replacement, (ANNA, BEN), guild_id=guild_on_shard(0, 4))
        assert [g.game.id for g in await replacement.snapshots.load_live_games()] == [game.id]
    finally:
        for store in (second, third, replacement):
            await store.close()


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
