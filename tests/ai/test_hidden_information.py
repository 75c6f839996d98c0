"""Computer players cannot read hidden information: they only ever get a PlayerView."""

from __future__ import annotations

import dataclasses
import enum
import inspect
import random
import typing
from collections import defaultdict

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.ai import EasyStrategy, HardStrategy, NormalStrategy
from bot.engine import Face, Game, PlayerView, RuleSet, Side, view_for
from bot.engine.game import TERMINAL_PHASES
from tests.ai.helpers import STRATEGIES

PLAIN = (str, int, float, bool, type(None), enum.Enum)


def _reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through attributes, items and keys."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen[id(obj)] = obj
        if isinstance(obj, PLAIN):
            continue
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, tuple | list | set | frozenset):
            stack.extend(obj)
        elif dataclasses.is_dataclass(obj):
            stack.extend(getattr(obj, f.name) for f in dataclasses.fields(obj))
        else:
            raise AssertionError(f"unexpected object in a view: {type(obj).__name__}")
    return list(seen.values())


def _midgame(variant: str, seed: int, steps: int) -> Game:
    game = Game.new(["a", "b", "c", "d"], RuleSet(variant=variant), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.phase in TERMINAL_PHASES or game.current_player == "a":
            break
        player = game.current_player
        assert player is not None
        game.apply(player, STRATEGIES["normal"].choose_move(view_for(game, player), rng))
    return game


def test_view_holds_no_game_and_no_active_faces_of_others() -> None:
    """Walking a Flip view reaches only plain values and never another hand's faces in play."""
    game = _midgame("flip", 3, 30)
    view = view_for(game, "a")
    objects = _reachable(view)
    assert not any(isinstance(o, Game) for o in objects)
    for other in ("b", "c", "d"):
        active = tuple(game.face(c) for c in game.hand(other))
        assert len(active) >= 2
        assert not any(isinstance(o, tuple | list) and tuple(o) == active for o in objects)
        backs = next(o.backs for o in view.opponents if o.player == other)
        assert backs == tuple(game.face(c, Side.DARK) for c in game.hand(other))


def test_choose_move_is_typed_to_take_only_a_view() -> None:
    """Each strategy's decision function takes a PlayerView and a Random, nothing else."""
    for cls in (EasyStrategy, NormalStrategy, HardStrategy):
        hints = typing.get_type_hints(cls.choose_move)
        params = list(inspect.signature(cls.choose_move).parameters)
        assert params == ["self", "view", "rng"]
        assert hints["view"] is PlayerView
        assert hints["rng"] is random.Random


def _reshuffle_hidden(game: Game, rng: random.Random) -> Game:
    """A copy of ``game`` whose hidden cards are re-dealt without changing what "a" sees."""
    twin = game.fork()
    back_side = Side.DARK if twin.side is Side.LIGHT else Side.LIGHT
    slots: list[tuple[list[int], int]] = [
        (hand, i) for seat, hand in enumerate(twin.hands) if seat != 0 for i in range(len(hand))
    ]
    slots += [(twin.draw_pile, i) for i in range(len(twin.draw_pile))]
    flip = twin.rules.variant == "flip"
    groups: defaultdict[Face | None, list[tuple[list[int], int]]] = defaultdict(list)
    for holder, index in slots:
        # In Flip a card's other side is public, so cards only trade places with twins of it.
        groups[twin.face(holder[index], back_side) if flip else None].append((holder, index))
    for group in groups.values():
        cards = [holder[index] for holder, index in group]
        rng.shuffle(cards)
        for (holder, index), card in zip(group, cards, strict=True):
            holder[index] = card
    return twin


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(["flip", "classic"]),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 40),
    shuffle_seed=st.integers(0, 10_000),
    decision_seed=st.integers(0, 10_000),
)
def test_hidden_cards_do_not_change_decisions(
    variant: str, seed: int, steps: int, shuffle_seed: int, decision_seed: int
) -> None:
    """Two games that look the same from the AI's seat give the same move for the same seed."""
    game = _midgame(variant, seed, steps)
    assume(game.current_player == "a")
    twin = _reshuffle_hidden(game, random.Random(shuffle_seed))
    assume(twin.hands != game.hands)
    view, twin_view = view_for(game, "a"), view_for(twin, "a")
    assert view == twin_view
    for strategy in (
        EasyStrategy(),
        NormalStrategy(),
        HardStrategy(budget_seconds=None, max_rollouts=9),
    ):
        first = strategy.choose_move(view, random.Random(decision_seed))
        second = strategy.choose_move(twin_view, random.Random(decision_seed))
        assert first == second
