"""The match history: every finished match, its players, rounds, seed and moves; pruning."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from bot.engine import Game
from bot.engine.cards import Side as EngineSide
from bot.engine.replay import RULES_VERSION, MoveLog

from ..backend import Backend, Connection, Row
from ..models import Side, Variant, _Frozen, from_millis, store_player_id
from ._sql import execute, fetch_all, fetch_one, hold_shard, now_ms

DAY_MS = 86_400_000

# Forgetting a player in the history: their name is erased and their id becomes 0 (shown as "a
# former player"); the matches and their replays stay for the others. Also run by the
# standings' forget, in its transaction.
FORGET_SQL = (
    "UPDATE match_history_players SET player_id = 0, name = '',"
    " engine_id = 'former' || CAST(seat AS TEXT) WHERE player_id = ?",
    "UPDATE match_history_rounds SET winner_id = 0 WHERE winner_id = ?",
    "UPDATE match_history SET winner_id = 0 WHERE winner_id = ?",
)


class HistoryPlayer(_Frozen):
    """A player of a finished match, as they were named then, and where they finished."""

    seat: int = Field(ge=0)
    player_id: int
    engine_id: str
    name: str
    points: int
    place: int = Field(ge=1)


class HistoryRound(_Frozen):
    """One scored round: its winner, their points, the side and card it ended on, its moves
    (``bot/engine/replay.py`` tokens; None when the match was restored from an older save)."""

    round_no: int = Field(ge=1)
    winner_id: int
    points: int
    side: Side
    ending: str
    moves: str | None = None


class FinishedMatch(_Frozen):
    """What the bot hands over when a match ends."""

    guild_id: int
    channel_id: int
    variant: Variant
    rules_json: str
    rules_version: int
    seed: int
    winner_id: int
    players: list[HistoryPlayer]
    rounds: list[HistoryRound]

    @classmethod
    def from_engine(
        cls,
        game: Game,
        moves: MoveLog | None,
        names: dict[str, str],
        guild_id: int,
        channel_id: int,
    ) -> FinishedMatch:
        """A match the engine has just ended, with its log (None: the moves are not known)
        and the players' names (engine id to name; those who left keep theirs)."""
        if game.match_winner is None:
            raise ValueError("the match is not over")
        dealt = list(moves.players) if moves is not None else list(game.players)
        lower_wins = game.rules.scoring != "standard"

        def standing(player: str) -> tuple[int, int, int]:
            gone = int(player not in game.players)
            score = game.scores.get(player, 0)
            return (int(player != game.match_winner), gone, score if lower_wins else -score)

        places = {player: n for n, player in enumerate(sorted(dealt, key=standing), start=1)}
        rounds = [
            HistoryRound(
                round_no=result.round_no,
                winner_id=store_player_id(result.winner),
                points=sum(result.awarded.values()),
                side="dark" if result.side is EngineSide.DARK else "light",
                ending=moves.endings[index] if moves is not None else "",
                moves=moves.round_text(result.round_no) if moves is not None else None,
            )
            for index, result in enumerate(game.history)
        ]
        return cls(
            guild_id=guild_id,
            channel_id=channel_id,
            variant=game.rules.variant,
            rules_json=game.rules.model_dump_json(),
            rules_version=RULES_VERSION,
            seed=moves.seed if moves is not None else game.seed,
            winner_id=store_player_id(game.match_winner),
            players=[
                HistoryPlayer(
                    seat=seat,
                    player_id=store_player_id(player),
                    engine_id=player,
                    name=names.get(player, player),
                    points=game.scores.get(player, 0),
                    place=places[player],
                )
                for seat, player in enumerate(dealt)
            ],
            rounds=rounds,
        )


class MatchHistory(FinishedMatch):
    """A stored match; a page's matches come without their rounds' moves."""

    game_id: int
    started_at: datetime
    ended_at: datetime
    round_count: int

    def player(self, player_id: int) -> HistoryPlayer | None:
        """The player with this store id, if they played."""
        return next((p for p in self.players if p.player_id == player_id), None)


class HistoryPage(_Frozen):
    """One page of a server's history, newest first."""

    page: int
    total_pages: int
    total: int
    matches: list[MatchHistory]


_MATCH_COLUMNS = (
    "h.game_id, h.guild_id, h.channel_id, h.variant, h.rules_json, h.rules_version, h.seed,"
    " h.winner_id, h.started_at, h.ended_at,"
    " (SELECT COUNT(*) FROM match_history_rounds AS r WHERE r.game_id = h.game_id) AS rounds"
)


async def _players(connection: Connection, game_ids: list[int]) -> dict[int, list[HistoryPlayer]]:
    found: dict[int, list[HistoryPlayer]] = {game_id: [] for game_id in game_ids}
    if not game_ids:
        return found
    marks = ", ".join("?" * len(game_ids))
    for row in await fetch_all(
        connection,
        "SELECT game_id, seat, player_id, engine_id, name, points, place"
        f" FROM match_history_players WHERE game_id IN ({marks}) ORDER BY game_id, seat",
        tuple(game_ids),
    ):
        found[int(row["game_id"])].append(
            HistoryPlayer(
                seat=row["seat"],
                player_id=row["player_id"],
                engine_id=row["engine_id"],
                name=row["name"],
                points=row["points"],
                place=row["place"],
            )
        )
    return found


def _match(row: Row, players: list[HistoryPlayer], rounds: list[HistoryRound]) -> MatchHistory:
    get = row.__getitem__
    return MatchHistory(
        game_id=get("game_id"),
        guild_id=get("guild_id"),
        channel_id=get("channel_id"),
        variant=get("variant"),
        rules_json=get("rules_json"),
        rules_version=get("rules_version"),
        seed=get("seed"),
        winner_id=get("winner_id"),
        started_at=from_millis(get("started_at")),
        ended_at=from_millis(get("ended_at")),
        round_count=get("rounds"),
        players=players,
        rounds=rounds,
    )


class HistoryRepository:
    """Keeps finished matches for /uno history and /uno replay; prunes old ones."""

    def __init__(self, database: Backend) -> None:
        self._database = database

    async def record(self, game_id: int, match: FinishedMatch) -> bool:
        """Keep a finished match (started when its game row was created); False if it is
        kept already (a retried save)."""

        async def work(connection: Connection) -> bool:
            await hold_shard(connection, match.guild_id)
            if await fetch_one(
                connection, "SELECT 1 FROM match_history WHERE game_id = ?", (game_id,)
            ):
                return False
            game = await fetch_one(
                connection, "SELECT created_at FROM games WHERE id = ?", (game_id,)
            )
            now = now_ms()
            await execute(
                connection,
                "INSERT INTO match_history (game_id, guild_id, channel_id, variant, rules_json,"
                " rules_version, seed, winner_id, started_at, ended_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    match.guild_id,
                    match.channel_id,
                    match.variant,
                    match.rules_json,
                    match.rules_version,
                    match.seed,
                    match.winner_id,
                    int(game["created_at"]) if game is not None else now,
                    now,
                ),
            )
            await connection.execute_many(
                "INSERT INTO match_history_players (game_id, seat, player_id, engine_id, name,"
                " points, place) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (game_id, p.seat, p.player_id, p.engine_id, p.name, p.points, p.place)
                    for p in match.players
                ],
            )
            await connection.execute_many(
                "INSERT INTO match_history_rounds (game_id, round_no, winner_id, points, side,"
                " ending, moves) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (game_id, r.round_no, r.winner_id, r.points, r.side, r.ending, r.moves)
                    for r in match.rounds
                ],
            )
            return True

        return await self._database.write(work)

    async def page(
        self, guild_id: int, *, player_id: int | None = None, page: int = 1, page_size: int = 10
    ) -> HistoryPage:
        """A page of the server's matches, newest first; only ``player_id``'s if given.
        A page past the end shows the last one."""

        async def work(connection: Connection) -> HistoryPage:
            where = "h.guild_id = ?"
            params: list[int] = [guild_id]
            if player_id is not None:
                where += (
                    " AND h.game_id IN (SELECT game_id FROM match_history_players"
                    " WHERE player_id = ?)"
                )
                params.append(player_id)
            counted = await fetch_one(
                connection, f"SELECT COUNT(*) AS n FROM match_history AS h WHERE {where}", params
            )
            total = int(counted["n"]) if counted is not None else 0
            total_pages = max(1, -(-total // page_size))
            shown = min(max(1, page), total_pages)
            rows = await fetch_all(
                connection,
                f"SELECT {_MATCH_COLUMNS} FROM match_history AS h WHERE {where}"
                " ORDER BY h.ended_at DESC, h.game_id DESC LIMIT ? OFFSET ?",
                (*params, page_size, (shown - 1) * page_size),
            )
            players = await _players(connection, [int(row["game_id"]) for row in rows])
            return HistoryPage(
                page=shown,
                total_pages=total_pages,
                total=total,
                matches=[_match(row, players[int(row["game_id"])], []) for row in rows],
            )

        return await self._database.read(work)

    async def match(self, game_id: int) -> MatchHistory | None:
        """A kept match with its rounds and their moves, or None."""

        async def work(connection: Connection) -> MatchHistory | None:
            row = await fetch_one(
                connection,
                f"SELECT {_MATCH_COLUMNS} FROM match_history AS h WHERE h.game_id = ?",
                (game_id,),
            )
            if row is None:
                return None
            rounds = [
                HistoryRound(
                    round_no=r["round_no"],
                    winner_id=r["winner_id"],
                    points=r["points"],
                    side=r["side"],
                    ending=r["ending"],
                    moves=r["moves"],
                )
                for r in await fetch_all(
                    connection,
                    "SELECT round_no, winner_id, points, side, ending, moves"
                    " FROM match_history_rounds WHERE game_id = ? ORDER BY round_no",
                    (game_id,),
                )
            ]
            return _match(row, (await _players(connection, [game_id]))[game_id], rounds)

        return await self._database.read(work)

    async def forget(self, player_id: int) -> int:
        """Take a player out of every kept match (``/uno forget-me``, with their standings):
        see ``FORGET_SQL``. How many rows changed."""

        async def work(connection: Connection) -> int:
            changed = 0
            for sql in FORGET_SQL:
                changed += (await execute(connection, sql, (player_id,))).rowcount
            return changed

        return await self._database.write(work)

    async def prune(self, days: int, *, now: int | None = None) -> int:
        """Forget the matches that ended more than ``days`` days ago; how many."""
        cutoff = (now_ms() if now is None else now) - days * DAY_MS

        async def work(connection: Connection) -> int:
            old = [
                int(row["game_id"])
                for row in await fetch_all(
                    connection, "SELECT game_id FROM match_history WHERE ended_at < ?", (cutoff,)
                )
            ]
            for game_id in old:
                for table in ("match_history_rounds", "match_history_players", "match_history"):
                    await execute(connection, f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
            return len(old)

        return await self._database.write(work)
