"""How well does a formula of the card counts predict who goes out first? Fits position_value.

The hard player cuts its rollouts after a few moves and scores the position by each player's
chance to go out first, taken from the card counts alone. This script plays seeded rounds of four
``normal`` players (the rollout policy itself), records the card counts at the start of every
turn and who went on to win the round, and prints the mean log-likelihood of the winner under
two families of formulas: ``exp(-s * cards)`` and the power law ``cards ** -k``. Higher is
better; guessing a quarter each scores ln(1/4) = -1.386.

    .venv/bin/python -m bench.ai_position --variant classic --rounds 2000
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from functools import partial

from bot.ai.montecarlo import policy_move
from bot.engine import Game, RuleSet
from bot.engine.game import TERMINAL_PHASES, Phase
from bot.engine.variants import VariantKey

from .ai import MAX_DECISIONS, SEATS

# One sample: the card counts at the start of a turn (seat order) and the seat that won.
Sample = tuple[tuple[int, ...], int]


def positions(variant: VariantKey, rounds: int, seed: int) -> list[Sample]:
    """Card counts at every turn of ``rounds`` seeded normal-vs-normal rounds, with the winner."""
    players = [f"p{s}" for s in range(SEATS)]
    samples: list[Sample] = []
    for index in range(rounds):
        game = Game.new(players, RuleSet(variant=variant, target=100_000), seed=seed * 7919 + index)
        game.remember_turns = False
        seen: list[tuple[int, ...]] = []
        for _ in range(MAX_DECISIONS):
            if game.phase in TERMINAL_PHASES:
                break
            if game.phase is Phase.PLAY:
                seen.append(tuple(len(hand) for hand in game.hands))
            player = game.players[game.current]
            game.apply(player, policy_move(game, player))
        else:
            continue
        winner = game.seat_of(game.history[-1].winner)
        samples.extend((counts, winner) for counts in seen)
    return samples


def log_likelihood(samples: list[Sample], weight: Callable[[int], float]) -> float:
    """Mean log-probability of the actual winner when chances are proportional to ``weight``."""
    total = 0.0
    for counts, winner in samples:
        weights = [weight(count) for count in counts]
        total += math.log(weights[winner] / sum(weights))
    return total / len(samples)


def exponential(sharpness: float, cards: int) -> float:
    """The former score's weight: ``exp(-sharpness * cards)``."""
    return math.exp(-sharpness * cards)


def power_law(exponent: float, cards: int) -> float:
    """The current score's weight: ``cards ** -exponent``."""
    return math.pow(max(cards, 1), -exponent)


def main() -> None:
    """Print one Markdown row per formula."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=["flip", "classic"], default="classic")
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    samples = positions(options.variant, options.rounds, options.seed)
    print(f"{options.variant}: {len(samples)} positions from {options.rounds} rounds")
    print("| formula | mean log-likelihood of the winner |\n|---|---|")
    print(f"| a quarter each | {math.log(1 / SEATS):.4f} |")
    for s in (0.3, 0.5, 1.0, 2.0):
        score = log_likelihood(samples, partial(exponential, s))
        print(f"| exp(-{s} * cards) | {score:.4f} |")
    for k in (0.8, 1.0, 1.1, 1.2, 1.5):
        score = log_likelihood(samples, partial(power_law, k))
        print(f"| cards ** -{k} | {score:.4f} |")


if __name__ == "__main__":
    main()
