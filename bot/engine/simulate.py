"""Random legal matches for soak tests, statistics and benchmarks.

``python -m bot.engine.simulate --variant flip --players 4 --games 100 --seed 1`` plays random
matches to the target and prints a summary. The simulation itself is pure (it returns data, with
randomness from a seeded ``random.Random``); only ``main`` parses arguments, times and prints.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from . import events as ev
from .game import Game, Phase
from .moves import CallUno, Catch, Draw, Move, Pass
from .rules import RuleSet
from .variants import DEFAULT_VARIANT, VARIANTS
from .variants import variant as variant_entry

# A uniformly random agent can take tens of thousands of moves to end a round with
# draw-until-playable on (drawing and keeping cards makes hands grow faster than they shrink).
# After this many moves in a round the agent turns eager: it plays a card whenever it can.
PATIENCE = 2_000
# An eager agent that has not ended the round after this many more moves has found a game that
# cannot end: report it rather than loop.
MAX_MOVES_PER_ROUND = PATIENCE + 2_000
# Moves that do not get a player closer to going out (or that hand another player cards).
STALLING_MOVES = (Draw, Pass, CallUno, Catch)


class StuckGame(RuntimeError):
    """A simulated round did not end within ``MAX_MOVES_PER_ROUND`` moves."""


def all_legal_moves(game: Game) -> list[tuple[str, Move]]:
    """Every (player, move) pair legal now, for every player (UNO calls, catches, jump-ins)."""
    return [(player, move) for player in game.players for move in game.legal_moves(player)]


class RandomAgent:
    """Picks uniformly among every player's legal moves; eager after ``patience`` moves."""

    def __init__(self, seed: int | str, patience: int = PATIENCE) -> None:
        """An agent whose choices are seeded by ``seed`` (independent of the game's RNG)."""
        self.rng = random.Random(f"agent:{seed}")
        self.patience = patience
        self.moves_this_round = 0

    def choose(self, game: Game) -> tuple[str, Move]:
        """The (player, move) to make next."""
        options = all_legal_moves(game)
        if self.moves_this_round >= self.patience:
            progress = [o for o in options if not isinstance(o[1], STALLING_MOVES)]
            options = progress or options
        return self.rng.choice(options)

    def step(self, game: Game) -> tuple[str, Move, list[ev.Event]]:
        """Choose and apply one move; StuckGame if the round has gone on far too long."""
        if self.moves_this_round >= MAX_MOVES_PER_ROUND:
            raise StuckGame(f"round {game.round_no} did not end (game seed {game.seed})")
        player, move = self.choose(game)
        events = game.apply(player, move)
        self.moves_this_round += 1
        return player, move, events

    def next_round(self, game: Game) -> list[ev.Event]:
        """Deal the next round and reset the patience count."""
        self.moves_this_round = 0
        return game.start_next_round()

    def walk(self, game: Game) -> Iterator[tuple[str, Move, list[ev.Event]]]:
        """Yield every move until the match ends, dealing each next round."""
        while game.phase is not Phase.MATCH_OVER:
            if game.phase is Phase.ROUND_OVER:
                self.next_round(game)
            else:
                yield self.step(game)


@dataclass(frozen=True, slots=True)
class RoundStats:
    """One simulated round: moves made, flips, and the points it awarded."""

    moves: int
    flips: int
    points: int


@dataclass(slots=True)
class MatchStats:
    """One simulated match: its rounds, winner and final scores."""

    rounds: list[RoundStats] = field(default_factory=list)
    winner: str | None = None
    scores: dict[str, int] = field(default_factory=dict)


def play_round(game: Game, agent: RandomAgent) -> RoundStats:
    """Play random moves until the round (or match) ends."""
    moves = flips = 0
    while game.phase not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
        _, _, events = agent.step(game)
        moves += 1
        flips += sum(isinstance(event, ev.Flipped) for event in events)
    points = sum(game.history[-1].awarded.values())
    return RoundStats(moves, flips, points)


def play_match(rules: RuleSet, players: int, seed: int) -> tuple[Game, MatchStats]:
    """Play one random match to the target; the agent is seeded by ``seed`` too."""
    game = Game.new([f"p{i}" for i in range(players)], rules, seed)
    agent = RandomAgent(seed)
    stats = MatchStats()
    while True:
        stats.rounds.append(play_round(game, agent))
        if game.phase is Phase.MATCH_OVER:
            break
        agent.next_round(game)
    stats.winner = game.match_winner
    stats.scores = dict(game.scores)
    return game, stats


@dataclass(frozen=True, slots=True)
class Distribution:
    """Mean, median and maximum of a sample."""

    mean: float
    median: float
    maximum: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Distribution:
        """Summarise ``values`` (all zero when empty)."""
        if not values:
            return cls(0.0, 0.0, 0.0)
        return cls(statistics.fmean(values), statistics.median(values), max(values))

    def __str__(self) -> str:
        return f"mean {self.mean:.1f}, median {self.median:.1f}, max {self.maximum:.0f}"


@dataclass(frozen=True, slots=True)
class Summary:
    """What a batch of simulated matches looked like."""

    variant: str
    players: int
    target: int
    matches: int
    rounds: int
    moves_per_round: Distribution
    flips_per_round: Distribution | None
    points_per_round: Distribution
    rounds_per_match: Distribution
    wins: dict[str, int]


def simulate(variant: str, players: int, games: int, seed: int, target: int = 500) -> Summary:
    """Play ``games`` random matches (seeds ``seed`` .. ``seed + games - 1``) and summarise."""
    rules = RuleSet.model_validate({"variant": variant, "target": target})
    matches = [play_match(rules, players, seed + i)[1] for i in range(games)]
    rounds = [r for m in matches for r in m.rounds]
    wins: dict[str, int] = {}
    for match in matches:
        if match.winner is not None:
            wins[match.winner] = wins.get(match.winner, 0) + 1
    return Summary(
        variant=variant,
        players=players,
        target=target,
        matches=len(matches),
        rounds=len(rounds),
        moves_per_round=Distribution.of([r.moves for r in rounds]),
        flips_per_round=(
            Distribution.of([r.flips for r in rounds])
            if variant_entry(variant).double_sided
            else None
        ),
        points_per_round=Distribution.of([r.points for r in rounds]),
        rounds_per_match=Distribution.of([len(m.rounds) for m in matches]),
        wins=dict(sorted(wins.items())),
    )


def format_summary(summary: Summary, seconds: float) -> str:
    """The summary as readable lines."""
    lines = [
        f"{summary.variant} UNO, {summary.players} players, target {summary.target}",
        f"matches:          {summary.matches}",
        f"rounds:           {summary.rounds}",
        f"moves per round:  {summary.moves_per_round}",
    ]
    if summary.flips_per_round is not None:
        lines.append(f"flips per round:  {summary.flips_per_round}")
    lines += [
        f"points per round: {summary.points_per_round}",
        f"rounds per match to {summary.target}: {summary.rounds_per_match}",
        "match wins:       " + ", ".join(f"{p} {n}" for p, n in summary.wins.items()),
        f"time taken:       {seconds:.2f} s",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point: simulate and print the summary."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.engine.simulate", description="Play random legal UNO matches."
    )
    parser.add_argument("--variant", choices=list(VARIANTS), default=DEFAULT_VARIANT)
    parser.add_argument("--players", type=int, default=4, help="within the variant's range")
    parser.add_argument("--games", type=int, default=100, help="matches to play")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", type=int, default=500, help="match target score")
    args = parser.parse_args(argv)
    entry = variant_entry(args.variant)
    if not entry.min_players <= args.players <= entry.max_players:
        parser.error(f"--players must be between {entry.min_players} and {entry.max_players}")
    if args.games < 1:
        parser.error("--games must be at least 1")
    started = time.perf_counter()
    summary = simulate(args.variant, args.players, args.games, args.seed, args.target)
    print(format_summary(summary, time.perf_counter() - started))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
