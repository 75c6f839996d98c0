"""Engine throughput: random-agent rounds and moves per second, beside RLCard's UNO.

Run by hand (results go in docs/benchmarks.md):

    .venv/bin/pip install rlcard==1.2.0   # benchmark only, never a project dependency
    .venv/bin/python -m bench.engine --seconds 5
    .venv/bin/python -m bench.engine --profile flip:4
    .venv/bin/python -m bench.engine --paired 10   # 4 players, CPU time, pairs with RLCard
    .venv/bin/python -m bench.engine --count "flip, play-first" --passes 2   # for valgrind

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
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.engine import Game, Phase, PlayCard, RuleSet, dumps
from bot.engine.simulate import RandomAgent
from bot.engine.variants import VARIANTS

PLAYER_COUNTS = (2, 4, 10)
# Large enough that a benchmark run never reaches it: rounds are dealt back to back.
ENDLESS_TARGET = 100_000
# RLCard has no cap of its own; a round this long is abandoned and not counted.
RLCARD_MAX_MOVES = 20_000
ROUND_ENDS = (Phase.ROUND_OVER, Phase.MATCH_OVER)
# The paired CPU-time comparison: (label, variant, play first, rounds) of ours, each run beside
# this many RLCard rounds; sized so every run takes a few tenths of a second.
PAIRED_WORKLOADS = (
    ("flip, uniform", "flip", False, 8),
    ("flip, play-first", "flip", True, 150),
    ("classic, uniform", "classic", False, 8),
    ("classic, play-first", "classic", True, 150),
)
PAIRED_RLCARD_ROUNDS = 200


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


def rlcard_rounds(players: int) -> Callable[[], int] | None:
    """A seeded RLCard 1.2.0 UnoGame and a function playing one round of it (init_game, then
    get_legal_actions / step until is_over); it returns the moves, or -1 when abandoned. None
    when RLCard is not installed."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
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


def bench_rlcard(players: int, seconds: float, repeats: int = 1) -> Throughput | None:
    """RLCard's UnoGame raw loop (see ``rlcard_rounds``); None if RLCard is absent."""
    if rlcard_rounds(players) is None:
        return None

    def deal() -> Callable[[], int]:
        play = rlcard_rounds(players)
        assert play is not None
        return play

    return timed_rounds("rlcard classic", players, seconds, repeats, deal)


def cpu_rate_ours(variant: str, play_first: bool, rounds: int, players: int = 4) -> float:
    """Moves per CPU second over ``rounds`` seeded current-player rounds (the same every run)."""
    rules = RuleSet.model_validate({"variant": variant, "target": ENDLESS_TARGET})
    game = Game.new([f"p{i}" for i in range(players)], rules, seed=players)
    rng = random.Random(players)
    moves = 0
    started = time.process_time()
    for _ in range(rounds):
        moves += play_round_ours(game, rng, play_first=play_first)
        game = deal_next(game)
    return moves / (time.process_time() - started)


def cpu_rate_rlcard(rounds: int, players: int = 4) -> float:
    """Moves per CPU second over ``rounds`` seeded RLCard rounds (abandoned ones not counted)."""
    play = rlcard_rounds(players)
    assert play is not None
    moves = 0
    started = time.process_time()
    for _ in range(rounds):
        moves += max(play(), 0)
    return moves / (time.process_time() - started)


def count_passes(workload: str, passes: int, players: int = 4) -> int:
    """Play one paired workload's seeded rounds ``passes`` times; the moves of one pass.

    Untimed, for counting instructions (valgrind --tool=cachegrind): the count of two passes
    minus the count of one is the second pass alone, after the first warmed every cache up.
    """
    if workload == "rlcard classic":
        moves = 0
        for _ in range(passes):
            play = rlcard_rounds(players)
            assert play is not None, "RLCard is not installed"
            moves = sum(max(play(), 0) for _ in range(PAIRED_RLCARD_ROUNDS))
        return moves
    found = [w for w in PAIRED_WORKLOADS if w[0] == workload]
    if not found:
        labels = ", ".join(repr(w[0]) for w in PAIRED_WORKLOADS)
        raise SystemExit(f"--count takes one of {labels} or 'rlcard classic'")
    _, variant, play_first, rounds = found[0]
    rules = RuleSet.model_validate({"variant": variant, "target": ENDLESS_TARGET})
    moves = 0
    for _ in range(passes):
        game = Game.new([f"p{i}" for i in range(players)], rules, seed=players)
        rng = random.Random(players)
        moves = 0
        for _ in range(rounds):
            moves += play_round_ours(game, rng, play_first=play_first)
            game = deal_next(game)
    return moves


def paired(repeats: int, players: int = 4) -> str:
    """Each of our workloads in CPU time right after an RLCard run of similar length.

    On a shared machine both runs of a pair meet about the same load, so the median of the
    pairs' ratios is steadier than ratios of separate best-of runs; the best rates are shown too.
    """
    if rlcard_rounds(players) is None:
        return "RLCard is not installed: pip install rlcard==1.2.0 to compare."
    ratios: dict[str, list[float]] = {label: [] for label, *_ in PAIRED_WORKLOADS}
    best: dict[str, float] = dict.fromkeys([*ratios, "rlcard classic"], 0.0)
    for _ in range(repeats):
        for label, variant, play_first, rounds in PAIRED_WORKLOADS:
            theirs = cpu_rate_rlcard(PAIRED_RLCARD_ROUNDS, players)
            ours = cpu_rate_ours(variant, play_first, rounds, players)
            ratios[label].append(ours / theirs)
            best[label] = max(best[label], ours)
            best["rlcard classic"] = max(best["rlcard classic"], theirs)
    lines = [
        f"| {players} players, CPU time | Best moves/s | Ratio to RLCard (median, min–max) |",
        "|---|---:|---:|",
    ]
    for label, found in ratios.items():
        lines.append(
            f"| unoflip {label} | {best[label]:,.0f} | {statistics.median(found):.2f}x "
            f"({min(found):.2f}–{max(found):.2f}) |"
        )
    lines.append(f"| rlcard classic | {best['rlcard classic']:,.0f} | 1.00x |")
    return "\n".join(lines)


def max_state_bytes(players: int = 10, matches: int = 20) -> int:
    """The largest serialised Flip state seen over whole random matches to 500."""
    largest = 0
    for seed in range(matches):
        game = Game.new([f"p{i}" for i in range(players)], RuleSet(variant="flip"), seed)
        agent = RandomAgent(seed)
        largest = max(largest, len(dumps(game).encode()))
        for _ in agent.walk(game):
            largest = max(largest, len(dumps(game).encode()))
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
    parser.add_argument(
        "--paired", type=int, metavar="REPEATS", help="only the paired CPU-time comparison"
    )
    parser.add_argument(
        "--count",
        metavar="WORKLOAD",
        help='only play a paired workload (e.g. "flip, play-first") untimed, for valgrind',
    )
    parser.add_argument("--passes", type=int, default=2, help="with --count: passes to play")
    args = parser.parse_args(argv)
    if args.count:
        moves = count_passes(args.count, args.passes)
        print(f"{args.count}: {args.passes} passes, {moves:,} moves in each")
        return 0
    if args.paired:
        print(paired(args.paired))
        return 0
    if args.profile:
        variant, players = args.profile.split(":")
        print(profile(variant, int(players)))
        return 0
    results: list[Throughput] = []
    timing = (args.seconds, args.repeats)
    for players in PLAYER_COUNTS:
        # Every registered variant at the player counts it seats (No Mercy: up to 6).
        for variant in (key for key, entry in VARIANTS.items() if players <= entry.max_players):
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
