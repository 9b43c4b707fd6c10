"""A bit-exact port of ``java.util.Random`` and ``Collections.shuffle``, for CodinGame's seeds.

CodinGame's Java referees draw everything from ``new java.util.Random(seed)``.
The generator is the 48-bit linear congruential one of the Java documentation
(multiplier 0x5DEECE66D, addend 11); ``next_int(bound)`` is ``nextInt(int bound)``
with its power-of-two shortcut and its rejection loop. Stdlib only.
"""
from __future__ import annotations

from typing import Any

MULTIPLIER = 0x5DEECE66D
ADDEND = 0xB
MASK = (1 << 48) - 1
LONG_MIN = -(1 << 63)
LONG_MAX = (1 << 63) - 1


class JavaRandom:
    """``java.util.Random``: the same seed gives the same numbers as the JVM."""

    __slots__ = ("_seed",)

    def __init__(self, seed: int):
        if not LONG_MIN <= seed <= LONG_MAX:
            raise ValueError(f"seed {seed} is not a signed 64-bit integer (a Java long)")
        self._seed = (seed ^ MULTIPLIER) & MASK

    def next_bits(self, bits: int) -> int:
        """``next(bits)``: the top ``bits`` bits of the new state, as a signed 32-bit int."""
        self._seed = (self._seed * MULTIPLIER + ADDEND) & MASK
        value = self._seed >> (48 - bits)
        return value - (1 << 32) if value >= 1 << 31 else value

    def next_int(self, bound: int | None = None) -> int:
        """``nextInt()`` without a bound, ``nextInt(bound)`` with one (0 <= result < bound)."""
        if bound is None:
            return self.next_bits(32)
        if bound <= 0:
            raise ValueError("bound must be positive")
        if bound & -bound == bound:                       # a power of two
            return (bound * self.next_bits(31)) >> 31
        while True:
            bits = self.next_bits(31)
            value = bits % bound
            if bits - value + (bound - 1) < 1 << 31:       # Java: no int overflow
                return value


def java_shuffle(items: list[Any], rnd: JavaRandom) -> None:
    """``Collections.shuffle(list, rnd)`` in place: the same permutation as the JVM."""
    for size in range(len(items), 1, -1):
        other = rnd.next_int(size)
        items[size - 1], items[other] = items[other], items[size - 1]
