"""How much is hidden information worth to the hard player? A deliberate cheat, for analysis only.

The hero makes the hard player's decisions (its heuristic, its candidates, its switch margin)
but judges the candidates with a fixed number of rollouts per candidate on deals built from one
of three levels of knowledge:

- ``view``: the honest determinizations the real hard player uses (its PlayerView only);
- ``colours``: the same, then each opponent's hand re-dealt to its TRUE colour counts;
- ``next``: the same, then the next player's hand replaced by their TRUE hand;
- ``hands``: the TRUE hands (only the draw pile's order stays hidden).

The gap between ``view`` and ``hands`` is what better inference could at most buy; nothing here
is used by the bot. Three normal players fill the other seats, the hero's seat rotates.

    .venv/bin/python -m bench.ai_ceiling --variant classic --knowledge hands --rounds 800
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Literal

from bot.ai import HardStrategy, NormalStrategy
from bot.ai.montecarlo import Rollouts, Sampler, can_sample, rollout_value
from bot.ai.table import Table, bookkeeping_move
from bot.engine import Game, view_for
from bot.engine.moves import Move
from bot.engine.variants import VariantKey

from .ai import PLAYERS, SEATS, batches, play_seeded_round, wilson

Knowledge = Literal["view", "colours", "next", "hands"]


def true_colour_deal(deal: Game, truth: Game, me: int, rng: random.Random) -> Game:
    """``deal`` with every opponent's hand re-dealt to the colour counts it truly has."""
    pool = [c for seat, hand in enumerate(deal.hands) if seat != me for c in hand]
    pool += deal.draw_pile
    rng.shuffle(pool)
    hands: list[list[int]] = []
    for seat, hand in enumerate(truth.hands):
        if seat == me:
            hands.append(list(deal.hands[me]))
            continue
        wanted = Counter(deal.face(c).color for c in hand)
        dealt: list[int] = []
        for card in pool:
            color = deal.face(card).color
            if wanted[color] > 0:
                wanted[color] -= 1
                dealt.append(card)
        taken = set(dealt)
        pool = [c for c in pool if c not in taken]
        hands.append(dealt)
    deal.hands = hands
    deal.draw_pile = pool
    return deal


def true_next_deal(deal: Game, truth: Game, me: int) -> Game:
    """``deal`` with the next player's TRUE hand; the cards it displaces take their places."""
    seat = truth.next_seat(me)
    wanted = set(truth.hands[seat])
    displaced = [c for c in deal.hands[seat] if c not in wanted]
    deal.hands[seat] = list(truth.hands[seat])
    places = [h for s, h in enumerate(deal.hands) if s not in (me, seat)]
    places += [deal.draw_pile, deal.discard]
    for place in places:
        for i, card in enumerate(place):
            # (The top card is public: it can never be one of theirs.)
            if card in wanted and displaced and not (place is deal.discard and i == len(place) - 1):
                place[i] = displaced.pop()
    return deal


def judged_move(
    hero: HardStrategy,
    truth: Game,
    player: str,
    rng: random.Random,
    knowledge: Knowledge,
    rollouts: int,
) -> Move:
    """The hard player's decision, its candidates rolled out on deals of the given knowledge."""
    view = view_for(truth, player)
    chosen = bookkeeping_move(view, rng, hero.catch_rate)
    if chosen is not None:
        return chosen
    table = Table(view)
    heuristic = NormalStrategy.decide(hero, table, rng)
    candidates = hero.rollout_candidates_for(table, heuristic)
    if len(candidates) < 2 or not can_sample(view):
        return heuristic
    sampler = Sampler(view)
    me = truth.seat_of(player)
    values: list[list[float]] = [[] for _ in candidates]
    for _ in range(rollouts):
        seed = rng.getrandbits(32)
        if knowledge == "hands":
            deal = truth.fork(seed)
            random.Random(seed).shuffle(deal.draw_pile)
        else:
            deal = sampler.sample(random.Random(seed))
            if knowledge == "colours":
                deal = true_colour_deal(deal, truth, me, random.Random(seed))
            elif knowledge == "next":
                deal = true_next_deal(deal, truth, me)
        for index, move in enumerate(candidates):
            game = deal.fork(seed)
            game.apply(player, move)
            values[index].append(rollout_value(game, player, hero.point_value, hero.rollout_depth))
    result = Rollouts(tuple(tuple(v) for v in values))
    return candidates[result.best(0, hero.switch_margin)]


def play_round(
    variant: VariantKey, index: int, seed: int, knowledge: Knowledge, rollouts: int
) -> int:
    """One seeded round; 1 if the hero (seat ``index % 4``) won it."""
    hero_player = PLAYERS[index % SEATS]
    hero, normal = HardStrategy(), NormalStrategy()

    def decide(game: Game, player: str, rng: random.Random) -> Move:
        if player == hero_player:
            return judged_move(hero, game, player, rng, knowledge, rollouts)
        return normal.choose_move(view_for(game, player), rng)

    game = play_seeded_round(variant, index, seed, decide)
    return 0 if game is None else int(game.history[-1].winner == hero_player)


def run_batch(args: tuple[VariantKey, int, int, int, Knowledge, int]) -> int:
    """Hero wins over rounds ``start`` to ``stop``."""
    variant, start, stop, seed, knowledge, rollouts = args
    return sum(play_round(variant, i, seed, knowledge, rollouts) for i in range(start, stop))


def main() -> None:
    """Print the hero's win rate with a 95% interval for one knowledge level."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=["flip", "classic"], default="classic")
    parser.add_argument("--knowledge", choices=["view", "colours", "next", "hands"], default="view")
    parser.add_argument("--rounds", type=int, default=800)
    parser.add_argument("--rollouts", type=int, default=40, help="rollouts per candidate")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--workers", type=int, default=2)
    options = parser.parse_args()
    jobs = [
        (options.variant, a, b, options.seed, options.knowledge, options.rollouts)
        for a, b in batches(options.rounds, options.workers)
    ]
    with ProcessPoolExecutor(options.workers) as pool:
        wins = sum(pool.map(run_batch, jobs))
    low, high = wilson(wins, options.rounds)
    print(
        f"| {options.variant} | {options.knowledge} | {options.rounds} | {options.rollouts} | "
        f"{wins / options.rounds:.1%} [{low:.1%}, {high:.1%}] |"
    )


if __name__ == "__main__":
    main()
