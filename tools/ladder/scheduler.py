"""Which game the ladder plays next: the one that most reduces the uncertainty that matters.

The questions that matter are comparisons of two bots (contrasts of the Bradley-Terry fit,
tools.ladder.model): each pair of bots next to each other in the current order, weighted
``1/k`` for places k and k+1 (the top counts most), and the newest bot against its neighbours
above and below, weighted 1. A question counts fully while it is unsettled (its difference is
within about 1.5 standard errors of 0) and fades as it settles (half at 1.96, the 95 % line).

A candidate unit of games (a seat-swapped pair for two players; a lineup rotated through the
seats for more) adds Fisher information on the pairs it plays, ``p(1-p)`` a game at the fitted
win probability ``p``; its value is the weighted sum, over the questions, of the fraction of
each question's variance it would remove (the covariance after the games, by rank-one
updates). The ladder plays the unit of greatest value; games already in flight count as played,
so parallel workers spread out. A bot with no games has the prior's wide variance, so the
newest bot's first games are against the bots whose rating is nearest its estimate. docs/ladder.md
says why and what the benchmark shows.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

from tools.ladder.model import Fit, Matrix, PairTally, invert
from tools.stats import Z95

_NORMAL = NormalDist()
TOP_POWER = 1.0
NEWEST_WEIGHT = 1.0
PAIR_SPREAD = 0.2          # nats (35 Elo): how far a pair's own score may stray from the model
Lineup = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Question:
    """Is ``first`` above ``second``? Asked with ``weight``."""

    first: str
    second: str
    weight: float


def questions(fit: Fit, active: Sequence[str], newest: str | None) -> list[Question]:
    """The comparisons whose answer the table shows: neighbours in the order (the top weighted
    most) and the newest bot against those just above and below it."""
    order = [name for name in fit.order() if name in active]
    asked = [Question(order[k], order[k + 1], 1 / (k + 1) ** TOP_POWER)
             for k in range(len(order) - 1)]
    if newest in order:
        place = order.index(newest)
        asked += [Question(order[k], newest, NEWEST_WEIGHT) if k < place
                  else Question(newest, order[k], NEWEST_WEIGHT)
                  for k in (place - 1, place + 1) if 0 <= k < len(order)]
    return asked


def urgency(settled: float) -> float:
    """How much a question with |difference| / error = ``settled`` still matters: about 1 below
    1.5, a half at the 95 % line, near 0 beyond 3."""
    return _NORMAL.cdf(2 * (Z95 - settled))


def pair_information(games: int, probability: float) -> float:
    """What ``games`` games of one pair tell about the difference of their ratings: ``p(1-p)``
    a game, capped by ``PAIR_SPREAD``: real bots are not exactly Bradley-Terry (a pair's score
    strays from what their ratings predict, intransitive pairs, draws), so past a few hundred
    games more of the same pair stop telling about the table's ratings, which rest on every
    opponent."""
    raw = games * probability * (1 - probability)
    return raw / (1 + PAIR_SPREAD ** 2 * raw)


def unit_pairs(lineup: Lineup) -> list[tuple[str, str, int]]:
    """The pairwise games a unit of ``lineup`` plays: two bots, each game of a pair of seats held
    by different bots counted once. Two players: a seat-swapped pair, 2 games; more: one game
    per distinct rotation of the seats."""
    seatings = len({lineup[shift:] + lineup[:shift] for shift in range(len(lineup))})
    counts: dict[tuple[str, str], int] = {}
    for first, second in itertools.combinations(lineup, 2):
        if first != second:
            key = (first, second) if first < second else (second, first)
            counts[key] = counts.get(key, 0) + seatings
    return [(first, second, games) for (first, second), games in counts.items()]


class Scheduler:
    """Scores candidate units against a fit; ``choose`` the best."""

    def __init__(self, fit: Fit, tally: PairTally, active: Sequence[str], newest: str | None):
        self.fit, self.tally = fit, tally
        self.active = [name for name in active if name in fit.names]
        self.asked = questions(fit, self.active, newest)
        self.played = {(first, second): tally.games(first, second)
                       for first, second in itertools.combinations(fit.names, 2)}
        self.covariance = invert(self._information())
        self._asked: list[tuple[int, int, float, float]] | None = None

    def _information(self) -> Matrix:
        """The prior's virtual games and each pair's capped information (see ``pair_information``)."""
        count = len(self.fit.names)
        matrix = [[0.0] * count for _ in range(count)]
        for i, theta in enumerate(self.fit.theta):
            p = 1 / (1 + math.exp(-theta))
            matrix[i][i] += p * (1 - p)
        for (first, second), games in self.played.items():
            if games:
                i, j = self.fit.index(first), self.fit.index(second)
                weight = pair_information(games, self._probability(first, second))
                matrix[i][i] += weight
                matrix[j][j] += weight
                matrix[i][j] -= weight
                matrix[j][i] -= weight
        return matrix

    def _probability(self, first: str, second: str) -> float:
        theta = self.fit.theta
        return 1 / (1 + math.exp(theta[self.fit.index(second)] - theta[self.fit.index(first)]))

    def _update(self, covariance: Matrix, first: str, second: str, games: int) -> Matrix:
        """The covariance after ``games`` more games between the two (Sherman-Morrison)."""
        p = self._probability(first, second)
        key = (first, second) if (first, second) in self.played else (second, first)
        before = self.played.get(key, 0)
        weight = pair_information(before + games, p) - pair_information(before, p)
        i, j = self.fit.index(first), self.fit.index(second)
        column = [row[i] - row[j] for row in covariance]
        spread = column[i] - column[j]
        factor = weight / (1 + weight * spread)
        return [[value - factor * column[r] * column[c] for c, value in enumerate(row)]
                for r, row in enumerate(covariance)]

    def add_pending(self, lineups: Sequence[Lineup]) -> None:
        """Games in flight: counted as if played."""
        for lineup in lineups:
            for first, second, games in unit_pairs(lineup):
                if first in self.fit.names and second in self.fit.names:
                    self.covariance = self._update(self.covariance, first, second, games)
                    self._asked = None
                    key = (first, second) if (first, second) in self.played else (second, first)
                    self.played[key] = self.played.get(key, 0) + games

    def _variance(self, covariance: Matrix, question: Question) -> float:
        i, j = self.fit.index(question.first), self.fit.index(question.second)
        return covariance[i][i] + covariance[j][j] - 2 * covariance[i][j]

    def _priorities(self) -> list[tuple[int, int, float, float]]:
        """Each question: its two bots' indexes, weight x unsettledness, variance (cached: the
        same for every candidate)."""
        if self._asked is None:
            self._asked = []
            for question in self.asked:
                before = self._variance(self.covariance, question)
                if before > 0:
                    estimate = self.fit.difference(question.first, question.second)[0]
                    priority = question.weight * urgency(abs(estimate) / math.sqrt(before))
                    self._asked.append((self.fit.index(question.first),
                                        self.fit.index(question.second), priority, before))
        return self._asked

    def value(self, lineup: Lineup) -> float:
        """The weighted fraction of the questions' variance the unit would remove."""
        pairs = unit_pairs(lineup)
        if len(pairs) == 1:                 # one pair: the rank-one update's closed form
            first, second, games = pairs[0]
            p = self._probability(first, second)
            before_games = self.played.get((first, second), self.played.get((second, first), 0))
            weight = pair_information(before_games + games, p) - pair_information(before_games, p)
            a, b = self.fit.index(first), self.fit.index(second)
            c = self.covariance
            spread = c[a][a] + c[b][b] - 2 * c[a][b]
            factor = weight / (1 + weight * spread)
            return sum(priority * factor * (c[x][a] - c[x][b] - c[y][a] + c[y][b]) ** 2 / before
                       for x, y, priority, before in self._priorities())
        after = self.covariance
        for first, second, games in pairs:
            after = self._update(after, first, second, games)
        return sum(priority * (before - (after[x][x] + after[y][y] - 2 * after[x][y])) / before
                   for x, y, priority, before in self._priorities())

    def candidates(self, players: int) -> list[Lineup]:
        """Every pair of bots (two players); for more, each pair with the bots nearest them."""
        pairs: list[Lineup] = list(itertools.combinations(self.active, 2))
        if players <= 2:
            return pairs
        lineups = []
        for first, second in pairs:
            middle = (self.fit.theta[self.fit.index(first)] + self.fit.theta[self.fit.index(second)]) / 2
            others = sorted((name for name in self.active if name not in (first, second)),
                            key=lambda name: abs(self.fit.theta[self.fit.index(name)] - middle))
            rest = others[:players - 2]
            while len(rest) < players - 2:          # fewer bots than seats: take seats again
                rest.append(([first, second] + others)[len(rest) % (2 + len(others))])
            lineups.append((first, second, *rest))
        return lineups

    def choose(self, players: int = 2) -> Lineup:
        """The unit of greatest value (ties: the pair with the fewest games)."""
        options = self.candidates(players)
        return max(options, key=lambda lineup: (round(self.value(lineup), 12),
                                                -self.tally.games(lineup[0], lineup[1])))
