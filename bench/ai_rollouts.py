"""How many rollouts does the hard player run per CPU second? (Fixed positions, no clock.)

Four ``normal`` players play seeded rounds, half Flip and half classic; every ``--every``-th
decision at which ``hard`` would compare moves by rollouts becomes a position, until there are
``--positions``. At each, ``run_rollouts`` runs with ``hard``'s settings, a fixed cap of
``--rollouts`` and no deadline, so the work done is the same on any machine and under any load:
only the CPU time spent on it changes. The CPU time of the rollouts alone (the deals, the
policy, the engine) is measured with ``time.process_time``, which load on the other core does
not inflate.

A digest of every rollout value and of the move ``hard`` would pick is printed too: two builds
(interpreted and compiled, or before and after an optimisation) that print the same digest
decided everything alike.

    .venv/bin/python -m bench.ai_rollouts --positions 40 --rollouts 200
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import random
import sys
import time
from dataclasses import dataclass

from bot.ai import HardStrategy, NormalStrategy
from bot.ai.montecarlo import Rollouts
from bot.ai.table import Table
from bot.engine import Game, Move, PlayerView, RuleSet, view_for
from bot.engine.game import TERMINAL_PHASES
from bot.engine.variants import VariantKey

from .ai import MAX_DECISIONS, SEATS

# Hard without a clock (the cap only makes it want rollouts; measure() passes its own).
HARD = HardStrategy(budget_seconds=None, max_rollouts=1)
VARIANTS: tuple[VariantKey, ...] = ("flip", "classic")


@dataclass
class RolloutsResult:
    """What one pass over the positions measured."""

    positions: int
    rollouts: int
    cpu_seconds: float
    digest: str

    @property
    def per_cpu_second(self) -> float:
        """Rollouts per second of CPU time."""
        return self.rollouts / self.cpu_seconds if self.cpu_seconds else 0.0


def positions(count: int, every: int, seed: int) -> list[tuple[PlayerView, list[Move]]]:
    """``count`` views at which ``hard`` would roll out, with its candidates, half per variant."""
    found: list[tuple[PlayerView, list[Move]]] = []
    normal = NormalStrategy()
    players = [f"p{s}" for s in range(SEATS)]
    index = 0
    while len(found) < count:
        variant = VARIANTS[index % len(VARIANTS)]
        game = Game.new(players, RuleSet(variant=variant, target=100_000), seed=seed * 7919 + index)
        rng = random.Random(index)
        seen = 0
        for _ in range(MAX_DECISIONS):
            if game.phase in TERMINAL_PHASES or len(found) >= count:
                break
            player = game.current_player
            assert player is not None
            view = view_for(game, player)
            candidates = _candidates(view, rng)
            if candidates is not None:
                seen += 1
                if seen % every == 0:
                    found.append((view, candidates))
            game.apply(player, normal.choose_move(view, rng))
        index += 1
    return found


def _candidates(view: PlayerView, rng: random.Random) -> list[Move] | None:
    """The moves ``hard`` would roll out at ``view`` (None: it decides without rollouts)."""
    if not view.legal_moves or view.current_player != view.player:
        return None
    _, candidates = HARD.rollout_plan(Table(view), rng)
    return candidates or None


def measure(found: list[tuple[PlayerView, list[Move]]], rollouts: int, seed: int) -> RolloutsResult:
    """Run ``rollouts`` rollouts (at most) at every position; CPU time and digest."""
    digest = hashlib.sha256()
    runs = 0
    cpu = 0.0
    for index, (view, candidates) in enumerate(found):
        started = time.process_time()
        rng = random.Random(seed * 1_000_003 + index)
        result: Rollouts = HARD.roll_out(view, candidates, rng, rollouts, deadline=None)
        cpu += time.process_time() - started
        runs += result.runs
        chosen = candidates[result.best(0, HARD.switch_margin)]
        digest.update(repr((result.values, chosen)).encode())
    return RolloutsResult(len(found), runs, cpu, digest.hexdigest()[:16])


def compiled_modules() -> list[str]:
    """The bot.ai and bot.engine modules loaded from a compiled extension, not a .py file."""
    return sorted(
        name
        for name, module in sys.modules.items()
        if name.startswith(("bot.ai", "bot.engine"))
        and not (getattr(module, "__file__", None) or "").endswith(".py")
    )


def main() -> None:
    """Find the positions, run the rollouts ``--repeats`` times and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--rollouts", type=int, default=200)
    parser.add_argument("--every", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    found = positions(args.positions, args.every, args.seed)
    compiled = compiled_modules()
    print(
        f"Python {platform.python_version()}, compiled: {', '.join(compiled) or 'nothing'}; "
        f"{len(found)} positions, at most {args.rollouts} rollouts each"
    )
    for repeat in range(args.repeats):
        result = measure(found, args.rollouts, args.seed)
        print(
            f"run {repeat + 1}: {result.rollouts:,} rollouts in {result.cpu_seconds:.2f} CPU s, "
            f"{result.per_cpu_second:,.0f} per CPU second (digest {result.digest})",
            flush=True,
        )


if __name__ == "__main__":
    main()
