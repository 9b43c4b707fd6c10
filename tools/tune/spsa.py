"""SPSA as fishtest runs it, for noisy game results (written here, not taken from a library:
see docs/tuning.md for why).

Iteration k draws a random sign per parameter (delta), plays theta + c_k delta against
theta - c_k delta, and moves theta by a_k / c_k * result * delta, where result is the plus
side's wins minus losses. The gains decay as fishtest's: a_k = a / (A + k)^0.602 and
c_k = c / k^0.101, with A a tenth of the iterations. Each parameter has fishtest's c_end (the
perturbation at the last iteration) and r_end (a_end / c_end^2, the learning rate there); the
defaults come from the parameter's range and the budget. Everything is in the parameters'
internal units (a log-scale parameter's logarithm) and clipped to the range.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from tools.arena.grid import Parameter

ALPHA = 0.602
GAMMA = 0.101
TRAVEL = 4.0          # default r_end: steady wins all run long would cross the range this often


@dataclass(frozen=True)
class Gains:
    """The schedule of one parameter: c_k = c / k^gamma, a_k = a / (A + k)^alpha."""

    a: float
    c: float
    big_a: float
    c_end: float
    r_end: float

    def at(self, k: int) -> tuple[float, float]:
        return self.a / (self.big_a + k) ** ALPHA, self.c / k ** GAMMA


def default_c_end(parameter: Parameter) -> float:
    """A tenth of the range (fishtest suggests a twentieth for long runs; short runs need a
    bigger difference between the two sides to hear it through the noise); at least 1 for an
    integer, or both sides would round to the same value."""
    low, high = parameter.bounds
    width = (high - low) / 5
    return max(width, 1.0) if parameter.integer and not parameter.log else width


def schedule(parameter: Parameter, iterations: int, games_per_iteration: int,
             c_end: float | None = None, r_end: float | None = None) -> Gains:
    """fishtest's gains from c_end and r_end; without r_end, the one whose steps, were every
    game of the run won by the plus side, add up to TRAVEL widths of the range."""
    big_a = 0.1 * iterations
    c_end = default_c_end(parameter) if c_end is None else c_end
    c = c_end * iterations ** GAMMA
    # step_k = a_k / c_k * result; with a = a_end (A + N)^alpha and a_end = r_end c_end^2
    shape = sum(((big_a + iterations) / (big_a + k)) ** ALPHA / (c / k ** GAMMA)
                for k in range(1, iterations + 1))
    if r_end is None:
        low, high = parameter.bounds
        a_end = TRAVEL * (high - low) / (games_per_iteration * shape)
        r_end = a_end / c_end ** 2
    a = r_end * c_end ** 2 * (big_a + iterations) ** ALPHA
    return Gains(a, c, big_a, c_end, r_end)


class Spsa:
    """The state of a run: theta after the iterations fed so far, in internal units."""

    def __init__(self, parameters: Sequence[Parameter], start: Sequence[float], gains:
                 Sequence[Gains], seed: int):
        self.parameters = list(parameters)
        self.theta = [p.clip(p.to_internal(value)) for p, value in zip(parameters, start)]
        self.gains = list(gains)
        self.seed = seed
        self.trajectory: list[dict] = []

    def perturbation(self, k: int) -> list[int]:
        """Iteration k's signs: a function of the seed and k alone, so a resumed run or one on
        more workers draws the same."""
        rng = random.Random(f"spsa:{self.seed}:{k}")
        return [rng.choice((-1, 1)) for _ in self.parameters]

    def sides(self, k: int) -> tuple[list[float], list[float], list[int]]:
        """theta + c_k delta and theta - c_k delta (internal units, clipped), and delta."""
        delta = self.perturbation(k)
        plus, minus = [], []
        for p, theta, gains, sign in zip(self.parameters, self.theta, self.gains, delta):
            _, c_k = gains.at(k)
            plus.append(p.clip(theta + c_k * sign))
            minus.append(p.clip(theta - c_k * sign))
        return plus, minus, delta

    def update(self, k: int, delta: Sequence[int], result: float) -> None:
        """Step theta by a_k / c_k * result * delta (result: plus's wins minus losses)."""
        for index, (p, gains, sign) in enumerate(zip(self.parameters, self.gains, delta)):
            a_k, c_k = gains.at(k)
            self.theta[index] = p.clip(self.theta[index] + a_k / c_k * result * sign)
        self.trajectory.append({"iteration": k, "result": result,
                                **{p.name: p.from_internal(t)
                                   for p, t in zip(self.parameters, self.theta)}})

    def values(self, units: Sequence[float] | None = None) -> list[float | int]:
        """Play-time values (integers rounded) of ``units``, by default theta."""
        return [p.play_value(u) for p, u in zip(self.parameters, units or self.theta)]

    def texts(self, units: Sequence[float] | None = None) -> list[str]:
        return [p.text(u) for p, u in zip(self.parameters, units or self.theta)]
