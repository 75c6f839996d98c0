"""PCG32, the games' generator: exact, small to save, and old saves keep their own."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine import Game, Phase, RuleSet, dumps, loads
from bot.engine.rng import MASK64, MULTIPLIER, CompactRandom
from bot.engine.simulate import RandomAgent


def test_the_generator_gives_pcg32s_reference_outputs() -> None:
    """Seeded as the reference pcg32_srandom(42, 54), it draws the reference's numbers."""
    increment = (54 << 1) | 1
    state = (0 * MULTIPLIER + increment) & MASK64
    state = ((state + 42) * MULTIPLIER + increment) & MASK64
    rng = CompactRandom.from_state(state, increment)
    drawn = [rng.getrandbits(32) for _ in range(6)]
    assert drawn == [0xA15C02B7, 0x7B47F409, 0xBA1D3330, 0x83D2F293, 0xBFA4784B, 0xCBED606E]


def test_a_seed_draws_the_same_and_a_copy_draws_alone() -> None:
    """Two generators of one seed agree, other seeds (big ones too) start elsewhere, and a
    copy goes on from the same place, independently."""
    one, two = CompactRandom(2026), CompactRandom(2026)
    assert [one.getrandbits(7) for _ in range(50)] == [two.getrandbits(7) for _ in range(50)]
    copy = one.copy()
    assert copy.getrandbits(64) == one.getrandbits(64)
    copy.getrandbits(1)
    assert copy.getstate() != one.getstate()
    states = {CompactRandom(seed).getstate() for seed in (1, 2, 3, 2**70, 2**70 + 1)}
    assert len(states) == 5


@pytest.mark.parametrize("bits", [1, 5, 31, 32, 33, 64, 100])
def test_getrandbits_stays_within_its_bits(bits: int) -> None:
    """Every draw fits in ``bits`` bits, and the top bit is used."""
    rng = CompactRandom(bits)
    drawn = [rng.getrandbits(bits) for _ in range(400)]
    assert all(0 <= value < 1 << bits for value in drawn)
    assert any(value >> (bits - 1) for value in drawn)


def test_a_shuffle_is_a_permutation_and_random_is_below_one() -> None:
    """Shuffling keeps every card once; random() lies in [0, 1)."""
    rng = CompactRandom(9)
    cards = list(range(112))
    rng.shuffle(cards)
    assert sorted(cards) == list(range(112)) and cards != list(range(112))
    assert all(0.0 <= rng.random() < 1.0 for _ in range(1000))


def test_a_bad_saved_state_is_refused() -> None:
    """An even increment or a number past 64 bits is not a PCG32 state."""
    with pytest.raises(ValueError):
        CompactRandom.from_state(1, 2)
    with pytest.raises(ValueError):
        CompactRandom.from_state(1 << 64, 3)


def played(seed: int, moves: int) -> Game:
    """A four-player Flip game ``moves`` random moves in."""
    game = Game.new(["1", "2", "3", "4"], RuleSet(variant="flip"), seed=seed)
    agent = RandomAgent(seed, patience=0)
    for _ in range(moves):
        if game.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            break
        player, move = agent.choose(game)
        game.apply(player, move)
    return game


def test_a_move_saves_under_two_kilobytes() -> None:
    """The generator is three numbers of the save, which stays under 2 KB mid-round."""
    game = played(5, 20)
    saved = dumps(game)
    assert len(json.loads(saved)["rng_state"]) == 3
    assert len(saved.encode()) < 2048
    assert loads(saved) == game


def test_a_game_saved_with_the_old_generator_plays_on_with_it() -> None:
    """A save holding a Mersenne Twister state (before PCG32) loads with that generator,
    draws from it where it left off, and saves it again in its own format."""
    game = played(6, 15)
    old = random.Random(6)
    old.getrandbits(100)
    saved = json.loads(dumps(game))
    version, internal, _ = old.getstate()
    saved["rng_state"] = [version, *internal]
    restored = loads(json.dumps(saved))
    assert isinstance(restored.rng, random.Random)
    expected = random.Random()
    expected.setstate(old.getstate())
    assert restored.rng.getrandbits(32) == expected.getrandbits(32)
    assert len(json.loads(dumps(restored))["rng_state"]) == 626
    assert loads(dumps(restored)) == restored
