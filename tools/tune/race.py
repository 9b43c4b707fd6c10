"""Racing a grid (successive halving): every live point plays a round of seat-swapped pairs
against the opponent, then the clear losers drop out, until one point is left or the rounds
run out. Points are compared on the same seeds each round (common random numbers).

``bounds`` drops a point whose Elo upper bound (95 %, over its pairs) is below the lower bound
of the best point (the highest score); ``half`` keeps the better half by score each round.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from tools.arena.grid import GridPoint
from tools.arena.schedule import GameJob, SeedSource, derive_seed
from tools.arena.tally import HeadToHead

DROP_RULES = ("bounds", "half")


@dataclass
class Entrant:
    point: GridPoint
    tally: HeadToHead
    dropped_after: int | None = None      # the round after which it dropped out

    @property
    def score(self) -> float:
        return self.tally.points / self.tally.games if self.tally.games else 0.5


@dataclass
class Race:
    points: list[GridPoint]
    opponent: str
    pairs_per_round: int
    drop: str = "bounds"
    entrants: list[Entrant] = field(init=False)
    tied_cuts: list[int] = field(default_factory=list)   # rounds whose cut split equal scores

    def __post_init__(self):
        self.entrants = [Entrant(point, HeadToHead(point.bot, self.opponent))
                         for point in self.points]

    @property
    def live(self) -> list[Entrant]:
        return [entrant for entrant in self.entrants if entrant.dropped_after is None]

    def round_jobs(self, round_number: int, base_seed: SeedSource) -> list[GameJob]:
        """Round ``round_number`` (from 0): each live point's pairs, on the round's seeds."""
        jobs = []
        for index in range(self.pairs_per_round):
            pair = round_number * self.pairs_per_round + index
            seed = derive_seed(base_seed, pair)
            for entrant in self.live:
                jobs.append(GameJob(pair, (entrant.point.bot, self.opponent), seed))
                jobs.append(GameJob(pair, (self.opponent, entrant.point.bot), seed))
        return jobs

    def add(self, record: dict) -> None:
        bot = next(name for name in record["seats"] if name != self.opponent)
        next(e for e in self.entrants if e.point.bot == bot).tally.add(record)

    def best(self) -> Entrant:
        """The live point with the highest score (the first of equals: grid order)."""
        return max(self.live, key=lambda entrant: entrant.score)

    def cut(self, round_number: int) -> list[Entrant]:
        """Drop the losers after a round; the dropped, worst first."""
        live = self.live
        if len(live) <= 1:
            return []
        if self.drop == "half":
            ranked = sorted(live, key=lambda entrant: -entrant.score)
            keep = math.ceil(len(live) / 2)
            losers = ranked[keep:]
            if ranked[keep - 1].score == ranked[keep].score:     # kept by grid order alone
                self.tied_cuts.append(round_number)
        else:
            floor = self.best().tally.elo()[0].low
            losers = [entrant for entrant in live if entrant.tally.elo()[0].high < floor]
        for entrant in losers:
            entrant.dropped_after = round_number
        return sorted(losers, key=lambda entrant: entrant.score)

    def games_played(self) -> int:
        return sum(entrant.tally.games for entrant in self.entrants)

    def full_grid_games(self) -> int:
        """What a sweep giving every point as many games as the winner would have cost."""
        return len(self.entrants) * max(entrant.tally.games for entrant in self.entrants)
