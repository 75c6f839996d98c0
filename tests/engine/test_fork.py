"""Game.fork: an independent copy for search, equal to the original until either moves."""

from __future__ import annotations

import random

from bot.engine import Game, Phase, RuleSet, dumps, loads
from bot.engine.simulate import RandomAgent


def _midgame(seed: int = 3) -> Game:
    """A Flip game some random moves in, with the round memory filled."""
    game = Game.new(["ann", "ben", "cid"], RuleSet(variant="flip"), seed)
    agent = RandomAgent(seed)
    for _ in range(60):
        if game.phase is not Phase.PLAY:
            break
        agent.step(game)
    return game


def test_fork_equals_the_original_and_saves_the_same() -> None:
    """A fresh fork is equal to its game, RNG included, and saves to the same JSON."""
    game = _midgame()
    copy = game.fork()
    assert copy == game and dumps(copy) == dumps(game)


def test_moves_on_a_fork_leave_the_original_untouched() -> None:
    """Playing a fork to the end of the round changes nothing in the game it came from."""
    game = _midgame()
    before = dumps(game)
    copy = game.fork()
    agent = RandomAgent(9)
    while copy.phase not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
        agent.step(copy)
    assert dumps(game) == before and copy != game


def test_unseeded_fork_plays_on_exactly_like_the_original() -> None:
    """Without a seed, the same moves on the game and its fork give the same events and state."""
    game = _midgame()
    copy = game.fork()
    rng = random.Random(1)
    while game.phase is Phase.PLAY:
        player = game.players[game.current]
        move = rng.choice(game.legal_moves(player))
        assert copy.legal_moves(player) == game.legal_moves(player)
        assert copy.apply(player, move) == game.apply(player, move)
    assert copy == game


def test_seeded_forks_agree_with_each_other_not_with_the_original_rng() -> None:
    """Two forks with one seed draw alike; their RNG is not the original's."""
    game = _midgame()
    first, second = game.fork(5), game.fork(5)
    assert first == second
    assert first.rng.getstate() != game.rng.getstate()


def test_json_round_trip_is_exact() -> None:
    """loads(dumps(game)) equals the game, names and RNG state included."""
    game = _midgame()
    game.set_names({"ann": "Ann"})
    copy = loads(dumps(game))
    assert copy == game and copy.name("ann") == "Ann"
    assert copy.rng.random() == game.rng.random()
