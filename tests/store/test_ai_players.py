"""Computer players ("ai1".."ai9", stored as -1..-9): rounds recorded, never on standings."""

from __future__ import annotations

import pytest

from bot.engine import RoundResult
from bot.engine.cards import Side
from bot.store import RoundRecord, Store, store_player_id
from bot.store.models import Scope, SortKey

from .factories import ANNA, BEN, CHANNEL, GUILD, standard_round

AI_CARA = -3


async def ai_game(store: Store, players: tuple[int, ...] = (ANNA, AI_CARA, BEN)) -> int:
    """A live flip game in GUILD seating ``players``; computer players get their table names."""
    seats = [(p, "AI Cara (hard)" if p < 0 else f"P{p}") for p in players]
    game = await store.games.create_game(GUILD, CHANNEL, "flip", "{}", seats)
    return game.id


def engine_result(winner: str, hands: dict[str, int], round_no: int = 1) -> RoundResult:
    """A standard-scoring engine RoundResult: the winner is awarded every other hand."""
    return RoundResult(
        round_no=round_no,
        winner=winner,
        side=Side.DARK,
        hand_points=hands,
        awarded={winner: sum(hands.values())},
    )


@pytest.mark.parametrize(
    ("engine_id", "stored"),
    [("123456789012345678", 123456789012345678), ("ai1", -1), ("ai9", -9), ("ai12", -12)],
)
def test_store_player_id_maps_discord_and_computer_ids(engine_id: str, stored: int) -> None:
    """Discord ids stay as they are; computer player "aiN" becomes -N."""
    assert store_player_id(engine_id) == stored


@pytest.mark.parametrize("engine_id", ["ai", "ai0", "ai-1", "bob", "", "-5", "AI1"])
def test_store_player_id_rejects_other_ids(engine_id: str) -> None:
    """Anything that is neither a Discord id nor "aiN" (N >= 1) is refused."""
    with pytest.raises(ValueError, match="not a Discord id or computer player"):
        store_player_id(engine_id)


def test_from_engine_maps_computer_players_to_negative_ids() -> None:
    """A round won by ai3 is keyed -3 in the winner, every score line and the match winner."""
    result = engine_result("ai3", {"ai3": 0, "101": 20, "ai1": 7})
    record = RoundRecord.from_engine(result, "standard", match_winner="ai3")
    assert (record.winner_id, record.match_winner_id, record.side) == (-3, -3, "dark")
    assert {(s.player_id, s.hand_points, s.points_awarded) for s in record.scores} == {
        (-3, 0, 27),
        (101, 20, 0),
        (-1, 7, 0),
    }


async def test_create_game_seats_a_computer_player_with_its_name(store: Store) -> None:
    """A computer seat is stored under its negative id with its table name."""
    game_id = await ai_game(store)
    game = await store.games.get_game(game_id)
    assert game is not None
    assert [(p.player_id, p.name) for p in game.players] == [
        (ANNA, f"P{ANNA}"),
        (AI_CARA, "AI Cara (hard)"),
        (BEN, f"P{BEN}"),
    ]


async def test_round_won_by_computer_is_recorded_with_every_hand(store: Store) -> None:
    """The game keeps a computer's round win and every player's hand and points."""
    game_id = await ai_game(store)
    hands = {ANNA: 12, AI_CARA: 0, BEN: 30}
    assert await store.games.record_round(game_id, standard_round(1, AI_CARA, hands))
    game = await store.games.get_game(game_id)
    assert game is not None
    totals = {p.player_id: (p.total_points, p.rounds_won, p.rounds_played) for p in game.players}
    assert totals == {ANNA: (0, 0, 1), AI_CARA: (42, 1, 1), BEN: (0, 0, 1)}


async def test_computer_never_appears_on_a_leaderboard(store: Store) -> None:
    """Every scope and sort lists the humans only, ranked among themselves."""
    game_id = await ai_game(store)
    await store.games.record_round(
        game_id, standard_round(1, AI_CARA, {ANNA: 5, AI_CARA: 0, BEN: 80})
    )
    await store.games.record_round(
        game_id, standard_round(2, ANNA, {ANNA: 0, AI_CARA: 9, BEN: 1}, match_winner=ANNA)
    )
    scopes: list[tuple[Scope, int | None]] = [("guild", GUILD), ("global", None)]
    sorts: list[SortKey] = ["points", "matches_won", "rounds_won"]
    for scope, guild in scopes:
        for sort in sorts:
            board = await store.standings.leaderboard(
                scope=scope, guild_id=guild, variant="flip", sort=sort
            )
            assert [(r.rank, r.player_id) for r in board.rows] == [(1, ANNA), (2, BEN)]
            assert board.total_players == 2


async def test_computer_match_win_counts_for_nobody(store: Store) -> None:
    """A match a computer wins finishes the game but adds no human's or computer's match win."""
    game_id = await ai_game(store)
    await store.games.record_round(
        game_id, standard_round(1, AI_CARA, {ANNA: 500, AI_CARA: 0, BEN: 3}, match_winner=AI_CARA)
    )
    game = await store.games.get_game(game_id)
    assert game is not None and (game.status, game.winner_id) == ("finished", AI_CARA)
    board = await store.standings.leaderboard(guild_id=GUILD, sort="matches_won")
    assert [(r.player_id, r.matches_won) for r in board.rows] == [(ANNA, 0), (BEN, 0)]


async def test_computer_has_no_rank_or_stats(store: Store) -> None:
    """rank_of gives None and stats are empty for a computer that won a round."""
    game_id = await ai_game(store)
    await store.games.record_round(game_id, standard_round(1, AI_CARA, {ANNA: 5, AI_CARA: 0}))
    assert await store.standings.rank_of(AI_CARA, guild_id=GUILD) is None
    stats = await store.standings.stats(AI_CARA, GUILD)
    assert (stats.games_played, stats.rounds_won, stats.total_points) == (0, 0, 0)


async def test_humans_keep_their_totals_beside_a_computer(store: Store) -> None:
    """A human's points, rounds and games are counted as usual in a game with a computer."""
    game_id = await ai_game(store)
    await store.games.record_round(game_id, standard_round(1, BEN, {BEN: 0, AI_CARA: 25}))
    stats = await store.standings.stats(BEN, GUILD)
    assert (stats.games_played, stats.rounds_won, stats.total_points) == (1, 1, 25)
    rank = await store.standings.rank_of(BEN, guild_id=GUILD)
    assert rank is not None and (rank.rank, rank.points) == (1, 25)
