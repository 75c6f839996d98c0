"""Engine throughput: random-agent rounds and moves per second, beside RLCard's UNO.

Run by hand (results go in docs/benchmarks.md):

    .venv/bin/pip install rlcard==1.2.0   # benchmark only, never a project dependency
    .venv/bin/python -m bench.engine --seconds 5
    .venv/bin/python -m bench.engine --profile flip:4

Both engines are driven the same way: the current player picks at random among its legal moves
until the round ends, then a new round is dealt. RLCard's UNO is classic UNO without UNO calls,
challenges or scoring; it only offers "draw" when nothing is playable and folds a wild and its
colour into one action. So our engine is measured twice: "uniform" picks among all our legal
moves (drawing is always legal, so hands grow and rounds run long), "play-first" picks among
playable cards when there are any, as RLCard's action space forces. Each figure is the best of
``--repeats`` runs, since the machine may be shared.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.engine import Game, Phase, PlayCard, RuleSet
from bot.engine.simulate import RandomAgent

PLAYER_COUNTS = (2, 4, 10)
# Large enough that a benchmark run never reaches it: rounds are dealt back to back.
ENDLESS_TARGET = 100_000
# RLCard has no cap of its own; a round this long is abandoned and not counted.
RLCARD_MAX_MOVES = 20_000
ROUND_ENDS = (Phase.ROUND_OVER, Phase.MATCH_OVER)


@dataclass(frozen=True, slots=True)
class Throughput:
    """Complete rounds and their moves played in ``seconds``."""

    engine: str
    players: int
    rounds: int
    moves: int
    seconds: float

    @property
    def rounds_per_second(self) -> float:
        """Complete rounds per second."""
        return self.rounds / self.seconds

    @property
    def moves_per_second(self) -> float:
        """Moves per second over complete rounds."""
        return self.moves / self.seconds


def deal_next(game: Game) -> Game:
    """The next round of ``game``, or a new match once the (huge) target has been reached."""
    if game.phase is Phase.MATCH_OVER:
        return Game.new(list(game.players), game.rules, game.seed + 1)
    game.start_next_round()
    return game


def play_round_ours(game: Game, rng: random.Random, *, play_first: bool = False) -> int:
    """One round by a current-player random agent; returns the moves made."""
    moves = 0
    while game.phase not in ROUND_ENDS:
        player = game.players[game.current]
        legal = game.legal_moves(player)
        if play_first:
            legal = [move for move in legal if type(move) is PlayCard] or legal
        game.apply(player, rng.choice(legal))
        moves += 1
    return moves


def play_round_all_players(game: Game, agent: RandomAgent) -> int:
    """One round by the property tests' agent (every player's moves, UNO calls included)."""
    moves = 0
    while game.phase not in ROUND_ENDS:
        agent.step(game)
        moves += 1
    return moves


def timed_rounds(
    engine: str, players: int, seconds: float, repeats: int, deal: Callable[[], Callable[[], int]]
) -> Throughput:
    """Best of ``repeats`` runs of rounds from a fresh ``deal()`` for ``seconds`` each.

    Only complete rounds count; a round that returns -1 was abandoned and is dropped.
    """
    best: Throughput | None = None
    for _ in range(repeats):
        play = deal()
        rounds = moves = 0
        started = time.perf_counter()
        while (elapsed := time.perf_counter() - started) < seconds:
            made = play()
            if made >= 0:
                rounds += 1
                moves += made
        run = Throughput(engine, players, rounds, moves, elapsed)
        if best is None or run.moves_per_second > best.moves_per_second:
            best = run
    assert best is not None
    return best


def bench_ours(
    variant: str, players: int, seconds: float, repeats: int = 1, *, policy: str = "uniform"
) -> Throughput:
    """Our engine, rounds dealt back to back in one endless match; ``policy`` as in the docs."""
    rules = RuleSet.model_validate({"variant": variant, "target": ENDLESS_TARGET})

    def deal() -> Callable[[], int]:
        game = Game.new([f"p{i}" for i in range(players)], rules, seed=players)
        rng = random.Random(players)
        agent = RandomAgent(players)

        def play() -> int:
            nonlocal game
            if game.phase in ROUND_ENDS:
                game = deal_next(game)
                agent.moves_this_round = 0
            if policy == "all players":
                return play_round_all_players(game, agent)
            return play_round_ours(game, rng, play_first=policy == "play-first")

        return play

    return timed_rounds(f"unoflip {variant}, {policy}", players, seconds, repeats, deal)


def bench_rlcard(players: int, seconds: float, repeats: int = 1) -> Throughput | None:
    """RLCard 1.2.0's UnoGame raw loop (init_game, get_legal_actions, step); None if absent."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None

    def deal() -> Callable[[], int]:
        game: Any = UnoGame(num_players=players)
        game.np_random = np.random.RandomState(players)
        rng = random.Random(players)

        def play() -> int:
            game.init_game()
            moves = 0
            while not game.is_over():
                if moves >= RLCARD_MAX_MOVES:
                    return -1
                game.step(rng.choice(game.get_legal_actions()))
                moves += 1
            return moves

        return play

    return timed_rounds("rlcard classic", players, seconds, repeats, deal)


def max_state_bytes(players: int = 10, matches: int = 20) -> int:
    """The largest serialised Flip state seen over whole random matches to 500."""
    largest = 0
    for seed in range(matches):
        game = Game.new([f"p{i}" for i in range(players)], RuleSet(variant="flip"), seed)
        agent = RandomAgent(seed)
        largest = max(largest, len(game.model_dump_json().encode()))
        for _ in agent.walk(game):
            largest = max(largest, len(game.model_dump_json().encode()))
    return largest


def profile(variant: str, players: int, rounds: int = 300, top: int = 25) -> str:
    """cProfile of ``rounds`` current-player random rounds; the top functions by own time."""
    rules = RuleSet.model_validate({"variant": variant, "target": ENDLESS_TARGET})
    game = Game.new([f"p{i}" for i in range(players)], rules, seed=1)
    rng = random.Random(1)
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(rounds):
        play_round_ours(game, rng)
        game = deal_next(game)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def table(results: list[Throughput]) -> str:
    """The results as a Markdown table."""
    lines = [
        "| Engine | Players | Rounds/s | Moves/s | Moves/round |",
        "|---|---:|---:|---:|---:|",
    ]
    for r in results:
        per_round = r.moves / r.rounds if r.rounds else 0.0
        lines.append(
            f"| {r.engine} | {r.players} | {r.rounds_per_second:,.0f} | "
            f"{r.moves_per_second:,.0f} | {per_round:,.0f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark (or a profile) and print Markdown."""
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="per run")
    parser.add_argument("--repeats", type=int, default=3, help="runs per configuration")
    parser.add_argument("--profile", metavar="VARIANT:PLAYERS", help="profile instead, e.g. flip:4")
    args = parser.parse_args(argv)
    if args.profile:
        variant, players = args.profile.split(":")
        print(profile(variant, int(players)))
        return 0
    results: list[Throughput] = []
    timing = (args.seconds, args.repeats)
    for players in PLAYER_COUNTS:
        for variant in ("flip", "classic"):
            for policy in ("uniform", "play-first"):
                results.append(bench_ours(variant, players, *timing, policy=policy))
        rlcard = bench_rlcard(players, *timing)
        if rlcard is not None:
            results.append(rlcard)
        results.append(bench_ours("flip", players, *timing, policy="all players"))
    print(table(results))
    if bench_rlcard(2, 0.0) is None:
        print("\nRLCard is not installed: pip install rlcard==1.2.0 to compare.")
    print(f"\nLargest 10-player Flip state over 20 matches: {max_state_bytes():,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
