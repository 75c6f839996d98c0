"""Recording rounds: exactly once, all or nothing, both scoring modes, match ends."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.engine import RoundResult
from bot.engine.cards import Side
from bot.store import GameNotLiveError, RoundRecord, Store, StoreIOError

from .factories import (
    ANNA,
    BEN,
    CARL,
    GUILD,
    alternative_round,
    new_game,
    query,
    standard_round,
    table_counts,
)


async def test_round_writes_scores_and_running_totals(store: Store) -> None:
    """A standard round stores each hand, awards the winner and updates the game totals."""
    game = await new_game(store, (ANNA, BEN, CARL))
    round_one = standard_round(1, BEN, {ANNA: 9, BEN: 0, CARL: 21})
    assert await store.games.record_round(game.id, round_one)
    seats = {p.player_id: p for p in (await store.games.get_game(game.id)).players}  # type: ignore[union-attr]
    assert [(seats[p].total_points, seats[p].rounds_won) for p in (ANNA, BEN, CARL)] == [
        (0, 0),
        (30, 1),
        (0, 0),
    ]


async def test_double_submit_returns_false_and_changes_nothing(store: Store) -> None:
    """Submitting the same round twice records it once."""
    game = await new_game(store)
    round_one = standard_round(1, ANNA, {ANNA: 0, BEN: 40})
    assert await store.games.record_round(game.id, round_one)
    before = await table_counts(store), await store.standings.stats(ANNA)
    assert not await store.games.record_round(game.id, round_one)
    assert (await table_counts(store), await store.standings.stats(ANNA)) == before


async def test_retry_with_different_points_keeps_the_first(store: Store) -> None:
    """A resubmitted round number never overwrites or adds to the first record."""
    game = await new_game(store)
    await store.games.record_round(game.id, standard_round(1, ANNA, {ANNA: 0, BEN: 40}))
    assert not await store.games.record_round(game.id, standard_round(1, BEN, {ANNA: 5, BEN: 0}))
    assert (await store.standings.stats(BEN)).total_points == 0


async def test_concurrent_submits_on_one_store_record_once(store: Store) -> None:
    """Two coroutines submitting the same round at once: one True, one False."""
    game = await new_game(store)
    round_one = standard_round(1, ANNA, {ANNA: 0, BEN: 40})
    submits = [store.games.record_round(game.id, round_one) for _ in range(5)]
    results = await asyncio.gather(*submits)
    assert sorted(results) == [False, False, False, False, True]
    assert (await store.standings.stats(ANNA)).total_points == 40


async def test_concurrent_submits_from_two_connections_record_once(
    file_store: Store, db_path: Path
) -> None:
    """Two processes' connections racing on the same round write it once."""
    game = await new_game(file_store)
    round_one = standard_round(1, ANNA, {ANNA: 0, BEN: 40})
    second = await Store.open(db_path)
    try:
        results = await asyncio.gather(
            file_store.games.record_round(game.id, round_one),
            second.games.record_round(game.id, round_one),
        )
    finally:
        await second.close()
    assert sorted(results) == [False, True]
    assert (await file_store.standings.stats(ANNA)).rounds_won == 1


async def test_failure_mid_transaction_leaves_nothing(sqlite_store: Store) -> None:
    """An error after the round and scores are written rolls all of it back."""
    game = await new_game(sqlite_store)
    before = await table_counts(sqlite_store)
    # Fails the transaction at its last step (the leaderboard totals), after the round and
    # the score rows were already inserted.
    await sqlite_store.database.connection.execute(
        "CREATE TEMP TRIGGER fail_totals BEFORE INSERT ON player_totals"
        " BEGIN SELECT RAISE(ABORT, 'injected failure'); END"
    )
    with pytest.raises(StoreIOError, match="injected failure"):
        await sqlite_store.games.record_round(game.id, standard_round(1, ANNA, {ANNA: 0, BEN: 40}))
    assert await table_counts(sqlite_store) == before
    seats = (await sqlite_store.games.get_game(game.id)).players  # type: ignore[union-attr]
    assert [p.total_points for p in seats] == [0, 0]


async def test_round_succeeds_after_a_failed_attempt(sqlite_store: Store) -> None:
    """After an injected failure the same round can still be recorded, once."""
    game = await new_game(sqlite_store)
    connection = sqlite_store.database.connection
    await connection.execute(
        "CREATE TEMP TRIGGER fail_totals BEFORE INSERT ON player_totals"
        " BEGIN SELECT RAISE(ABORT, 'injected failure'); END"
    )
    round_one = standard_round(1, ANNA, {ANNA: 0, BEN: 40})
    with pytest.raises(StoreIOError):
        await sqlite_store.games.record_round(game.id, round_one)
    await connection.execute("DROP TRIGGER fail_totals")
    assert await sqlite_store.games.record_round(game.id, round_one)
    assert (await sqlite_store.standings.stats(ANNA)).total_points == 40


async def test_failed_match_result_keeps_the_game_live(sqlite_store: Store) -> None:
    """A failure while writing the match result rolls back the round that ended the match."""
    game = await new_game(sqlite_store)
    await sqlite_store.database.connection.execute(
        "CREATE TEMP TRIGGER fail_result BEFORE INSERT ON match_results"
        " BEGIN SELECT RAISE(ABORT, 'injected failure'); END"
    )
    final = standard_round(1, ANNA, {ANNA: 0, BEN: 500}, match_winner=ANNA)
    with pytest.raises(StoreIOError):
        await sqlite_store.games.record_round(game.id, final)
    record = await sqlite_store.games.get_game(game.id)
    assert record is not None and (record.status, record.winner_id) == ("live", None)
    assert (await table_counts(sqlite_store))["rounds"] == 0


async def test_stranger_in_scores_is_rejected_and_nothing_written(store: Store) -> None:
    """A score for a player not seated in the game raises and writes nothing."""
    game = await new_game(store, (ANNA, BEN))
    before = await table_counts(store)
    with pytest.raises(ValueError, match="not seated"):
        await store.games.record_round(game.id, standard_round(1, ANNA, {ANNA: 0, CARL: 5}))
    assert await table_counts(store) == before


async def test_alternative_scoring_records_own_hand_points(store: Store) -> None:
    """Alternative scoring adds each player's own hand to their running total."""
    game = await new_game(store, (ANNA, BEN, CARL))
    round_one = alternative_round(1, ANNA, {ANNA: 0, BEN: 14, CARL: 33})
    await store.games.record_round(game.id, round_one)
    seats = (await store.games.get_game(game.id)).players  # type: ignore[union-attr]
    assert [(p.total_points, p.rounds_won) for p in seats] == [(0, 1), (14, 0), (33, 0)]


async def test_alternative_points_count_on_the_points_leaderboard(store: Store) -> None:
    """The leaderboard's points sum points awarded, own hands included, in alternative games."""
    game = await new_game(store, (ANNA, BEN))
    await store.games.record_round(game.id, alternative_round(1, ANNA, {ANNA: 0, BEN: 14}))
    board = await store.standings.leaderboard(guild_id=GUILD)
    assert [(row.player_id, row.points) for row in board.rows] == [(BEN, 14), (ANNA, 0)]


async def test_match_winning_round_finishes_the_game(store: Store) -> None:
    """The round that reaches the target records the match result and finishes the game."""
    game = await new_game(store)
    await store.snapshots.save_snapshot(game.id, "{}", "{}")
    await store.games.record_round(game.id, standard_round(1, BEN, {ANNA: 20, BEN: 0}))
    await store.games.record_round(
        game.id, standard_round(2, ANNA, {ANNA: 0, BEN: 510}, match_winner=ANNA)
    )
    record = await store.games.get_game(game.id)
    assert record is not None
    assert (record.status, record.winner_id, record.finished_at is not None) == (
        "finished",
        ANNA,
        True,
    )
    results = await query(
        store, "SELECT player_id, final_points, rounds_won, won FROM match_results ORDER BY 1"
    )
    assert results == [(ANNA, 510, 1, 1), (BEN, 20, 1, 0)]
    assert (await table_counts(store))["snapshots"] == 0


async def test_round_after_match_end_is_refused(store: Store) -> None:
    """A new round for a finished game raises GameNotLiveError."""
    game = await new_game(store)
    await store.games.record_round(
        game.id, standard_round(1, ANNA, {ANNA: 0, BEN: 510}, match_winner=ANNA)
    )
    with pytest.raises(GameNotLiveError):
        await store.games.record_round(game.id, standard_round(2, ANNA, {ANNA: 0, BEN: 1}))


async def test_resubmitted_final_round_after_finish_returns_false(store: Store) -> None:
    """Retrying the round that ended the match is a no-op, not an error."""
    game = await new_game(store)
    final = standard_round(1, ANNA, {ANNA: 0, BEN: 510}, match_winner=ANNA)
    await store.games.record_round(game.id, final)
    assert not await store.games.record_round(game.id, final)
    assert (await store.standings.stats(ANNA)).matches_won == 1


async def test_finish_game_counts_the_match_once(store: Store) -> None:
    """finish_game records the winner; a second call returns False and changes nothing."""
    game = await new_game(store)
    await store.games.record_round(game.id, standard_round(1, BEN, {ANNA: 20, BEN: 0}))
    assert await store.games.finish_game(game.id, BEN)
    assert not await store.games.finish_game(game.id, BEN)
    assert (await store.standings.stats(BEN)).matches_won == 1


async def test_abandoned_game_keeps_its_rounds(store: Store) -> None:
    """Abandoning marks the game abandoned and keeps every scored round on the leaderboard."""
    game = await new_game(store)
    await store.games.record_round(game.id, standard_round(1, BEN, {ANNA: 20, BEN: 0}))
    assert await store.games.abandon_game(game.id)
    record = await store.games.get_game(game.id)
    assert record is not None and record.status == "abandoned"
    stats = await store.standings.stats(BEN, GUILD)
    assert (stats.total_points, stats.rounds_won, stats.matches_won) == (20, 1, 0)


async def test_abandoning_twice_returns_false(store: Store) -> None:
    """A game that is no longer live cannot be abandoned again."""
    game = await new_game(store)
    await store.games.abandon_game(game.id)
    assert not await store.games.abandon_game(game.id)


async def test_round_can_carry_the_snapshot(store: Store) -> None:
    """record_round saves the given snapshot in the same transaction."""
    game = await new_game(store)
    await store.games.record_round(
        game.id, standard_round(1, BEN, {ANNA: 20, BEN: 0}), snapshot=('{"round": 2}', '{"m": 1}')
    )
    (live,) = await store.snapshots.load_live_games()
    assert (live.state_json, live.ui_json) == ('{"round": 2}', '{"m": 1}')


async def test_cancelled_caller_still_records_the_round_once(store: Store) -> None:
    """Cancelling the coroutine that records a round neither loses it nor wedges the store."""
    game = await new_game(store)
    submit = asyncio.create_task(
        store.games.record_round(game.id, standard_round(1, ANNA, {ANNA: 0, BEN: 40}))
    )
    await asyncio.sleep(0)
    submit.cancel()
    with pytest.raises(asyncio.CancelledError):
        await submit
    assert await store.games.record_round(game.id, standard_round(2, BEN, {ANNA: 5, BEN: 0}))
    # The cancelled caller's transaction goes on without it: on SQLite it is first in line for
    # the one connection, on PostgreSQL it runs on a pool connection of its own and may commit
    # after round 2 does. Wait for it (never more than 10 s), then it has counted exactly once.
    deadline = asyncio.get_running_loop().time() + 10
    while (await store.standings.stats(ANNA)).total_points != 40:
        assert asyncio.get_running_loop().time() < deadline, "round 1 was lost"
        await asyncio.sleep(0.01)
    assert not await store.games.record_round(game.id, standard_round(1, ANNA, {ANNA: 0, BEN: 40}))
    assert (await store.standings.stats(ANNA)).rounds_played == 2


def test_round_record_from_the_engine_result() -> None:
    """An engine RoundResult converts to a RoundRecord keyed by integer Discord ids."""
    result = RoundResult(3, str(BEN), Side.DARK, {str(ANNA): 25, str(BEN): 0}, {str(BEN): 25})
    record = RoundRecord.from_engine(result, "standard", match_winner=str(BEN))
    assert (record.round_no, record.winner_id, record.side, record.match_winner_id) == (
        3,
        BEN,
        "dark",
        BEN,
    )
    lines = [(s.player_id, s.hand_points, s.points_awarded) for s in record.scores]
    assert lines == [(ANNA, 25, 0), (BEN, 0, 25)]


def test_a_one_hand_game_records_its_hand_as_standard_scoring() -> None:
    """No Mercy unscored (one hand a game) awards its hand as standard scoring does."""
    result = RoundResult(1, str(BEN), Side.LIGHT, {str(ANNA): 25, str(BEN): 0}, {str(BEN): 25})
    assert RoundRecord.from_engine(result, "one_hand").scoring == "standard"
    assert RoundRecord.from_engine(result, "alternative").scoring == "alternative"
