"""The games' random numbers: PCG32, a generator whose whole state is two 64-bit integers.

A game keeps its generator in its saved state, and the state is written on every move:
Python's Mersenne Twister carries 625 integers (about 6.7 KB of JSON per save), this one two.
PCG32 (O'Neill, "PCG: A Family of Simple Fast Space-Efficient Statistically Good Algorithms
for Random Number Generation", XSH-RR output) passes the usual statistical batteries, which a
card shuffle needs far less than it needs to be seeded, copied and saved exactly.

Pure integer arithmetic, so mypyc can compile it; draws the bits for a shuffle the way
``random.Random.shuffle`` does (``getrandbits`` per card, rejecting draws past the bound).
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any, Final

MASK64: Final = (1 << 64) - 1
MASK32: Final = (1 << 32) - 1
MULTIPLIER: Final = 6364136223846793005
# Marks a saved compact state ([COMPACT_STATE, state, increment]); a Mersenne Twister state is
# [3, 624 words, index], so the first number tells the two apart.
COMPACT_STATE: Final = 64


def _splitmix64(value: int) -> int:
    """One step of SplitMix64: spreads a seed's bits over all 64."""
    value = (value + 0x9E3779B97F4A7C15) & MASK64
    value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & MASK64
    return value ^ (value >> 31)


def _fold(seed: int) -> int:
    """Any integer seed (as random.Random takes it: its absolute value) as 64 bits."""
    value = -seed if seed < 0 else seed
    folded = 0
    while True:
        folded = _splitmix64(folded ^ (value & MASK64))
        value >>= 64
        if not value:
            return folded


class CompactRandom:
    """A seeded PCG32 generator: ``getrandbits``, ``shuffle``, and a two-integer state."""

    def __init__(self, seed: int = 0) -> None:
        start = _fold(seed)
        self.increment = (_splitmix64(start) << 1 | 1) & MASK64
        self.state = 0
        self._next32()
        self.state = (self.state + start) & MASK64
        self._next32()

    @classmethod
    def from_state(cls, state: int, increment: int) -> CompactRandom:
        """The generator a saved ``getstate()`` describes."""
        if not (0 <= state <= MASK64 and 0 <= increment <= MASK64 and increment & 1):
            raise ValueError("not a PCG32 state")
        made = cls.__new__(cls)
        made.state = state
        made.increment = increment
        return made

    def _next32(self) -> int:
        old = self.state
        self.state = (old * MULTIPLIER + self.increment) & MASK64
        shifted = (((old >> 18) ^ old) >> 27) & MASK32
        turn = old >> 59
        return ((shifted >> turn) | (shifted << ((-turn) & 31))) & MASK32

    def getrandbits(self, bits: int) -> int:
        """A random integer of ``bits`` bits (32-bit words, least significant first)."""
        if bits <= 32:
            if bits <= 0:
                if bits < 0:
                    raise ValueError("number of bits must be non-negative")
                return 0
            return self._next32() >> (32 - bits)
        result = 0
        shift = 0
        while bits > 0:
            word = self._next32()
            if bits < 32:
                word >>= 32 - bits
            result |= word << shift
            shift += 32
            bits -= 32
        return result

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits, as random.Random.random makes it."""
        high = self._next32() >> 5
        low = self._next32() >> 6
        return (high * 67108864.0 + low) * (1.0 / 9007199254740992.0)

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates, as random.Random.shuffle draws)."""
        for i in range(len(items) - 1, 0, -1):
            bits = (i + 1).bit_length()
            j = self.getrandbits(bits)
            while j > i:
                j = self.getrandbits(bits)
            items[i], items[j] = items[j], items[i]

    def getstate(self) -> tuple[int, int]:
        """The whole state: (state, increment)."""
        return (self.state, self.increment)

    def copy(self) -> CompactRandom:
        """An independent generator that draws what this one would."""
        return CompactRandom.from_state(self.state, self.increment)
