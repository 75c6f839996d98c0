"""Benchmark the computer players: win rates, points per round and decision times.

Each line-up seats one "hero" strategy against three copies of another in four-player rounds;
the hero's seat rotates round by round and every round is seeded, so a run is reproducible.

    .venv/bin/python -m bench.ai --rounds 10000 --workers 2

Results (with 95% confidence intervals) are recorded in docs/benchmarks.md, section "AI".
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import platform
import random
import statistics
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from bot.ai import (
    DEFAULT_CATCH_RATE,
    Difficulty,
    HardStrategy,
    Strategy,
    strategy_for,
    wants_to_catch,
)
from bot.engine import Game, Move, RuleSet, view_for
from bot.engine.game import TERMINAL_PHASES
from bot.engine.variants import VariantKey

SEATS = 4
# HardStrategy fields to override for a screen, as (name, value) pairs.
Overrides = tuple[tuple[str, float | int | None], ...]
# A round that has not ended after this many decisions is counted as unfinished.
MAX_DECISIONS = 5000
LINEUPS: tuple[tuple[Difficulty, Difficulty, VariantKey], ...] = (
    ("normal", "easy", "flip"),
    ("normal", "easy", "classic"),
    ("hard", "normal", "flip"),
    ("hard", "normal", "classic"),
)


@dataclass
class Tally:
    """Results of a batch of rounds from the hero's point of view."""

    rounds: int = 0
    unfinished: int = 0
    hero_wins: int = 0
    # Points per round: the hero, then the opponents by seat offset (left, across, right).
    points: list[list[int]] = field(default_factory=lambda: [[] for _ in range(SEATS)])
    hero_times: list[float] = field(default_factory=list)
    other_times: list[float] = field(default_factory=list)

    def merge(self, other: Tally) -> None:
        """Add another batch to this one."""
        self.rounds += other.rounds
        self.unfinished += other.unfinished
        self.hero_wins += other.hero_wins
        for mine, theirs in zip(self.points, other.points, strict=True):
            mine.extend(theirs)
        self.hero_times.extend(other.hero_times)
        self.other_times.extend(other.other_times)


def tuned(difficulty: Difficulty, overrides: Overrides) -> Strategy:
    """The strategy for ``difficulty`` with ``overrides`` applied to the hard player's knobs."""
    strategy = strategy_for(difficulty)
    if difficulty == "hard" and overrides:
        return dataclasses.replace(strategy, **dict(overrides))  # type: ignore[type-var]
    return strategy


def parse_override(text: str) -> tuple[str, float | int | None]:
    """``name=value`` for a HardStrategy field (a number, or "none")."""
    name, _, raw = text.partition("=")
    if name not in {f.name for f in dataclasses.fields(HardStrategy)}:
        raise argparse.ArgumentTypeError(f"HardStrategy has no field {name!r}")
    if raw.lower() == "none":
        return name, None
    return name, float(raw) if "." in raw or "e" in raw else int(raw)


# One decision of a bench round: (game, player to move, the round's rng) -> that player's move.
Decide = Callable[[Game, str, random.Random], Move]
PLAYERS = tuple(f"p{s}" for s in range(SEATS))


def play_seeded_round(
    variant: VariantKey,
    index: int,
    seed: int,
    decide: Decide,
    catch_rates: Mapping[str, float] | None = None,
) -> Game | None:
    """Round ``index`` of ``seed`` (its deal and its rng follow from both), every decision made
    by ``decide``; a forgotten UNO is caught by the first player who wants to (at their rate in
    ``catch_rates``, else the default). The finished game, or None when the round has not ended
    within ``MAX_DECISIONS`` decisions."""
    rng = random.Random(seed * 1_000_003 + index)
    rules = RuleSet(variant=variant, target=100_000)
    game = Game.new(list(PLAYERS), rules, seed=seed * 7919 + index)
    for _ in range(MAX_DECISIONS):
        if game.phase in TERMINAL_PHASES:
            return game
        if game.catchable() is not None:
            for p in PLAYERS:
                rate = DEFAULT_CATCH_RATE if catch_rates is None else catch_rates[p]
                catch = wants_to_catch(view_for(game, p), rng, rate)
                if catch is not None:
                    game.apply(p, catch)
                    break
        player = game.current_player
        assert player is not None
        game.apply(player, decide(game, player, rng))
    return None


def hero_against(hero: Strategy, villain: Strategy, hero_player: str) -> Decide:
    """Decisions by ``hero`` for ``hero_player`` and by ``villain`` for everyone else."""

    def decide(game: Game, player: str, rng: random.Random) -> Move:
        strategy = hero if player == hero_player else villain
        return strategy.choose_move(view_for(game, player), rng)

    return decide


def play_round(
    hero: Difficulty,
    villain: Difficulty,
    variant: VariantKey,
    index: int,
    seed: int,
    overrides: Overrides = (),
) -> Tally:
    """One seeded round with the hero in seat ``index % 4``."""
    hero_seat = index % SEATS
    hero_player = PLAYERS[hero_seat]
    strategies = {p: tuned(hero if p == hero_player else villain, overrides) for p in PLAYERS}
    tally = Tally(rounds=1)

    def timed(game: Game, player: str, rng: random.Random) -> Move:
        started = time.perf_counter()
        move = strategies[player].choose_move(view_for(game, player), rng)
        elapsed = time.perf_counter() - started
        (tally.hero_times if player == hero_player else tally.other_times).append(elapsed)
        return move

    rates = {p: strategy.catch_rate for p, strategy in strategies.items()}  # type: ignore[attr-defined]
    game = play_seeded_round(variant, index, seed, timed, rates)
    if game is None:
        tally.unfinished = 1
        return tally
    result = game.history[-1]
    tally.hero_wins = int(result.winner == hero_player)
    for offset in range(SEATS):
        tally.points[offset].append(result.awarded[PLAYERS[(hero_seat + offset) % SEATS]])
    return tally


def run_batch(args: tuple[Difficulty, Difficulty, VariantKey, int, int, int, Overrides]) -> Tally:
    """Rounds ``start`` to ``stop`` of a line-up (one worker's share)."""
    hero, villain, variant, start, stop, seed, overrides = args
    tally = Tally()
    for index in range(start, stop):
        tally.merge(play_round(hero, villain, variant, index, seed, overrides))
    return tally


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95% interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def mean_interval(values: list[int]) -> str:
    """Mean ± the 95% half-width of a normal approximation."""
    if len(values) < 2:
        return "n/a"
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{statistics.fmean(values):.1f} ± {half:.1f}"


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) in milliseconds."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def batches(rounds: int, workers: int) -> Iterator[tuple[int, int]]:
    """Split ``rounds`` into ``workers`` contiguous ranges."""
    step = math.ceil(rounds / workers)
    for start in range(0, rounds, step):
        yield start, min(rounds, start + step)


def main() -> None:
    """Run the line-ups and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000, help="rounds per line-up")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--lineup",
        action="append",
        help="hero:villain:variant, e.g. hard:normal:flip (default: the four standard ones)",
    )
    parser.add_argument(
        "--set",
        dest="overrides",
        action="append",
        type=parse_override,
        default=[],
        metavar="NAME=VALUE",
        help="override a HardStrategy field for screens, e.g. --set switch_margin=1.5",
    )
    options = parser.parse_args()
    lineups = [tuple(s.split(":")) for s in options.lineup] if options.lineup else list(LINEUPS)
    print(
        f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}"
    )
    if options.overrides:
        print("hard overrides: " + ", ".join(f"{k}={v}" for k, v in options.overrides))
    print(
        "| line-up | variant | rounds | hero wins (95% CI) | points/round (95% CI): hero · left"
        " · across · right | hero decision p50 / p99 / max ms | unfinished | wall s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for hero, villain, variant in lineups:
        started = time.perf_counter()
        jobs = [
            (hero, villain, variant, a, b, options.seed, tuple(options.overrides))
            for a, b in batches(options.rounds, options.workers)
        ]
        total = Tally()
        with ProcessPoolExecutor(options.workers) as pool:
            for part in pool.map(run_batch, jobs):
                total.merge(part)
        finished = total.rounds - total.unfinished
        low, high = wilson(total.hero_wins, finished)
        rate = total.hero_wins / finished if finished else 0.0
        points = " · ".join(mean_interval(p) for p in total.points)
        times = total.hero_times
        print(
            f"| {hero} vs 3 {villain} | {variant} | {total.rounds} | "
            f"{rate:.1%} [{low:.1%}, {high:.1%}] | {points} | "
            f"{percentile(times, 0.5):.2f} / {percentile(times, 0.99):.2f} / "
            f"{max(times, default=0) * 1000:.1f} | {total.unfinished} | "
            f"{time.perf_counter() - started:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
