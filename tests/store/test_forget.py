"""Forgetting a player (/uno forget-me, ``unoflip forget``): standings and stats erased."""

from __future__ import annotations

from bot.store import Store

from .factories import ANNA, BEN, CARL, GUILD, new_game, query, standard_round


async def finished_game(store: Store, winner: int, points: int) -> None:
    """A finished game of Anna, Ben and Carl with one round, won by ``winner``."""
    game = await new_game(store, (ANNA, BEN, CARL))
    hands = {player: (points if player != winner else 0) for player in (ANNA, BEN, CARL)}
    await store.games.record_round(game.id, standard_round(1, winner, hands, match_winner=winner))
    await store.games.finish_game(game.id, winner)


async def test_forget_erases_the_standings_stats_and_name(store: Store) -> None:
    """After forget the player is on no leaderboard, has no stats and no stored name."""
    await finished_game(store, ANNA, 30)
    assert await store.standings.forget(ANNA) > 0
    board = await store.standings.leaderboard(guild_id=GUILD)
    assert ANNA not in [row.player_id for row in board.rows]
    assert await store.standings.rank_of(ANNA, guild_id=GUILD) is None
    stats = await store.standings.stats(ANNA, GUILD)
    assert (stats.games_played, stats.total_points, stats.name) == (0, 0, "")
    scores = await query(store, "SELECT COUNT(*) FROM round_scores WHERE player_id = ?", (ANNA,))
    assert scores[0][0] == 0


async def test_forget_leaves_the_other_players_standings(store: Store) -> None:
    """Ben's and Carl's rows and points are exactly as before."""
    await finished_game(store, BEN, 40)
    before = await store.standings.leaderboard(guild_id=GUILD)
    await store.standings.forget(ANNA)
    after = await store.standings.leaderboard(guild_id=GUILD)
    kept = [row for row in before.rows if row.player_id != ANNA]
    assert [(r.player_id, r.points) for r in after.rows] == [(r.player_id, r.points) for r in kept]


async def test_a_live_game_keeps_the_players_seat_and_rounds(store: Store) -> None:
    """A game in progress keeps the seat, the name and its rounds; the totals go."""
    game = await new_game(store, (ANNA, BEN))
    await store.games.record_round(game.id, standard_round(1, ANNA, {ANNA: 0, BEN: 20}))
    await store.standings.forget(ANNA)
    seats = await query(store, "SELECT player_id FROM game_players WHERE game_id = ?", (game.id,))
    assert sorted(int(str(row[0])) for row in seats) == [ANNA, BEN]
    scores = await query(store, "SELECT COUNT(*) FROM round_scores WHERE player_id = ?", (ANNA,))
    assert scores[0][0] == 1
    assert (await store.standings.stats(ANNA, GUILD)).name == "Anna"
    assert await store.standings.rank_of(ANNA, guild_id=GUILD) is None


async def test_forgetting_an_unknown_player_erases_nothing(store: Store) -> None:
    """A player the store never saw: nothing to erase, no error."""
    assert await store.standings.forget(CARL) == 0
