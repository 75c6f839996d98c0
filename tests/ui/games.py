"""Seeded random matches for the language tests: every event batch and every refusal they meet."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bot.engine import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Color,
    Draw,
    Game,
    IllegalMove,
    Move,
    Pass,
    Phase,
    PlayCard,
    RuleSet,
    SwapWith,
    TargetDraw,
)
from bot.engine import events as ev
from bot.engine.simulate import RandomAgent

NAMES = ("Anna", "Ben", "Cara", "Dan", "Eve", "Finn")
# Between them these tables deal every card kind and meet every house rule.
TABLES: tuple[tuple[RuleSet, int], ...] = (
    (RuleSet(variant="flip", target=150), 4),
    (RuleSet(variant="flip", stacking=True, jump_in=True, target=150), 3),
    (RuleSet(variant="flip", draw_until_playable=True, forced_play=True, target=100), 2),
    (
        RuleSet(
            variant="classic",
            edition="shuffle_hands",
            seven_o=True,
            stacking=True,
            stack_wild_draw_four_on_draw_two=True,
            jump_in=True,
            target=150,
        ),
        5,
    ),
    (RuleSet(variant="classic", edition="swap_hands", target=150, scoring="alternative"), 6),
)
# No Mercy (RULES-VARIANTS.md section 1), played apart so the recorded English of the tables
# above stays as it was: one hand a game, and a scored match with six players.
NO_MERCY_TABLES: tuple[tuple[RuleSet, int], ...] = (
    (RuleSet(variant="nomercy"), 4),
    (RuleSet(variant="nomercy", scoring="standard", target=600), 6),
    (RuleSet(variant="nomercy", scoring="standard", target=300), 2),
)
MAX_MOVES = 1_200


@dataclass
class Played:
    """What the seeded matches produced: event batches as the UI receives them, and refusals."""

    batches: list[list[ev.Event]] = field(default_factory=list)
    refusals: set[str] = field(default_factory=set)
    games: list[Game] = field(default_factory=list)


def name(player: str) -> str:
    """The display name of a test player id (``p0`` is Anna)."""
    return NAMES[int(player[1:])]


def _wrong_moves(game: Game, rng: random.Random) -> list[tuple[str, Move]]:
    player = rng.choice(game.players)
    other = rng.choice(game.players)
    hand = game.hands[game.seat_of(player)]
    cards = [PlayCard(rng.choice(hand))] if hand else []
    moves: list[Move] = [
        *cards,
        PlayCard(10_000),
        Draw(),
        Pass(),
        ChooseColor(rng.choice(list(Color))),
        Challenge(),
        Accept(),
        SwapWith(other),
        TargetDraw(other),
        CallUno(),
        Catch(other),
        Catch("nobody"),
    ]
    return [(player, move) for move in moves if move not in game.legal_moves(player)]


def play(seed: int = 1, tables: tuple[tuple[RuleSet, int], ...] = TABLES) -> Played:
    """Play every table of ``tables`` with seeded random moves, then empty it seat by seat."""
    out = Played()
    rng = random.Random(seed)
    for index, (rules, seats) in enumerate(tables):
        players = [f"p{i}" for i in range(seats)]
        game, events = Game.start(players, rules, seed + index, names={p: name(p) for p in players})
        out.batches.append(events)
        agent = RandomAgent(seed + index)
        for _ in range(MAX_MOVES):
            if game.phase is Phase.MATCH_OVER:
                break
            if game.phase is Phase.ROUND_OVER:
                out.batches.append(agent.next_round(game))
                for player, move in _wrong_moves(game, rng)[:2]:
                    _refuse(game, player, move, out)
                continue
            if rng.random() < 0.05:
                for player, move in _wrong_moves(game, rng):
                    _refuse(game, player, move, out)
            out.batches.append(agent.step(game)[2])
        if game.phase is not Phase.MATCH_OVER:
            for player in list(game.players):
                out.batches.append(game.remove_player(player, "left the game"))
                if game.phase is Phase.ABANDONED:
                    break
        _refuse(game, game.players[0], Draw(), out)
        out.games.append(game)
    return out


def _refuse(game: Game, player: str, move: Move, out: Played) -> None:
    try:
        game.apply(player, move)
    except IllegalMove as exc:
        out.refusals.add(str(exc))
    else:
        raise AssertionError(f"{move!r} by {player} was legal")
