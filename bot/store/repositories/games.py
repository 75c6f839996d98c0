"""Games, their seats and rounds: creating, scoring exactly once, finishing, abandoning."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.variants import variant as registered_variant

from ..backend import Backend, Connection, Row
from ..errors import GameNotFoundError, GameNotLiveError
from ..models import GameRecord, RoundRecord, Variant, is_computer, storable_text
from ._load import load_games
from ._sql import execute, fetch_all, fetch_one, hold_shard, now_ms, totals_keys
from .lobbies import delete_lobby
from .snapshots import write_snapshot

_UPSERT_PLAYER = """
INSERT INTO players (id, display_name, updated_at) VALUES (?, ?, ?)
ON CONFLICT (id) DO UPDATE SET
    display_name = excluded.display_name,
    updated_at = excluded.updated_at
"""

_ADD_TO_TOTALS = """
INSERT INTO player_totals (
    scope, variant, player_id, points, rounds_won, rounds_played, games_played, best_round
) VALUES (?, ?, ?, ?, ?, 1, ?, ?)
ON CONFLICT (scope, variant, player_id) DO UPDATE SET
    points = player_totals.points + excluded.points,
    rounds_won = player_totals.rounds_won + excluded.rounds_won,
    rounds_played = player_totals.rounds_played + 1,
    games_played = player_totals.games_played + excluded.games_played,
    best_round = CASE WHEN excluded.best_round > player_totals.best_round
        THEN excluded.best_round ELSE player_totals.best_round END
"""

_ADD_MATCH_WON = """
INSERT INTO player_totals (scope, variant, player_id, matches_won) VALUES (?, ?, ?, 1)
ON CONFLICT (scope, variant, player_id) DO UPDATE SET matches_won = player_totals.matches_won + 1
"""


async def _locked_game(connection: Connection, game_id: int) -> Row | None:
    """The game's row, locked until the transaction ends on PostgreSQL.

    SQLite writes one transaction at a time anyway; on PostgreSQL the row lock makes the
    writes of one game (rounds, the finish) from several processes take turns, so the round
    check below always sees the round another process has just committed.
    """
    lock = " FOR UPDATE" if connection.dialect == "postgres" else ""
    return await fetch_one(
        connection, f"SELECT guild_id, variant, status FROM games WHERE id = ?{lock}", (game_id,)
    )


async def _live_game(connection: Connection, game_id: int, game: Row | None) -> Row:
    """The live game of ``game`` (its row), once this process's claim on its server's shard
    is checked: every write of a live game passes here."""
    if game is None:
        raise GameNotFoundError(f"no game {game_id}")
    if game["status"] != "live":
        raise GameNotLiveError(f"game {game_id} is {game['status']}")
    await hold_shard(connection, int(game["guild_id"]))
    return game


async def _finish(connection: Connection, game_id: int, game: Row, winner_id: int) -> None:
    """Mark a live game finished, write its match result and count the winner's match."""
    seated = await fetch_one(
        connection,
        "SELECT 1 FROM game_players WHERE game_id = ? AND player_id = ?",
        (game_id, winner_id),
    )
    if seated is None:
        raise ValueError(f"player {winner_id} is not seated in game {game_id}")
    now = now_ms()
    await execute(
        connection,
        "UPDATE games SET status = 'finished', winner_id = ?, finished_at = ?, updated_at = ?"
        " WHERE id = ?",
        (winner_id, now, now, game_id),
    )
    await execute(
        connection,
        "INSERT INTO match_results (game_id, player_id, final_points, rounds_won, won)"
        " SELECT game_id, player_id, total_points, rounds_won,"
        " CASE WHEN player_id = ? THEN 1 ELSE 0 END"
        " FROM game_players WHERE game_id = ?",
        (winner_id, game_id),
    )
    if not is_computer(winner_id):  # computer players stay off the leaderboards
        await connection.execute_many(
            _ADD_MATCH_WON,
            sorted(  # key order, as every totals write (see _write_round)
                (scope, variant, winner_id)
                for scope, variant in totals_keys(*_guild_and_variant(game))
            ),
        )
    await execute(connection, "DELETE FROM snapshots WHERE game_id = ?", (game_id,))


def _guild_and_variant(game: Row) -> tuple[int, str]:
    return int(game["guild_id"]), str(game["variant"])


class GameRepository:
    """Creates games and writes their results; every write is one transaction."""

    def __init__(self, database: Backend) -> None:
        self._database = database

    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        variant: Variant,
        rules_json: str,
        players: Sequence[tuple[int, str]],
        *,
        snapshot: tuple[str, str] | None = None,
        lobby_session_id: str | None = None,
    ) -> GameRecord:
        """Create a live game seating ``players`` (store player id, display name) in order.

        Computer players sit with negative ids (see store_player_id). The same transaction
        writes the optional first ``(state_json, ui_json)`` snapshot and deletes the channel's
        saved lobby of ``lobby_session_id``: the game takes over from its lobby all at once.
        A ``variant`` the engine's registry does not hold raises UnknownVariant (the tables
        keep no list of variants, so that a new one needs no migration).
        """
        registered_variant(variant)
        if len({player_id for player_id, _ in players}) != len(players):
            raise ValueError("a player is seated twice")

        async def work(connection: Connection) -> GameRecord:
            await hold_shard(connection, guild_id)
            now = now_ms()
            await connection.execute_many(
                # In id order, so two games created at once with the same players lock their
                # rows in the same order (PostgreSQL).
                _UPSERT_PLAYER,
                sorted((player_id, storable_text(name), now) for player_id, name in players),
            )
            created = await fetch_one(
                connection,
                "INSERT INTO games (guild_id, channel_id, variant, rules_json, created_at,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, variant, rules_json, now, now),
            )
            assert created is not None
            game_id = int(created["id"])
            await connection.execute_many(
                "INSERT INTO game_players (game_id, player_id, seat) VALUES (?, ?, ?)",
                [(game_id, player_id, seat) for seat, (player_id, _) in enumerate(players)],
            )
            if snapshot is not None:
                await write_snapshot(connection, game_id, *snapshot)
            if lobby_session_id is not None:
                await delete_lobby(connection, channel_id, lobby_session_id)
            return (await load_games(connection, [game_id]))[game_id]

        return await self._database.write(work)

    async def upsert_player(self, player_id: int, display_name: str) -> None:
        """Store a player's current display name."""

        async def work(connection: Connection) -> None:
            await execute(
                connection, _UPSERT_PLAYER, (player_id, storable_text(display_name), now_ms())
            )

        await self._database.statement(work)

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id, or None."""

        async def work(connection: Connection) -> GameRecord | None:
            return (await load_games(connection, [game_id])).get(game_id)

        return await self._database.read(work)

    async def record_round(
        self,
        game_id: int,
        round_record: RoundRecord,
        *,
        snapshot: tuple[str, str] | None = None,
    ) -> bool:
        """Record a scored round exactly once; False (and no change) if it was already recorded.

        One transaction writes the round, every player's points, the game's running totals,
        the leaderboard totals, the optional ``(state_json, ui_json)`` snapshot and, when
        ``round_record.match_winner_id`` is set, the match result and the finished status.
        Any error leaves none of it. Raises GameNotLiveError for a new round of a finished or
        abandoned game, and StoreBusyError when the database stays locked through every retry.
        """

        async def work(connection: Connection) -> bool:
            locked = await _locked_game(connection, game_id)
            done = await fetch_one(
                connection,
                "SELECT 1 FROM rounds WHERE game_id = ? AND round_no = ?",
                (game_id, round_record.round_no),
            )
            if done is not None:
                return False
            game = await _live_game(connection, game_id, locked)
            await self._write_round(connection, game_id, game, round_record)
            if round_record.match_winner_id is not None:
                await _finish(connection, game_id, game, round_record.match_winner_id)
            elif snapshot is not None:
                await write_snapshot(connection, game_id, *snapshot)
            return True

        return await self._database.write(work)

    async def _write_round(
        self,
        connection: Connection,
        game_id: int,
        game: Row,
        round_record: RoundRecord,
    ) -> None:
        seats = {
            row["player_id"]: row["rounds_played"]
            for row in await fetch_all(
                connection,
                "SELECT player_id, rounds_played FROM game_players WHERE game_id = ?",
                (game_id,),
            )
        }
        strangers = [s.player_id for s in round_record.scores if s.player_id not in seats]
        if strangers:
            raise ValueError(f"players {strangers} are not seated in game {game_id}")
        inserted = await fetch_one(
            connection,
            "INSERT INTO rounds (game_id, round_no, winner_id, side, scoring, recorded_at)"
            " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
            (
                game_id,
                round_record.round_no,
                round_record.winner_id,
                round_record.side,
                round_record.scoring,
                now_ms(),
            ),
        )
        assert inserted is not None
        round_id = int(inserted["id"])
        scores = round_record.scores
        await connection.execute_many(
            "INSERT INTO round_scores (round_id, player_id, hand_points, points_awarded)"
            " VALUES (?, ?, ?, ?)",
            [(round_id, s.player_id, s.hand_points, s.points_awarded) for s in scores],
        )
        won = {s.player_id: int(s.player_id == round_record.winner_id) for s in scores}
        await connection.execute_many(
            "UPDATE game_players SET total_points = total_points + ?,"
            " rounds_won = rounds_won + ?, rounds_played = rounds_played + 1"
            " WHERE game_id = ? AND player_id = ?",
            [(s.points_awarded, won[s.player_id], game_id, s.player_id) for s in scores],
        )
        await connection.execute_many(
            _ADD_TO_TOTALS,
            # In key order: two games' transactions that share players then lock those rows
            # in the same order and never deadlock each other on PostgreSQL.
            sorted(
                (
                    scope,
                    variant,
                    s.player_id,
                    s.points_awarded,
                    won[s.player_id],
                    int(seats[s.player_id] == 0),  # first scored round: one more game played
                    s.points_awarded,
                )
                for s in scores
                if not is_computer(s.player_id)  # rounds keep them; leaderboards do not
                for scope, variant in totals_keys(*_guild_and_variant(game))
            ),
        )
        await execute(
            connection, "UPDATE games SET updated_at = ? WHERE id = ?", (now_ms(), game_id)
        )

    async def finish_game(self, game_id: int, winner_id: int) -> bool:
        """Finish a live game won by ``winner_id`` and record the match result.

        Returns False (nothing changed) if the game is already finished or abandoned.
        """

        async def work(connection: Connection) -> bool:
            try:
                game = await _live_game(
                    connection, game_id, await _locked_game(connection, game_id)
                )
            except GameNotLiveError:
                return False
            await _finish(connection, game_id, game, winner_id)
            return True

        return await self._database.write(work)

    async def abandon_game(self, game_id: int) -> bool:
        """Mark a live game abandoned, keeping its scored rounds; False if it was not live."""

        async def work(connection: Connection) -> bool:
            now = now_ms()
            abandoned = await fetch_one(
                connection,
                "UPDATE games SET status = 'abandoned', finished_at = ?, updated_at = ?"
                " WHERE id = ? AND status = 'live' RETURNING guild_id",
                (now, now, game_id),
            )
            if abandoned is None:
                if await fetch_one(connection, "SELECT 1 FROM games WHERE id = ?", (game_id,)):
                    return False
                raise GameNotFoundError(f"no game {game_id}")
            # Checked after the update, still before the commit: refused, it leaves nothing.
            await hold_shard(connection, int(abandoned["guild_id"]))
            await execute(connection, "DELETE FROM snapshots WHERE game_id = ?", (game_id,))
            return True

        return await self._database.write(work)
