"""The ladder's rating model: the pairwise tallies of its games and a Bradley-Terry fit with its
covariance, the one ``league`` and ``ladder show`` print (tools.stats.bradley_terry: the same
likelihood and weak prior, one virtual draw of each bot against a fixed player of strength 1),
fitted here by Newton's method so the scheduler can refit after every game.

Strengths are log-strengths in nats (``ELO_PER_NAT`` converts); the covariance is the inverse
Fisher information at the fit, so the variance of any contrast (``a - b``, or ``a`` minus the
mean) is read from it.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tools.stats import ELO_PER_NAT, Z95

Matrix = list[list[float]]


class PairTally:
    """Points and games of every pair of bots (a draw is half a point to each)."""

    def __init__(self) -> None:
        self._points: dict[tuple[str, str], float] = {}
        self._games: dict[tuple[str, str], int] = {}

    def add(self, first: str, second: str, first_score: float, games: int = 1) -> None:
        """``games`` games of ``first`` against ``second``, ``first`` scoring ``first_score``."""
        for key, points in (((first, second), first_score), ((second, first), games - first_score)):
            self._points[key] = self._points.get(key, 0.0) + points
            self._games[key] = self._games.get(key, 0) + games

    def points(self, first: str, second: str) -> float:
        return self._points.get((first, second), 0.0)

    def games(self, first: str, second: str) -> int:
        return self._games.get((first, second), 0)

    def total_games(self, name: str, among: Iterable[str]) -> int:
        return sum(self.games(name, other) for other in among if other != name)


@dataclass(frozen=True, slots=True)
class Fit:
    """Log-strengths (nats) of ``names`` and their covariance."""

    names: tuple[str, ...]
    theta: tuple[float, ...]
    covariance: tuple[tuple[float, ...], ...]

    def index(self, name: str) -> int:
        return self.names.index(name)

    def order(self) -> list[str]:
        """Best first."""
        return [name for _, name in sorted(zip(self.theta, self.names), key=lambda t: -t[0])]

    def difference(self, first: str, second: str) -> tuple[float, float]:
        """``first`` minus ``second``: the estimate and its standard error (nats)."""
        i, j = self.index(first), self.index(second)
        c = self.covariance
        variance = c[i][i] + c[j][j] - 2 * c[i][j]
        return self.theta[i] - self.theta[j], math.sqrt(max(variance, 0.0))

    def separated(self, first: str, second: str, z: float = Z95) -> bool:
        """Is ``first`` above ``second`` with the confidence of ``z`` (one-sided test of the
        difference's 95 % interval: it excludes 0)?"""
        mean, error = self.difference(first, second)
        return mean - z * error > 0

    def elo_interval(self, name: str) -> tuple[float, float, float]:
        """Rating, low and high (Elo, the mean of all bots at 0), as ``show`` prints them."""
        count = len(self.names)
        i = self.index(name)
        contrast = [(1.0 if k == i else 0.0) - 1 / count for k in range(count)]
        centre = sum(c * t for c, t in zip(contrast, self.theta))
        variance = quadratic(self.covariance, contrast)
        spread = Z95 * math.sqrt(max(variance, 0.0))
        return (ELO_PER_NAT * centre, ELO_PER_NAT * (centre - spread),
                ELO_PER_NAT * (centre + spread))

    def rank_range(self, name: str, z: float = Z95) -> tuple[int, int]:
        """The ranks ``name`` may hold at this confidence: 1 + the bots surely above it, to the
        count less the bots surely below it."""
        above = sum(self.separated(other, name, z) for other in self.names if other != name)
        below = sum(self.separated(name, other, z) for other in self.names if other != name)
        return 1 + above, len(self.names) - below


def quadratic(matrix: Sequence[Sequence[float]], vector: Sequence[float]) -> float:
    return sum(vector[k] * matrix[k][m] * vector[m]
               for k in range(len(vector)) if vector[k] for m in range(len(vector)) if vector[m])


def fit(names: Sequence[str], tally: PairTally, start: Sequence[float] | None = None,
        iterations: int = 100, tolerance: float = 1e-9) -> Fit:
    """The Bradley-Terry fit of ``names`` on their games with one another (Newton's method from
    ``start``, a previous fit's strengths, or 0)."""
    count = len(names)
    theta = list(start) if start is not None else [0.0] * count
    points = [sum(tally.points(names[i], names[j]) for j in range(count) if j != i) + 0.5
              for i in range(count)]
    games = [[tally.games(names[i], names[j]) if i != j else 0 for j in range(count)]
             for i in range(count)]
    covariance: Matrix = []
    for _ in range(iterations):
        information, expected = _information(theta, games)
        covariance = invert(information)
        gradient = [points[i] - expected[i] for i in range(count)]
        step = [sum(covariance[i][k] * gradient[k] for k in range(count)) for i in range(count)]
        largest = max((abs(value) for value in step), default=0.0)
        scale = 1.0 if largest <= 1.0 else 1.0 / largest      # damped: never more than a nat
        theta = [value + scale * delta for value, delta in zip(theta, step)]
        if largest < tolerance:
            break
    information, _ = _information(theta, games)
    covariance = invert(information)
    return Fit(tuple(names), tuple(theta), tuple(tuple(row) for row in covariance))


def _information(theta: Sequence[float], games: Sequence[Sequence[int]]) -> tuple[Matrix, list[float]]:
    """The Fisher information of the log-strengths (the virtual draw included) and each bot's
    expected points."""
    count = len(theta)
    matrix = [[0.0] * count for _ in range(count)]
    expected = [0.0] * count
    for i in range(count):
        p = 1 / (1 + math.exp(-theta[i]))             # the virtual game against strength 1
        matrix[i][i] += p * (1 - p)
        expected[i] += p
    for i, j in itertools.combinations(range(count), 2):
        n = games[i][j]
        if n:
            p = 1 / (1 + math.exp(theta[j] - theta[i]))
            weight = n * p * (1 - p)
            matrix[i][i] += weight
            matrix[j][j] += weight
            matrix[i][j] -= weight
            matrix[j][i] -= weight
            expected[i] += n * p
            expected[j] += n * (1 - p)
    return matrix, expected


def invert(matrix: Sequence[Sequence[float]]) -> Matrix:
    """Gauss-Jordan inverse of a small positive definite matrix."""
    size = len(matrix)
    work = [list(row) + [1.0 if i == j else 0.0 for j in range(size)]
            for i, row in enumerate(matrix)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(work[row][column]))
        work[column], work[pivot] = work[pivot], work[column]
        lead = work[column][column]
        work[column] = [value / lead for value in work[column]]
        for row in range(size):
            factor = work[row][column]
            if row != column and factor:
                work[row] = [a - factor * b for a, b in zip(work[row], work[column])]
    return [row[size:] for row in work]
