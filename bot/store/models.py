"""Pydantic models the store takes and returns; repositories never hand out raw rows."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    computed_field,
    field_validator,
    model_validator,
)

from bot.engine import RoundResult
from bot.engine.cards import Side as EngineSide
from bot.engine.players import computer_number
from bot.engine.rules import GameScoring
from bot.engine.variants import VariantKey

_SURROGATE = re.compile("[\ud800-\udfff]")

# A key of the engine's variant registry; a filter is one, or "all".
Variant = VariantKey
VariantFilter = VariantKey
Scoring = Literal["standard", "alternative"]
Side = Literal["light", "dark"]
GameStatus = Literal["live", "finished", "abandoned"]
Scope = Literal["guild", "global"]
SortKey = Literal["points", "matches_won", "rounds_won"]


def store_player_id(engine_id: str) -> int:
    """The store's id of an engine player: a Discord id as is, computer player "aiN" as -N.

    Negative ids cannot clash with Discord ids; the store records their rounds but keeps them
    off every leaderboard, rank and stats.
    """
    if engine_id.isdigit():
        return int(engine_id)
    number = computer_number(engine_id)
    if number is None:
        raise ValueError(f"not a Discord id or computer player: {engine_id!r}")
    return -number


def is_computer(player_id: int) -> bool:
    """Whether a store player id belongs to a computer player."""
    return player_id < 0


def storable_text(text: str) -> str:
    """``text`` as every backend can store it: NUL removed (PostgreSQL refuses it in text)
    and lone surrogates (no UTF-8 encodes them) replaced by U+FFFD.

    Both backends store the same cleaned text, so a name reads back alike from either.
    """
    if "\x00" in text:
        text = text.replace("\x00", "")
    # A Python str holds a character beyond U+FFFF as one code point, so any surrogate in
    # it is a lone one (from JSON such as "\\ud800").
    return text if text.isascii() else _SURROGATE.sub("\ufffd", text)


def from_millis(millis: int) -> datetime:
    """A stored unix-millisecond time as an aware UTC datetime."""
    return datetime.fromtimestamp(millis / 1000, tz=UTC)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class GamePlayer(_Frozen):
    """One seat of a game with its running match totals."""

    player_id: int
    name: str
    seat: int
    total_points: int = 0
    rounds_won: int = 0
    rounds_played: int = 0


class GameRecord(_Frozen):
    """A game as stored: where it is played, its rules, status and seats."""

    id: int
    guild_id: int
    channel_id: int
    variant: Variant
    rules_json: str
    status: GameStatus
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None = None
    winner_id: int | None = None
    players: list[GamePlayer]


class LiveGame(_Frozen):
    """A live game to restore at start-up.

    ``state_json`` is the engine snapshot and ``ui_json`` the opaque blob the UI saved with it
    (message ids to re-attach to). Both are None when the game never saved a state (the bot
    stopped between creating the game and its first move); such a game cannot be resumed.
    """

    game: GameRecord
    state_json: str | None
    ui_json: str | None
    saved_at: datetime | None


class SavedLobby(_Frozen):
    """An open lobby to restore at start-up.

    ``lobby_json`` is the opaque blob the Discord side saved (seats, rules, lobby message, idle
    deadline); the store only keys it by channel and keeps its session id beside it.
    """

    channel_id: int
    session_id: str
    guild_id: int
    lobby_json: str
    saved_at: datetime


class RoundScore(_Frozen):
    """One player's line of a round: the points left in their hand and the points awarded."""

    player_id: int
    hand_points: int = Field(ge=0)
    points_awarded: int = Field(ge=0)


class RoundRecord(_Frozen):
    """A scored round as the engine reports it, keyed by store player id (see store_player_id).

    Standard scoring: the winner's ``points_awarded`` is the sum of the other hands, everyone
    else is awarded 0. Alternative scoring: every player is awarded the points left in their
    own hand (the winner 0), and the lowest match total wins. ``match_winner_id`` is set when
    this round ended the match; the store then records the match result and finishes the game
    in the same transaction.

    How alternative scoring shows on a "points" leaderboard: the leaderboard's points are the
    sum of ``points_awarded`` over every recorded round, whatever the mode, so in an
    alternative-scoring game each player adds the points they were left holding (penalty
    points, where less is better). Servers that mix both modes therefore see alternative
    games raise the points of the players who did worst in them; rounds won and matches won
    mean the same in both modes.
    """

    round_no: int = Field(ge=1)
    winner_id: int
    side: Side = "light"
    scoring: Scoring = "standard"
    scores: list[RoundScore] = Field(min_length=1)
    match_winner_id: int | None = None

    @classmethod
    def from_engine(
        cls, result: RoundResult, scoring: GameScoring, match_winner: str | None = None
    ) -> RoundRecord:
        """Build from the engine's RoundResult (Discord ids as strings, computer players "aiN").

        A one-hand game (No Mercy unscored) awards its hand as standard scoring does.
        """
        return cls(
            round_no=result.round_no,
            winner_id=store_player_id(result.winner),
            side="dark" if result.side is EngineSide.DARK else "light",
            scoring="alternative" if scoring == "alternative" else "standard",
            scores=[
                RoundScore(
                    player_id=store_player_id(player),
                    hand_points=points,
                    points_awarded=result.awarded.get(player, 0),
                )
                for player, points in result.hand_points.items()
            ],
            match_winner_id=None if match_winner is None else store_player_id(match_winner),
        )

    @field_validator("scores")
    @classmethod
    def _one_line_per_player(cls, scores: list[RoundScore]) -> list[RoundScore]:
        ids = [score.player_id for score in scores]
        if len(set(ids)) != len(ids):
            raise ValueError("a player appears twice in the round's scores")
        return scores

    @model_validator(mode="after")
    def _winner_took_part(self) -> RoundRecord:
        ids = {score.player_id for score in self.scores}
        if self.winner_id not in ids:
            raise ValueError("the round winner has no score line")
        if self.match_winner_id is not None and self.match_winner_id not in ids:
            raise ValueError("the match winner has no score line")
        return self


class LeaderboardRow(_Frozen):
    """One line of a leaderboard; equal values share a rank (1, 2, 2, 4)."""

    rank: int
    player_id: int
    name: str
    points: int
    matches_won: int
    rounds_won: int
    games_played: int


class LeaderboardPage(_Frozen):
    """One page of a leaderboard; ``page`` is 1-based and clamped to ``1..total_pages``."""

    scope: Scope
    guild_id: int | None
    variant: VariantFilter
    sort: SortKey
    page: int
    page_size: int
    total_pages: int
    total_players: int
    rows: list[LeaderboardRow]


class PlayerStats(_Frozen):
    """A player's record in one server (or everywhere when ``guild_id`` is None).

    Games played counts the games in which the player scored at least one round.
    ``best_round`` is the most points awarded to them in one round.
    """

    player_id: int
    name: str | None
    guild_id: int | None
    games_played: int = 0
    matches_won: int = 0
    rounds_won: int = 0
    rounds_played: int = 0
    total_points: int = 0
    best_round: int = 0
    favourite_variant: Variant | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def points_per_round(self) -> float:
        """Total points divided by rounds played (0.0 before the first round)."""
        return self.total_points / self.rounds_played if self.rounds_played else 0.0
