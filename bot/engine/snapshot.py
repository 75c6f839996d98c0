"""The saved form of a game: ``dumps(game)`` and ``loads(text)``, RNG state included.

``loads(dumps(game)) == game``, and a game saved by any earlier version still loads (the format
only grows optional fields). pydantic validates the JSON where state crosses a boundary; the
game itself stays plain Python. This module reads the game and the game never reads it.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer

from .cards import Color, Kind, Side
from .game import AfterColor, Game, Phase, RoundResult, TurnRecord
from .rng import COMPACT_STATE, CompactRandom
from .rules import RuleSet

SNAPSHOT_VERSION = 1


class RoundResultModel(BaseModel):
    """One scored round in a snapshot."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    round_no: int
    winner: str
    side: Side
    hand_points: dict[str, int]
    awarded: dict[str, int]


class GameSnapshot(BaseModel):
    """Every field of a game's state, RNG included; a version for future migrations."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    version: int = SNAPSHOT_VERSION
    rules: RuleSet
    seed: int
    rng_state: list[int]
    names: dict[str, str]
    players: list[str]
    scores: dict[str, int]
    rounds_won: dict[str, int]
    history: list[RoundResultModel]
    match_winner: str | None
    round_no: int
    dealer: int
    phase: str
    hands: list[list[int]]
    draw_pile: list[int]
    discard: list[int]
    side: Side
    color: Color | None
    direction: int
    current: int
    drawn_card: int | None
    after_color: str
    swap_then_color: bool
    pending_draw: int
    penalty_kind: Kind | None
    penalty_source: int | None
    penalty_guilty: bool
    penalty_challengeable: bool
    uno_declared: list[bool]
    uno_exposed: int | None
    # Added after version 1 shipped: older snapshots load with no turns remembered.
    turn_log: list[list[tuple[Side, int, Color | None, int, Color | None, int, int]]] = []
    received: list[int] = []
    # The first form of the memory (only each seat's latest turn), still read from live games.
    last_turn: list[tuple[Side, int, Color | None, int, Color | None] | None] = []
    received_since: list[int] = []
    # No Mercy's state: more seats exposed without UNO, seats knocked out, set-aside hands.
    uno_exposed_more: list[int] = []
    knocked_out: list[int] = []
    set_aside: list[list[int]] = []
    # All Wild's state: turns each seat still loses to a Wild Skip Two.
    lost_turns: list[int] = []

    @model_serializer(mode="wrap")
    def _leave_out_unused(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # The No Mercy and All Wild fields are written only when they hold something, so the
        # saved JSON of every Flip and classic game stays byte for byte what it was.
        data: dict[str, Any] = handler(self)
        for name in ("uno_exposed_more", "knocked_out"):
            if not data.get(name):
                data.pop(name, None)
        for name in ("set_aside", "lost_turns"):
            if not any(data.get(name, ())):
                data.pop(name, None)
        return data


def dumps(game: Game) -> str:
    """The whole state as the compact JSON string the store saves."""
    return GameSnapshot.model_validate(dump_state(game)).model_dump_json()


def loads(text: str | bytes) -> Game:
    """Rebuild a game from ``dumps`` output (any version); ValueError on invalid data."""
    return load_snapshot(GameSnapshot.model_validate_json(text))


def dump_state(game: Game) -> dict[str, Any]:
    """Plain JSON-ready data for every field of ``game`` (what ``dumps`` writes, as a dict)."""
    rng = game.rng
    if isinstance(rng, CompactRandom):
        rng_state = [COMPACT_STATE, *rng.getstate()]
    else:
        version, internal, _gauss = rng.getstate()
        rng_state = [version, *internal]
    return {
        "version": SNAPSHOT_VERSION,
        "rules": game.rules.model_dump(),
        "seed": game.seed,
        "rng_state": rng_state,
        "names": game.names,
        "players": list(game.players),
        "scores": dict(game.scores),
        "rounds_won": dict(game.rounds_won),
        "history": [
            {
                "round_no": r.round_no,
                "winner": r.winner,
                "side": int(r.side),
                "hand_points": dict(r.hand_points),
                "awarded": dict(r.awarded),
            }
            for r in game.history
        ],
        "match_winner": game.match_winner,
        "round_no": game.round_no,
        "dealer": game.dealer,
        "phase": game.phase.value,
        "hands": [list(h) for h in game.hands],
        "draw_pile": list(game.draw_pile),
        "discard": list(game.discard),
        "side": int(game.side),
        "color": game.color.value if game.color else None,
        "direction": game.direction,
        "current": game.current,
        "drawn_card": game.drawn_card,
        "after_color": game.after_color.value,
        "swap_then_color": game.swap_then_color,
        "pending_draw": game.pending_draw,
        "penalty_kind": game.penalty_kind.value if game.penalty_kind else None,
        "penalty_source": game.penalty_source,
        "penalty_guilty": game.penalty_guilty,
        "penalty_challengeable": game.penalty_challengeable,
        "uno_declared": list(game.uno_declared),
        "uno_exposed": game.uno_exposed,
        "turn_log": [
            [[int(t.side), t.top, _value(t.color), t.played, _value(t.named), *t[5:]] for t in log]
            for log in game.turn_log
        ],
        "received": list(game.received),
        "uno_exposed_more": list(game.uno_exposed_more),
        "knocked_out": list(game.knocked_out),
        "set_aside": [list(cards) for cards in game.set_aside],
        "lost_turns": list(game.lost_turns),
    }


def load_state(data: dict[str, Any]) -> Game:
    """Validate ``data`` (from ``dump_state`` or JSON) and rebuild the game."""
    return load_snapshot(GameSnapshot.model_validate(data))


def load_snapshot(snap: GameSnapshot) -> Game:
    """Rebuild a game from a validated snapshot, checking the cards are all accounted for."""
    game = Game(snap.players, snap.rules, snap.seed)
    if len(snap.rng_state) == 3 and snap.rng_state[0] == COMPACT_STATE:
        game.rng = CompactRandom.from_state(snap.rng_state[1], snap.rng_state[2])
    else:
        # Saved before the compact generator: the game plays on with its Mersenne Twister.
        game.rng = random.Random()
        game.rng.setstate((snap.rng_state[0], tuple(snap.rng_state[1:]), None))
    game.set_names(snap.names)
    game.scores = dict(snap.scores)
    game.rounds_won = dict(snap.rounds_won)
    game.history = [
        RoundResult(r.round_no, r.winner, r.side, dict(r.hand_points), dict(r.awarded))
        for r in snap.history
    ]
    game.match_winner = snap.match_winner
    game.round_no = snap.round_no
    game.dealer = snap.dealer
    game.phase = Phase(snap.phase)
    game.hands = [list(h) for h in snap.hands]
    game.draw_pile = list(snap.draw_pile)
    game.discard = list(snap.discard)
    game.side = Side(snap.side)
    game.color = snap.color
    game.direction = snap.direction
    game.current = snap.current
    game.drawn_card = snap.drawn_card
    game.after_color = AfterColor(snap.after_color)
    game.swap_then_color = snap.swap_then_color
    game.pending_draw = snap.pending_draw
    game.penalty_kind = snap.penalty_kind
    game.penalty_source = snap.penalty_source
    game.penalty_guilty = snap.penalty_guilty
    game.penalty_challengeable = snap.penalty_challengeable
    game.uno_declared = list(snap.uno_declared)
    game.uno_exposed = snap.uno_exposed
    _load_memory(game, snap)
    game.uno_exposed_more = list(snap.uno_exposed_more)
    game.knocked_out = list(snap.knocked_out)
    game.set_aside = [list(c) for c in snap.set_aside] or [[] for _ in game.players]
    game.lost_turns = list(snap.lost_turns) or [0] * len(game.players)
    held = [c for h in game.hands for c in h] + [c for s in game.set_aside for c in s]
    cards = sorted(held + game.draw_pile + game.discard)
    if game.round_no and cards != list(range(len(game.deck))):
        raise ValueError("the snapshot's cards do not add up to the deck")
    seated = (
        game.hands,
        game.uno_declared,
        game.turn_log,
        game.received,
        game.set_aside,
        game.lost_turns,
    )
    if any(len(per_seat) != len(game.players) for per_seat in seated):
        raise ValueError("the snapshot's seats do not match its players")
    return game


def _value(color: Color | None) -> str | None:
    return color.value if color is not None else None


def _load_memory(game: Game, snap: GameSnapshot) -> None:
    """The round memory from either form, or none from snapshots older than it."""
    if snap.turn_log or snap.received:
        game.turn_log = [
            [TurnRecord(Side(t[0]), t[1], t[2], t[3], t[4], t[5], t[6]) for t in log]
            for log in snap.turn_log
        ]
        game.received = list(snap.received)
    elif snap.last_turn or snap.received_since:
        # Only the latest turn was kept then; its table is unknown (0: read as near the end).
        game.turn_log = [
            [] if t is None else [TurnRecord(Side(t[0]), t[1], t[2], t[3], t[4], 0, 0)]
            for t in snap.last_turn
        ]
        game.received = list(snap.received_since)
    else:
        game.turn_log = [[] for _ in game.players]
        game.received = [0] * len(game.players)
