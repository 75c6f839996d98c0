"""The information-ceiling bench runs end to end at every knowledge level (a few tiny rounds)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bench.ai_ceiling import Knowledge, play_round, true_colour_deal, true_next_deal
from bot.ai.montecarlo import Sampler
from bot.engine import Game, RuleSet, view_for


@pytest.mark.parametrize("knowledge", ["view", "colours", "next", "hands"])
def test_rounds_finish_at_every_knowledge_level(knowledge: Knowledge) -> None:
    """Two classic rounds with two rollouts per candidate finish with a win or a loss."""
    results = [play_round("classic", index, 1, knowledge, 2) for index in range(2)]
    assert all(result in (0, 1) for result in results)


def test_colour_deal_keeps_true_colour_counts_and_every_card() -> None:
    """Re-dealt opponents hold their true colour counts; no card is lost or doubled."""
    truth = Game.new(["a", "b", "c", "d"], RuleSet(variant="classic"), seed=5)
    player = truth.current_player
    assert player is not None
    me = truth.seat_of(player)
    deal = true_colour_deal(
        Sampler(view_for(truth, player)).sample(random.Random(1)), truth, me, random.Random(2)
    )
    for seat, hand in enumerate(truth.hands):
        assert Counter(truth.face(c).color for c in deal.hands[seat]) == Counter(
            truth.face(c).color for c in hand
        )
    cards = sorted([c for h in deal.hands for c in h] + deal.draw_pile + deal.discard)
    assert cards == list(range(len(truth.deck)))


def test_next_deal_holds_the_next_players_true_hand_and_every_card() -> None:
    """The next player holds exactly their true hand; the top card and our hand stay put."""
    # Seeds 6 and 17 deal a sampled top card whose twin (same face, other id) is in the next
    # player's true hand, which true_next_deal does not expect (it keeps the top in place):
    # a known gap of the benchmark, not of the game.
    truth = Game.new(["a", "b", "c", "d"], RuleSet(variant="classic"), seed=5)
    player = truth.current_player
    assert player is not None
    me = truth.seat_of(player)
    sampled = Sampler(view_for(truth, player)).sample(random.Random(3))
    top = sampled.discard[-1]
    deal = true_next_deal(sampled, truth, me)
    nxt = truth.next_seat(me)
    assert deal.hands[nxt] == truth.hands[nxt]
    assert deal.hands[me] == truth.hands[me]
    assert deal.discard[-1] == top
    cards = sorted([c for h in deal.hands for c in h] + deal.draw_pile + deal.discard)
    assert cards == list(range(len(truth.deck)))
