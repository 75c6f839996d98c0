"""The computer players in UNO All Wild and UNO Junior: legal moves only, All Wild's targets."""

from __future__ import annotations

import random

import pytest

from bot.ai import NormalStrategy
from bot.engine import Game, PlayCard, RuleSet, SwapWith, TargetDraw, view_for
from bot.engine.notation import setup
from tests.ai.helpers import STRATEGIES, decisions
from tests.engine import card, play

AW = RuleSet(variant="allwild", target=200)
NORMAL = NormalStrategy()


def all_wild(hands: dict[str, str]) -> Game:
    """An All Wild round in play with these hands and a plain Wild on the discard pile."""
    return setup(hands, "W", rules=AW)


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
@pytest.mark.parametrize("variant", ["allwild", "junior"])
def test_every_strategy_plays_only_legal_moves(difficulty: str, variant: str) -> None:
    """Sixteen seeded games of 2 to 4 players: every move chosen is a legal one."""
    strategy = STRATEGIES[difficulty]
    checked = 0
    for seed in range(16):
        seats = [strategy, STRATEGIES["normal"], STRATEGIES["easy"], strategy][: 2 + seed % 3]
        rules = (
            AW
            if variant == "allwild"
            else RuleSet.model_validate({"variant": "junior", "level": 1 + seed % 3})
        )
        for _, view, player, rng in decisions(rules, seed, seats, 120):
            move = player.choose_move(view, rng)
            assert move in view.legal_moves, (view.phase, move)
            checked += 1
    assert checked >= 250  # Junior games end at the first player out


def test_normal_aims_a_targeted_draw_at_the_player_closest_to_going_out() -> None:
    """The target is the smallest hand, not the next player."""
    game = all_wild({"ann": "WT+2 W W W", "ben": "W W W W", "cid": "W"})
    play(game, "ann", "WT+2")
    assert NORMAL.choose_move(view_for(game, "ann"), random.Random(1)) == TargetDraw("cid")


def test_normal_plays_a_targeted_draw_when_someone_is_about_to_go_out() -> None:
    """With an opponent at one card, the Targeted Draw Two beats the other cards."""
    game = all_wild({"ann": "WT+2 W WRV W", "ben": "W W W W", "cid": "W"})
    move = NORMAL.choose_move(view_for(game, "ann"), random.Random(1))
    assert move == PlayCard(card(game, "ann", "WT+2"))


def test_normal_sheds_a_fifty_point_card_before_a_plain_wild() -> None:
    """Early in the round a Wild Reverse (50) goes before a plain Wild (20)."""
    game = all_wild({"ann": "W WRV W W W", "ben": "W W W W W", "cid": "W W W W W"})
    move = NORMAL.choose_move(view_for(game, "ann"), random.Random(1))
    assert move == PlayCard(card(game, "ann", "WRV"))


def test_normal_swaps_with_the_smallest_hand() -> None:
    """A Forced Swap takes the hand of the player with the fewest cards."""
    game = all_wild({"ann": "WFS W W W W", "ben": "W W W", "cid": "W W"})
    play(game, "ann", "WFS")
    assert NORMAL.choose_move(view_for(game, "ann"), random.Random(1)) == SwapWith("cid")
