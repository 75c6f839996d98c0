"""Does the hard player's reading of turns hurt against people who do not play like `normal`?

The hard player reads every turn of an opponent as a `normal` player's: a draw means none of
the cards held then could be played. People may draw while holding a playable card (the rules
allow it), which breaks that reading. Here three `normal` players draw instead of playing with
probability ``--lapse`` whenever they could play (outside the endgame), and the hard hero plays
them with its reading of turns, then without it (``blind``: deals ignore the turns), on the same
deals. Decisions use a fixed number of rollouts and no clock, so the machine's load cannot
change the results.

    .venv/bin/python -m bench.ai_lapses --lapse 0.2 --rounds 3000 --seed 1
"""

from __future__ import annotations

import argparse
import dataclasses
import random
from concurrent.futures import ProcessPoolExecutor

from bot.ai import HardStrategy, NormalStrategy, Strategy
from bot.ai.table import Table
from bot.engine.moves import DRAW, Move
from bot.engine.variants import VariantKey
from bot.engine.view import PlayerView

from .ai import PLAYERS, SEATS, batches, hero_against, play_seeded_round, wilson

ROLLOUTS_PER_DECISION = 60


@dataclasses.dataclass(frozen=True)
class LapsingNormal(NormalStrategy):
    """A normal player who sometimes draws although a card could be played."""

    lapse: float = 0.0

    def play_or_draw(self, table: Table, rng: random.Random) -> Move:
        """Normal's move, or a draw instead of a play with probability ``lapse``."""
        move = super().play_or_draw(table, rng)
        if move is not DRAW and not self.endgame(table) and rng.random() < self.lapse:
            return DRAW
        return move


@dataclasses.dataclass(frozen=True)
class BlindToTurns:
    """``inner`` deciding from views that show no opponent's turns (the blind hero).

    The turns are read nowhere else than in ``read_hand``, so the hero's deals and colour odds
    ignore them, as with a reading that knows nothing. (Patching ``read_hand`` instead would
    not reach the modules compiled by mypyc, which call it directly.)
    """

    inner: Strategy

    @property
    def difficulty(self) -> str:
        """The inner strategy's difficulty."""
        return self.inner.difficulty

    def within(self, seconds: float) -> BlindToTurns:
        """The inner strategy within ``seconds``, still blind."""
        return BlindToTurns(self.inner.within(seconds))

    def choose_move(self, view: PlayerView, rng: random.Random) -> Move:
        """The inner strategy's move for ``view`` with every opponent's turns left out."""
        opponents = tuple(dataclasses.replace(o, turns=()) for o in view.opponents)
        return self.inner.choose_move(dataclasses.replace(view, opponents=opponents), rng)


def play_rounds(job: tuple[float, bool, VariantKey, int, int, int]) -> tuple[int, int]:
    """(hero wins, finished rounds) of rounds ``start`` to ``stop``, hero seat rotating."""
    lapse, blind, variant, start, stop, seed = job
    hero: Strategy = HardStrategy(budget_seconds=None, max_rollouts=ROLLOUTS_PER_DECISION)
    if blind:
        hero = BlindToTurns(hero)
    villain = LapsingNormal(lapse=lapse)
    wins = finished = 0
    for index in range(start, stop):
        hero_player = PLAYERS[index % SEATS]
        game = play_seeded_round(variant, index, seed, hero_against(hero, villain, hero_player))
        if game is None:
            continue
        finished += 1
        wins += game.history[-1].winner == hero_player
    return wins, finished


def main() -> None:
    """Run the hero with and without its reading and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--lapse", type=float, default=0.2)
    parser.add_argument("--variant", choices=["flip", "classic"], default="classic")
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    print("| hero | opponents | variant | rounds | hero wins (95% CI) |")
    print("|---|---|---|---|---|")
    for blind in (False, True):
        jobs = [
            (args.lapse, blind, args.variant, a, b, args.seed)
            for a, b in batches(args.rounds, args.workers)
        ]
        with ProcessPoolExecutor(args.workers) as pool:
            parts = list(pool.map(play_rounds, jobs))
        wins = sum(w for w, _ in parts)
        finished = sum(n for _, n in parts)
        low, high = wilson(wins, finished)
        hero = "hard, blind to turns" if blind else "hard, reading turns"
        print(
            f"| {hero} | 3 normal drawing {args.lapse:.0%} of playable turns | {args.variant} "
            f"| {finished} | {wins / finished:.1%} [{low:.1%}, {high:.1%}] |",
            flush=True,
        )


if __name__ == "__main__":
    main()
