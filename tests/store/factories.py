"""Builders of games and rounds for the store tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from bot.engine import RuleSet
from bot.engine.simulate import RandomAgent
from bot.options import TableOptions
from bot.persistence import Persistence
from bot.store import GameRecord, RoundRecord, RoundScore, Store
from bot.store.backend import Connection
from bot.store.models import Side, Variant
from bot.table import Seat, TableState

ANNA, BEN, CARL, DORA = 101, 102, 103, 104
NAMES = {ANNA: "Anna", BEN: "Ben", CARL: "Carl", DORA: "Dora"}
GUILD, OTHER_GUILD = 9001, 9002
CHANNEL = 42


async def new_game(
    store: Store,
    players: Sequence[int] = (ANNA, BEN),
    *,
    guild_id: int = GUILD,
    variant: Variant = "flip",
) -> GameRecord:
    """A live game seating ``players`` in order."""
    return await store.games.create_game(
        guild_id, CHANNEL, variant, '{"target": 500}', [(p, NAMES.get(p, f"P{p}")) for p in players]
    )


def standard_round(
    round_no: int,
    winner: int,
    hands: Mapping[int, int],
    *,
    match_winner: int | None = None,
    side: Side = "light",
) -> RoundRecord:
    """A standard-scoring round: the winner is awarded every other hand's points."""
    return RoundRecord(
        round_no=round_no,
        winner_id=winner,
        side=side,
        scoring="standard",
        scores=[
            RoundScore(
                player_id=player,
                hand_points=points,
                points_awarded=sum(hands.values()) if player == winner else 0,
            )
            for player, points in hands.items()
        ],
        match_winner_id=match_winner,
    )


def alternative_round(round_no: int, winner: int, hands: Mapping[int, int]) -> RoundRecord:
    """An alternative-scoring round: everyone is awarded their own hand's points."""
    return RoundRecord(
        round_no=round_no,
        winner_id=winner,
        scoring="alternative",
        scores=[
            RoundScore(player_id=player, hand_points=points, points_awarded=points)
            for player, points in hands.items()
        ],
    )


async def query(store: Store, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
    """Rows of one query, as tuples, on whichever backend the store runs."""

    async def work(connection: Connection) -> list[tuple[object, ...]]:
        return [tuple(row) for row in await connection.fetch_all(sql, params)]

    rows: list[tuple[object, ...]] = await store.database.read(work)
    return rows


async def table_counts(store: Store) -> dict[str, int]:
    """Row counts of every table a round or a match result writes."""
    tables = ("rounds", "round_scores", "match_results", "player_totals", "snapshots")
    return {
        table: int(str((await query(store, f"SELECT COUNT(*) FROM {table}"))[0][0]))
        for table in tables
    }


def started_table(seed: int = 0, rules: RuleSet | None = None) -> TableState:
    """A real table: Anna hosts, Ben joins, ``rules`` (a classic game to 10,000) is dealt."""
    table = TableState(
        "s1",
        GUILD,
        CHANNEL,
        Seat(str(ANNA), "Anna"),
        TableOptions(rules=rules or RuleSet(variant="classic", target=10_000)),
        datetime(2026, 1, 1, tzinfo=UTC),
    )
    table.join(BEN, "Ben")
    table.start(ANNA, seed, {str(ANNA): "Anna", str(BEN): "Ben"})
    return table


async def play_and_save(persistence: Persistence, table: TableState, agent: RandomAgent) -> bool:
    """One random legal move, then the save the bot makes after every move; whether the
    store took it."""
    assert table.game is not None
    player, move = agent.choose(table.game)
    table.play(player, move)
    table.record([], player, turn_move=True)
    return await persistence.save(table)
