"""Shared helpers for the AI tests: seeded games played by computer players."""

from __future__ import annotations

import random
from collections.abc import Iterator

from bot.ai import EasyStrategy, HardStrategy, NormalStrategy, Strategy
from bot.engine import Game, PlayerView, RuleSet, view_for
from bot.engine.game import TERMINAL_PHASES

# Hard without a clock: a fixed, small rollout count keeps tests deterministic and quick.
HARD_FOR_TESTS = HardStrategy(budget_seconds=None, max_rollouts=6)
STRATEGIES: dict[str, Strategy] = {
    "easy": EasyStrategy(),
    "normal": NormalStrategy(),
    "hard": HARD_FOR_TESTS,
}
RULE_SETS: tuple[RuleSet, ...] = (
    RuleSet(variant="flip"),
    RuleSet(variant="classic"),
    RuleSet(variant="flip", stacking=True, draw_until_playable=True),
    RuleSet(variant="classic", seven_o=True, edition="swap_hands"),
    RuleSet(variant="classic", stacking=True, edition="shuffle_hands", forced_play=True),
)


def decisions(
    rules: RuleSet, seed: int, seats: list[Strategy], limit: int
) -> Iterator[tuple[Game, PlayerView, Strategy, random.Random]]:
    """Every decision point of seeded rounds played by ``seats``, up to ``limit`` decisions."""
    players = [f"p{i}" for i in range(len(seats))]
    by_player = dict(zip(players, seats, strict=True))
    game = Game.new(players, rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if game.phase in TERMINAL_PHASES:
            if game.match_winner is not None:
                return
            game.start_next_round()
        player = game.current_player
        assert player is not None
        view = view_for(game, player)
        strategy = by_player[player]
        yield game, view, strategy, rng
        game.apply(player, strategy.choose_move(view, rng))
