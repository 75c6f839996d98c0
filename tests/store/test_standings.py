"""Leaderboards (sorting, paging, scopes, variants, own rank) and /stats."""

from __future__ import annotations

import pytest

from bot.store import Store

from .factories import (
    ANNA,
    BEN,
    CARL,
    DORA,
    GUILD,
    OTHER_GUILD,
    alternative_round,
    new_game,
    standard_round,
)


async def play(
    store: Store,
    winners: list[tuple[int, int]],
    *,
    players: tuple[int, ...] = (ANNA, BEN, CARL),
    guild_id: int = GUILD,
    variant: str = "flip",
    match_winner: int | None = None,
) -> None:
    """One game whose rounds are won by (winner, points) in order."""
    game = await new_game(store, players, guild_id=guild_id, variant=variant)
    for round_no, (winner, points) in enumerate(winners, start=1):
        loser = next(p for p in players if p != winner)
        hands = {p: (points if p == loser else 0) for p in players}
        last = round_no == len(winners)
        await store.games.record_round(
            game.id,
            standard_round(round_no, winner, hands, match_winner=match_winner if last else None),
        )


async def many_players(store: Store, count: int) -> list[int]:
    """``count`` players in GUILD; player 1000+n has n points (n = 1..count)."""
    ids = [1000 + n for n in range(1, count + 1)]
    for player in ids:
        await play(store, [(player, player - 1000)], players=(player, ANNA))
    return ids


def ids(page_rows: list) -> list[int]:  # type: ignore[type-arg]
    """The player ids of leaderboard rows, in order."""
    return [row.player_id for row in page_rows]


async def test_sorted_by_points_by_default(store: Store) -> None:
    """The default leaderboard sorts by points, highest first."""
    await play(store, [(BEN, 40), (CARL, 70), (BEN, 10)])
    board = await store.standings.leaderboard(guild_id=GUILD)
    assert [(r.player_id, r.points) for r in board.rows] == [(CARL, 70), (BEN, 50), (ANNA, 0)]


async def test_sorted_by_rounds_won(store: Store) -> None:
    """sort=rounds_won orders by rounds won."""
    await play(store, [(BEN, 40), (CARL, 70), (BEN, 10)])
    board = await store.standings.leaderboard(guild_id=GUILD, sort="rounds_won")
    assert [(r.player_id, r.rounds_won) for r in board.rows] == [(BEN, 2), (CARL, 1), (ANNA, 0)]


async def test_sorted_by_matches_won(store: Store) -> None:
    """sort=matches_won orders by matches won."""
    await play(store, [(ANNA, 500)], match_winner=ANNA)
    await play(store, [(CARL, 500)], match_winner=CARL)
    await play(store, [(CARL, 500)], match_winner=CARL)
    board = await store.standings.leaderboard(guild_id=GUILD, sort="matches_won")
    assert [(r.player_id, r.matches_won) for r in board.rows] == [(CARL, 2), (ANNA, 1), (BEN, 0)]


async def test_rows_carry_games_played(store: Store) -> None:
    """Each row counts the games in which the player scored a round."""
    await play(store, [(BEN, 5), (BEN, 5)])
    await play(store, [(BEN, 5)], players=(BEN, DORA))
    board = await store.standings.leaderboard(guild_id=GUILD)
    assert {r.player_id: r.games_played for r in board.rows} == {BEN: 2, ANNA: 1, CARL: 1, DORA: 1}


async def test_equal_values_share_a_rank(store: Store) -> None:
    """Tied players share the rank; the next distinct value skips (1, 2, 2, 4)."""
    await play(store, [(ANNA, 30), (BEN, 20), (CARL, 20)], players=(ANNA, BEN, CARL, DORA))
    board = await store.standings.leaderboard(guild_id=GUILD)
    ranks = [(r.player_id, r.rank) for r in board.rows]
    assert ranks == [(ANNA, 1), (BEN, 2), (CARL, 2), (DORA, 4)]


async def test_pages_hold_page_size_rows(store: Store) -> None:
    """Page 2 of 25 players holds ranks 11-20 and there are 3 pages."""
    players = await many_players(store, 25)
    page = await store.standings.leaderboard(guild_id=GUILD, page=2)
    assert (page.page, page.total_pages, page.total_players) == (2, 3, 26)
    assert ids(page.rows) == sorted(players, reverse=True)[10:20]
    assert [r.rank for r in page.rows] == list(range(11, 21))


async def test_page_past_the_end_shows_the_last_page(store: Store) -> None:
    """A page number beyond the last is clamped to the last page."""
    await many_players(store, 25)
    page = await store.standings.leaderboard(guild_id=GUILD, page=99)
    assert (page.page, len(page.rows), page.rows[-1].player_id) == (3, 6, ANNA)


async def test_tie_across_a_page_boundary_keeps_its_rank(store: Store) -> None:
    """A player tied with the last row of the previous page shows that row's rank."""
    await play(store, [(ANNA, 30), (BEN, 20), (CARL, 20)], players=(ANNA, BEN, CARL, DORA))
    second = await store.standings.leaderboard(guild_id=GUILD, page=2, page_size=2)
    assert [(r.player_id, r.rank) for r in second.rows] == [(CARL, 2), (DORA, 4)]


async def test_empty_leaderboard_has_one_empty_page(store: Store) -> None:
    """A server without games gets page 1 of 1 with no rows."""
    page = await store.standings.leaderboard(guild_id=GUILD)
    assert (page.page, page.total_pages, page.rows) == (1, 1, [])


async def test_server_scope_only_counts_that_server(store: Store) -> None:
    """A server leaderboard ignores rounds played in other servers."""
    await play(store, [(BEN, 40)])
    await play(store, [(ANNA, 90)], guild_id=OTHER_GUILD)
    board = await store.standings.leaderboard(guild_id=GUILD)
    assert [(r.player_id, r.points) for r in board.rows] == [(BEN, 40), (ANNA, 0), (CARL, 0)]


async def test_global_scope_adds_every_server(store: Store) -> None:
    """The global leaderboard sums a player's results across servers."""
    await play(store, [(ANNA, 40)])
    await play(store, [(ANNA, 90), (BEN, 100)], guild_id=OTHER_GUILD)
    board = await store.standings.leaderboard(scope="global")
    assert [(r.player_id, r.points, r.games_played) for r in board.rows] == [
        (ANNA, 130, 2),
        (BEN, 100, 2),
        (CARL, 0, 2),
    ]


async def test_server_scope_needs_a_guild(store: Store) -> None:
    """Asking for a server leaderboard without a guild id is an error."""
    with pytest.raises(ValueError, match="guild_id"):
        await store.standings.leaderboard(scope="guild")


async def test_variant_filter(store: Store) -> None:
    """variant=classic counts only classic games; all counts both."""
    await play(store, [(ANNA, 40)], variant="flip")
    await play(store, [(BEN, 25)], variant="classic")
    await play(store, [(CARL, 5)], variant="flip", players=(CARL, DORA))
    classic = await store.standings.leaderboard(guild_id=GUILD, variant="classic")
    both = await store.standings.leaderboard(guild_id=GUILD, variant="all")
    assert [(r.player_id, r.points) for r in classic.rows] == [(BEN, 25), (ANNA, 0), (CARL, 0)]
    assert [(r.player_id, r.points) for r in both.rows] == [
        (ANNA, 40),
        (BEN, 25),
        (CARL, 5),
        (DORA, 0),
    ]


async def test_own_rank_when_not_on_the_page(store: Store) -> None:
    """rank_of finds a player far down the board with the same filters."""
    await many_players(store, 25)
    assert ANNA not in ids((await store.standings.leaderboard(guild_id=GUILD)).rows)
    row = await store.standings.rank_of(ANNA, guild_id=GUILD)
    assert row is not None and (row.rank, row.points, row.games_played) == (26, 0, 25)


async def test_own_rank_follows_the_sort(store: Store) -> None:
    """rank_of ranks by the requested sort key."""
    await play(store, [(BEN, 90), (CARL, 5), (CARL, 5)])
    by_points = await store.standings.rank_of(CARL, guild_id=GUILD)
    by_rounds = await store.standings.rank_of(CARL, guild_id=GUILD, sort="rounds_won")
    assert (by_points.rank, by_rounds.rank) == (2, 1)  # type: ignore[union-attr]


async def test_own_rank_of_a_stranger_is_none(store: Store) -> None:
    """A player with no results in the scope has no rank."""
    await play(store, [(BEN, 90)], guild_id=OTHER_GUILD)
    assert await store.standings.rank_of(BEN, guild_id=GUILD) is None


async def test_stats_sum_a_players_record(store: Store) -> None:
    """stats reports games, matches, rounds, points, points per round and best round."""
    await play(store, [(BEN, 40), (CARL, 70), (BEN, 10)])
    await play(store, [(BEN, 500)], match_winner=BEN, variant="classic")
    stats = await store.standings.stats(BEN, GUILD)
    assert (
        stats.name,
        stats.games_played,
        stats.matches_won,
        stats.rounds_won,
        stats.rounds_played,
        stats.total_points,
        stats.best_round,
    ) == ("Ben", 2, 1, 3, 4, 550, 500)
    assert stats.points_per_round == 137.5


async def test_stats_favourite_variant_is_the_most_played(store: Store) -> None:
    """The favourite variant is the one with the most games played."""
    await play(store, [(ANNA, 1)], variant="flip")
    await play(store, [(ANNA, 1)], variant="classic")
    await play(store, [(ANNA, 1)], variant="classic")
    assert (await store.standings.stats(ANNA)).favourite_variant == "classic"


async def test_stats_tie_between_variants_favours_flip(store: Store) -> None:
    """With as many Flip as classic games, the favourite is Flip."""
    await play(store, [(ANNA, 1)], variant="classic")
    await play(store, [(ANNA, 1)], variant="flip")
    assert (await store.standings.stats(ANNA)).favourite_variant == "flip"


async def test_stats_per_server_and_global(store: Store) -> None:
    """stats with a guild counts that server; without one, every server."""
    await play(store, [(ANNA, 10)])
    await play(store, [(ANNA, 20)], guild_id=OTHER_GUILD)
    here = await store.standings.stats(ANNA, GUILD)
    everywhere = await store.standings.stats(ANNA)
    assert (here.total_points, everywhere.total_points) == (10, 30)


async def test_stats_of_a_new_player_are_zero(store: Store) -> None:
    """A player without rounds gets zeros, no favourite and 0 points per round."""
    stats = await store.standings.stats(DORA)
    assert (stats.name, stats.games_played, stats.points_per_round, stats.favourite_variant) == (
        None,
        0,
        0.0,
        None,
    )


async def test_stats_count_alternative_scoring_as_awarded(store: Store) -> None:
    """In an alternative game a player's total is the points left in their own hands."""
    game = await new_game(store, (ANNA, BEN))
    await store.games.record_round(game.id, alternative_round(1, ANNA, {ANNA: 0, BEN: 14}))
    await store.games.record_round(game.id, alternative_round(2, BEN, {ANNA: 8, BEN: 0}))
    stats = await store.standings.stats(BEN)
    assert (stats.total_points, stats.rounds_won, stats.best_round) == (14, 1, 14)


@pytest.mark.parametrize("key", ["nomercy", "allwild", "junior"])
async def test_stats_favourite_variant_can_be_any_registered_variant(
    store: Store, key: str
) -> None:
    """A player who plays a newer variant most has it as their favourite."""
    await play(store, [(ANNA, 1)], variant="flip")
    await play(store, [(ANNA, 1)], variant=key)
    await play(store, [(ANNA, 1)], variant=key)
    assert (await store.standings.stats(ANNA)).favourite_variant == key


async def test_each_variant_has_its_own_board(store: Store) -> None:
    """A No Mercy game counts on the No Mercy board and on all, not on Flip's."""
    await play(store, [(ANNA, 40)], variant="nomercy")
    await play(store, [(BEN, 10)], variant="flip")
    nomercy = await store.standings.leaderboard(scope="guild", guild_id=GUILD, variant="nomercy")
    flip = await store.standings.leaderboard(scope="guild", guild_id=GUILD, variant="flip")
    everything = await store.standings.leaderboard(scope="guild", guild_id=GUILD)
    assert [(row.player_id, row.points) for row in nomercy.rows][:1] == [(ANNA, 40)]
    assert [(row.player_id, row.points) for row in flip.rows][:1] == [(BEN, 10)]
    assert [(row.player_id, row.points) for row in everything.rows][:2] == [(ANNA, 40), (BEN, 10)]
