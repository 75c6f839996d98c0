"""Every registered variant is stored: its games saved and restored, its rounds scored."""

from __future__ import annotations

import pytest

from bot.engine import Phase, RuleSet, dumps
from bot.engine.simulate import RandomAgent
from bot.engine.variants import VARIANTS, UnknownVariant
from bot.persistence import Persistence
from bot.store import Store

from .factories import ANNA, BEN, GUILD, new_game, play_and_save, query, started_table

NEW_VARIANTS = ("nomercy", "allwild", "junior")
# All Wild to a target no hand reaches, so its game is still live after a round.
RULES = {
    "nomercy": RuleSet(variant="nomercy"),
    "allwild": RuleSet(variant="allwild", target=10_000),
    "junior": RuleSet(variant="junior"),
}


async def play_one_round(persistence: Persistence, key: str) -> Phase:
    """A real game of ``key`` played with random legal moves to the end of its first hand,
    saved after every move as the bot does; the phase it ends in."""
    table = started_table(seed=1, rules=RULES[key])
    game = table.game
    assert game is not None
    agent = RandomAgent(seed=1, patience=0)
    assert await persistence.save(table)
    while game.phase not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
        assert await play_and_save(persistence, table, agent)
    return game.phase


@pytest.mark.parametrize("key", VARIANTS)
async def test_a_game_of_every_variant_is_created(store: Store, key: str) -> None:
    """create_game takes every registered variant's key and reads it back."""
    game = await new_game(store, variant=key)
    assert game.variant == key


@pytest.mark.parametrize("key", NEW_VARIANTS)
async def test_a_round_of_a_new_variant_is_scored(store: Store, key: str) -> None:
    """The first hand of a real game is recorded on the variant's own board."""
    await play_one_round(Persistence(store), key)
    rounds = await query(store, "SELECT COUNT(*) FROM rounds")
    assert rounds == [(1,)]
    board = await store.standings.leaderboard(
        scope="guild", guild_id=GUILD, variant=key, sort="rounds_won"
    )
    assert sorted(row.player_id for row in board.rows) == [ANNA, BEN]
    assert sum(row.rounds_won for row in board.rows) == 1


@pytest.mark.parametrize("key", ["nomercy", "junior"])
async def test_a_one_hand_game_finishes_with_its_hand(store: Store, key: str) -> None:
    """A one-hand game's first hand ends the match: its winner has won one match."""
    assert await play_one_round(Persistence(store), key) is Phase.MATCH_OVER
    board = await store.standings.leaderboard(
        scope="guild", guild_id=GUILD, variant=key, sort="matches_won"
    )
    assert [row.matches_won for row in board.rows] == [1, 0]
    assert await store.snapshots.load_live_games() == []


async def test_a_live_all_wild_game_is_restored(store: Store) -> None:
    """An All Wild game saved after a scored round comes back as it was saved."""
    persistence = Persistence(store)
    assert await play_one_round(persistence, "allwild") is Phase.ROUND_OVER
    (live,) = await store.snapshots.load_live_games()
    assert live.game.variant == "allwild"
    table = Persistence(store).restore_game(live)
    assert table is not None and table.game is not None
    assert table.rules.variant == "allwild"
    assert live.state_json == dumps(table.game)


async def test_junior_scores_no_points(store: Store) -> None:
    """A Junior hand awards nobody points: its standings are wins alone."""
    await play_one_round(Persistence(store), "junior")
    awarded = await query(store, "SELECT SUM(points_awarded), SUM(hand_points) FROM round_scores")
    assert awarded == [(0, 0)]


async def test_an_unregistered_variant_is_refused(store: Store) -> None:
    """create_game refuses a key the registry does not hold and writes nothing."""
    with pytest.raises(UnknownVariant):
        await new_game(store, variant="speed")
    assert await query(store, "SELECT COUNT(*) FROM games") == [(0,)]
