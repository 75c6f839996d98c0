"""Leaderboards in O(page): a kept count per board, keyset pages, ranks from the ties only."""

from __future__ import annotations

from bot.store import LeaderboardPage, Store
from bot.store.repositories.standings import BoardKey, board_key

from .factories import ANNA, BEN, GUILD, new_game, query, standard_round


async def tied_board(store: Store) -> list[int]:
    """Nine players in GUILD with points 50, 40, 40, 40, 40, 30, 20, 20, 10 (ids 1001..1009),
    and Anna, who lost every game, with 0."""
    points = [50, 40, 40, 40, 40, 30, 20, 20, 10]
    players = [1001 + n for n in range(len(points))]
    for player, value in zip(players, points, strict=True):
        game = await new_game(store, (player, ANNA))
        await store.games.record_round(game.id, standard_round(1, player, {player: 0, ANNA: value}))
    return players


def key(board: LeaderboardPage, index: int) -> BoardKey:
    """The key of one row of a points board."""
    return board_key(board.rows[index], "points")


async def test_keyset_pages_match_the_pages_by_number(store: Store) -> None:
    """Paging forward after the last row and back before the first row gives the same rows
    and ranks as asking for the page by number, ties across the boundaries included."""
    await tied_board(store)
    by_number = [
        await store.standings.leaderboard(guild_id=GUILD, page=n, page_size=3) for n in (1, 2, 3, 4)
    ]
    forward = [by_number[0]]
    for n in (2, 3, 4):
        forward.append(
            await store.standings.leaderboard(
                guild_id=GUILD, page=n, page_size=3, after=key(forward[-1], -1)
            )
        )
    backward = [by_number[3]]
    for n in (3, 2, 1):
        backward.insert(
            0,
            await store.standings.leaderboard(
                guild_id=GUILD, page=n, page_size=3, before=key(backward[0], 0)
            ),
        )
    assert forward == by_number == backward
    ranks = [row.rank for board in by_number for row in board.rows]
    assert ranks == [1, 2, 2, 2, 2, 6, 7, 7, 9, 10]


async def test_the_board_size_is_kept_without_counting(store: Store) -> None:
    """The count the triggers keep follows new players and deleted rows."""
    await tied_board(store)
    assert (await store.standings.leaderboard(guild_id=GUILD)).total_players == 10

    async def forget(connection) -> None:  # type: ignore[no-untyped-def]
        await connection.execute("DELETE FROM player_totals WHERE player_id = ?", (1001,))

    await store.database.write(forget)
    board = await store.standings.leaderboard(guild_id=GUILD)
    assert board.total_players == 9 and 1001 not in [row.player_id for row in board.rows]
    sizes = await query(
        store, "SELECT players FROM board_sizes WHERE scope = 0 AND variant = 'all'"
    )
    assert sizes == [(9,)]


async def test_a_key_for_a_page_past_the_end_reads_the_last_page(store: Store) -> None:
    """A key with a page number past the end is ignored: the last page by offset."""
    await tied_board(store)
    board = await store.standings.leaderboard(
        guild_id=GUILD, page=9, page_size=3, after=BoardKey(0, BEN, 1)
    )
    assert board.page == 4 and [row.player_id for row in board.rows] == [ANNA]


async def exact_ranks(store: Store, players: list[int]) -> list[int | None]:
    """Each player's rank on GUILD's points board, by counting the players ahead."""
    ranks = []
    for player in players:
        row = await store.standings.rank_of(player, guild_id=GUILD)
        ranks.append(None if row is None else row.rank)
    return ranks


async def test_the_rank_table_gives_the_counted_ranks(store: Store) -> None:
    """On a board ranked from the rank table every player's rank is the counted one, ties
    sharing the first tied position."""
    players = [*await tied_board(store), ANNA, BEN]
    counted = await exact_ranks(store, players)
    store.standings.exact_rank_limit = 0
    assert await exact_ranks(store, players) == counted == [1, 2, 2, 2, 2, 6, 7, 7, 9, 10, None]


async def test_the_rank_table_lags_others_until_refreshed(store: Store) -> None:
    """Others' new points reach a rank only when the table is read again; the player's own
    value is always fresh."""
    players = await tied_board(store)
    store.standings.exact_rank_limit = 0
    assert (await store.standings.rank_of(players[-1], guild_id=GUILD)).rank == 9  # type: ignore[union-attr]
    game = await new_game(store, (players[0], BEN))
    await store.games.record_round(game.id, standard_round(1, BEN, {players[0]: 15, BEN: 0}))
    # BEN now has 15 points, above the last player's 10; the table read before does not know.
    assert (await store.standings.rank_of(players[-1], guild_id=GUILD)).rank == 9  # type: ignore[union-attr]
    assert (await store.standings.rank_of(BEN, guild_id=GUILD)).rank == 9  # type: ignore[union-attr]
    await store.standings.refresh_ranks(guild_id=GUILD)
    assert (await store.standings.rank_of(players[-1], guild_id=GUILD)).rank == 10  # type: ignore[union-attr]


async def test_a_stale_rank_table_is_read_again_in_the_background(store: Store) -> None:
    """Past its age a table still answers once, while a new read starts; the next rank has
    the others' new points."""
    players = await tied_board(store)
    store.standings.exact_rank_limit = 0
    await store.standings.rank_of(players[-1], guild_id=GUILD)
    game = await new_game(store, (players[0], BEN))
    await store.games.record_round(game.id, standard_round(1, BEN, {players[0]: 15, BEN: 0}))
    store.standings.rank_max_age = 0.0
    stale = await store.standings.rank_of(players[-1], guild_id=GUILD)
    await store.standings.settle()
    fresh = await store.standings.rank_of(players[-1], guild_id=GUILD)
    assert (stale and stale.rank, fresh and fresh.rank) == (9, 10)
