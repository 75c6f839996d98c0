"""A match as its seed and moves, compactly written, and the round replays rebuilt from them.

The engine is deterministic: a match is its players, rules and seed plus every change made to
it, in order. ``MoveLog`` keeps those changes as short tokens, one list per round:

    <seat>p<card> play · <seat>d draw · <seat>k keep · <seat>c<R|Y|G|B|P|T|O|U> colour
    <seat>a accept · <seat>x challenge · <seat>u UNO! · <seat>s<seat> swap with
    <seat>t<seat> catch · <seat>o the timed-out turn played for them (``auto_play``)
    <seat>r<reason> left the game (``remove_player``; spaces in the reason written ``~``)

``<seat>`` is the player's index among the players as dealt. A round's list starts with its
deal and ends just before the next deal. ``replay_round`` rebuilds a round step by step, each
move checked legal, so a log the engine cannot play raises ``ReplayError`` instead of showing a
wrong game. ``RULES_VERSION`` changes whenever the same seed and moves would play differently
(the fingerprint's constants change): a stored match of another version is not replayed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from . import events as ev
from .game import Game, IllegalMove, Phase
from .moves import (
    ACCEPT,
    CALL_UNO,
    CHALLENGE,
    DRAW,
    PASS,
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Move,
    Pass,
    PlayCard,
    SwapWith,
    TargetDraw,
)
from .notation import CODE_OF_COLOR, COLOR_CODES, face_code
from .rules import RuleSet

# Bump when a seed and its moves would play a different game than before.
RULES_VERSION = 1

_SIMPLE: dict[str, Move] = {"d": DRAW, "k": PASS, "a": ACCEPT, "x": CHALLENGE, "u": CALL_UNO}
_SIMPLE_CODE: dict[type, str] = {Draw: "d", Pass: "k", Accept: "a", Challenge: "x", CallUno: "u"}


class ReplayError(ValueError):
    """A stored log the engine cannot play back (a move it refuses, a token it cannot read)."""


@dataclass(slots=True)
class MoveLog:
    """Every change made to one match, per round, and how each finished round ended."""

    players: tuple[str, ...]
    seed: int
    rounds: list[list[str]] = field(default_factory=lambda: [[]])
    # The face code of the card each round's winner went out on ("" when not known yet).
    endings: list[str] = field(default_factory=lambda: [""])
    # The last card played (a wild's colour is chosen after it), not saved: at worst a round
    # that ends right after a restart has no ending card.
    last_card: str = field(default="", compare=False)

    def _seat(self, player: str) -> int:
        return self.players.index(player)

    def _add(self, token: str, events: Sequence[ev.Event]) -> None:
        self.rounds[-1].append(token)
        for event in events:
            if isinstance(event, ev.CardPlayed):
                self.last_card = face_code(event.face)
            elif isinstance(event, ev.RoundEnded):
                self.endings[-1] = self.last_card

    def move(self, player: str, move: Move, events: Sequence[ev.Event]) -> None:
        """``player`` made ``move`` (applied, with these events)."""
        self._add(f"{self._seat(player)}{encode_move(move, self.players)}", events)

    def auto_play(self, player: str, events: Sequence[ev.Event]) -> None:
        """The timed-out turn of ``player`` was played for them."""
        self._add(f"{self._seat(player)}o", events)

    def removed(self, player: str, reason: str, events: Sequence[ev.Event]) -> None:
        """``player`` left the game for ``reason``."""
        self._add(f"{self._seat(player)}r{reason.replace(' ', '~')}", events)

    def next_round(self) -> None:
        """The next round was dealt."""
        self.rounds.append([])
        self.endings.append("")

    def round_text(self, round_no: int) -> str:
        """Round ``round_no``'s moves as stored: the tokens separated by spaces."""
        return " ".join(self.rounds[round_no - 1])

    def dumps(self) -> str:
        """The log as compact JSON (saved beside a running game)."""
        return json.dumps(
            [list(self.players), self.seed, [" ".join(r) for r in self.rounds], self.endings],
            separators=(",", ":"),
        )

    @classmethod
    def loads(cls, text: str) -> MoveLog:
        """A log from ``dumps``."""
        players, seed, rounds, endings = json.loads(text)
        return cls(
            tuple(players), int(seed), [r.split() if r else [] for r in rounds], list(endings)
        )


def encode_move(move: Move, players: Sequence[str]) -> str:
    """A move's token without its player: ``p17``, ``cR``, ``s2``."""
    if isinstance(move, PlayCard):
        return f"p{move.card}"
    if isinstance(move, ChooseColor):
        return f"c{CODE_OF_COLOR[move.color]}"
    if isinstance(move, SwapWith):
        return f"s{players.index(move.target)}"
    if isinstance(move, Catch):
        return f"t{players.index(move.target)}"
    if isinstance(move, TargetDraw):
        return f"v{players.index(move.target)}"
    return _SIMPLE_CODE[type(move)]


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a replayed round: who acted (None for the deal), the token, the events."""

    player: str | None
    token: str
    events: tuple[ev.Event, ...]


def _split(token: str) -> tuple[int, str, str]:
    digits = len(token) - len(token.lstrip("0123456789"))
    if not digits or digits == len(token):
        raise ReplayError(f"unreadable token {token!r}")
    return int(token[:digits]), token[digits], token[digits + 1 :]


def _decode(code: str, rest: str, players: Sequence[str]) -> Move:
    if code in _SIMPLE and not rest:
        return _SIMPLE[code]
    try:
        if code == "p":
            return PlayCard(int(rest))
        if code == "c":
            return ChooseColor(COLOR_CODES[rest])
        if code == "s":
            return SwapWith(players[int(rest)])
        if code == "t":
            return Catch(players[int(rest)])
        if code == "v":
            return TargetDraw(players[int(rest)])
    except (ValueError, KeyError, IndexError) as error:
        raise ReplayError(f"unreadable move {code}{rest}") from error
    raise ReplayError(f"unreadable move {code}{rest}")


def _apply(game: Game, players: Sequence[str], token: str) -> Step:
    seat, code, rest = _split(token)
    if seat >= len(players):
        raise ReplayError(f"no player {seat} in {token!r}")
    player = players[seat]
    try:
        if code == "o":
            events = game.auto_play(player)
        elif code == "r":
            events = game.remove_player(player, rest.replace("~", " "))
        else:
            move = _decode(code, rest, players)
            if move not in game.legal_moves(player):
                raise ReplayError(f"{token!r} is not legal here")
            events = game.apply(player, move)
    except (IllegalMove, KeyError) as error:
        raise ReplayError(f"{token!r} cannot be played: {error}") from error
    return Step(player, token, tuple(events))


def replay_round(
    players: Sequence[str], rules: RuleSet, seed: int, rounds: Sequence[str], round_no: int
) -> Iterator[tuple[Step, Game]]:
    """Play the match from its seed through the rounds before ``round_no`` silently, then yield
    each step of round ``round_no`` (the deal first) with the game as it stands after it.

    ``rounds`` holds each round's stored moves (``MoveLog.round_text``), at least up to
    ``round_no``. The game yielded is the same object throughout: read it before the next step.
    """
    if not 1 <= round_no <= len(rounds):
        raise ReplayError(f"no round {round_no}")
    game, events = Game.start(list(players), rules, seed)
    for number, text in enumerate(rounds[:round_no], start=1):
        if number > 1:
            if game.phase is not Phase.ROUND_OVER:
                raise ReplayError(f"round {number - 1} did not end where it was stored")
            events = game.start_next_round()
        if number == round_no:
            yield Step(None, "", tuple(events)), game
        for token in text.split():
            step = _apply(game, players, token)
            if number == round_no:
                yield step, game


def replay_steps(
    players: Sequence[str], rules: RuleSet, seed: int, rounds: Sequence[str], round_no: int
) -> list[Step]:
    """Every step of round ``round_no`` (see ``replay_round``), without the states."""
    return [step for step, _ in replay_round(players, rules, seed, rounds, round_no)]
