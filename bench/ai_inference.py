"""How well do the hard player's sampled deals guess the hidden hands? (Classic, normal players.)

Four normal players play seeded classic rounds; at each of the first seat's plain turns the
hard player's Sampler deals ``--samples`` determinizations from that seat's view, and each is
compared with the true hands of the three opponents:

- colour Brier score: for each opponent and colour, (share of deals in which they hold the
  colour - 1 if they truly do)^2, averaged (0 is perfect; lower is better);
- wild Brier score: the same for holding any wild;
- face match: the share of an opponent's true cards whose face the dealt hand also has.

Uses only ``Sampler``, ``can_sample`` and the engine, so the same script measures older code:

    .venv/bin/python -m bench.ai_inference --games 12
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from bot.ai import NormalStrategy
from bot.ai.montecarlo import Sampler, can_sample
from bot.engine import Game, PlayerView, RuleSet, view_for
from bot.engine.cards import Color
from bot.engine.game import TERMINAL_PHASES

COLORS = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)
SEATS = 4


def measure(games: int, samples: int, decisions: int) -> tuple[float, float, float, int]:
    """Colour Brier, wild Brier, face match and the number of (position, opponent) pairs."""
    normal = NormalStrategy()
    colour_error = wild_error = matched = 0.0
    pairs = dealt = 0
    for seed in range(games):
        players = [f"p{s}" for s in range(SEATS)]
        game = Game.new(players, RuleSet(variant="classic"), seed=100 + seed)
        rng = random.Random(seed)
        for _ in range(decisions):
            if game.phase in TERMINAL_PHASES:
                if game.match_winner is not None:
                    break
                game.start_next_round()
            player = game.current_player
            assert player is not None
            view = view_for(game, player)
            if player == players[0] and view.phase == "play" and can_sample(view):
                deals = _deals(view, samples, seed)
                for opponent in view.opponents:
                    truth = [game.face(c) for c in game.hand(opponent.player)]
                    held = [[d.face(c) for c in d.hand(opponent.player)] for d in deals]
                    for color in COLORS:
                        share = sum(any(f.color is color for f in h) for h in held) / samples
                        colour_error += (share - any(f.color is color for f in truth)) ** 2
                    share = sum(any(f.color is None for f in h) for h in held) / samples
                    wild_error += (share - any(f.color is None for f in truth)) ** 2
                    true_faces = Counter(truth)
                    for hand in held:
                        matched += sum((true_faces & Counter(hand)).values()) / max(1, len(truth))
                        dealt += 1
                    pairs += 1
            game.apply(player, normal.choose_move(view, rng))
    return colour_error / (len(COLORS) * pairs), wild_error / pairs, matched / dealt, pairs


def _deals(view: PlayerView, samples: int, seed: int) -> list[Game]:
    sampler = Sampler(view)
    rng = random.Random(seed)
    return [sampler.sample(rng) for _ in range(samples)]


def main() -> None:
    """Print the three scores for seeded games."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--samples", type=int, default=20, help="deals per position")
    parser.add_argument("--decisions", type=int, default=300, help="moves played per game")
    options = parser.parse_args()
    colour, wild, match, pairs = measure(options.games, options.samples, options.decisions)
    print(
        f"positions x opponents: {pairs}; colour Brier {colour:.4f}; wild Brier {wild:.4f}; "
        f"face match {match:.1%}"
    )


if __name__ == "__main__":
    main()
