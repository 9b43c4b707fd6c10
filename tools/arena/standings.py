"""Many bots: the matchups of a round robin or gauntlet, their tallies, Bradley-Terry ratings,
the ratings table and the pairwise score matrix."""
from __future__ import annotations

import itertools
from collections.abc import Sequence

from tools import stats
from tools.arena.multiplayer import SeatGroups, group_count, league_lineups, pairwise_records
from tools.arena.schedule import Schedule, SeedSource, interleave, paired_jobs, solo_jobs
from tools.arena.solo import SoloComparisons
from tools.arena.tally import HeadToHead, format_bounds, format_elo


def round_robin(names: Sequence[str]) -> list[tuple[str, str]]:
    return list(itertools.combinations(names, 2))


def gauntlet(hero: str, names: Sequence[str]) -> list[tuple[str, str]]:
    return [(hero, name) for name in names if name != hero]


class Standings:
    """Tallies of every matchup of a league, ratings and tables from them."""

    def __init__(self, names: Sequence[str], matchups: Sequence[tuple[str, str]], *,
                 solo: bool = False, players: int = 2):
        self.names = list(names)
        self.tallies = {frozenset(pair): HeadToHead(*pair) for pair in matchups}
        self.solo = solo
        self.players = players          # per game: more than 2 plays lineups, see multiplayer
        self.lineups = [lineup for lineup in league_lineups(self.names, players)
                        if any(frozenset(pair) in self.tallies
                               for pair in itertools.combinations(set(lineup), 2))] \
            if players > 2 else []
        self._comparisons = SoloComparisons(matchups, self._add_game) if solo else None
        self.played_games = 0                   # games of 3+ players (the tallies hold results)
        self.played_by: dict[str, int] = dict.fromkeys(self.names, 0)
        for tally in self.tallies.values():
            tally.solo = solo

    def jobs(self, games: int | None, base_seed: SeedSource, *,
             seed_count: int | None = None) -> Schedule:
        """``games`` per matchup (``seed_count`` given: each of that many seeds in every seating):
        seat-swapped pairs, interleaved so all matchups advance together; for a single-player
        game, every bot once per seed."""
        if self.solo:
            return solo_jobs(self.names, self.seed_groups(games, seed_count), base_seed)
        if self.lineups:
            groups = [SeatGroups(lineup, seed_count or group_count(games or 0, lineup), base_seed)
                      for lineup in self.lineups]
            return interleave(groups, chunk=self.players)
        return interleave([paired_jobs(tally.first, tally.second,
                                       self.seed_groups(games, seed_count), base_seed)
                           for tally in self.tallies.values()])

    def seed_groups(self, games: int | None, seed_count: int | None = None) -> int:
        """How many seeds :meth:`jobs` uses (the most of any lineup)."""
        if seed_count is not None:
            return seed_count
        if self.solo:
            return games or 0
        if self.lineups:
            return max(group_count(games or 0, lineup) for lineup in self.lineups)
        return ((games or 0) + 1) // 2

    def add(self, record: dict) -> bool:
        if self._comparisons is not None:
            self._comparisons.add(record)
        else:
            self._add_game(record)
        return False

    def _add_game(self, record: dict) -> None:
        if len(record["seats"]) > 2:
            self.played_games += 1
            for name in set(record["seats"]) & self.played_by.keys():
                self.played_by[name] += 1
            for pair in pairwise_records(record, paired=False):
                tally = self.tallies.get(frozenset(pair["seats"]))
                if tally is not None:
                    tally.add(pair)
            return
        self.tallies[frozenset(record["seats"])].add(record)

    @property
    def games(self) -> int:
        return sum(tally.games for tally in self.tallies.values())

    def points(self, row: str, column: str) -> tuple[float, int]:
        """``row``'s points and games against ``column``."""
        tally = self.tallies.get(frozenset((row, column)))
        if tally is None or row == column:
            return 0.0, 0
        points = tally.points if tally.first == row else tally.games - tally.points
        return points, tally.games

    def wins(self, row: str, column: str) -> tuple[int, int]:
        """``row``'s wins and games against ``column`` (brutaltester's matrix: draws not won)."""
        tally = self.tallies.get(frozenset((row, column)))
        if tally is None or row == column:
            return 0, 0
        return (tally.wins if tally.first == row else tally.losses), tally.games

    def ratings(self, anchor: str | None = None) -> list[stats.Rating]:
        count = len(self.names)
        scores = [[0.0] * count for _ in range(count)]
        games = [[0] * count for _ in range(count)]
        for i, j in itertools.permutations(range(count), 2):
            scores[i][j], games[i][j] = self.points(self.names[i], self.names[j])
        return stats.bradley_terry(self.names, scores, games, anchor=anchor)

    def faults(self, name: str) -> dict[str, int]:
        if self._comparisons is not None:         # each solo game once, not once per opponent
            return dict(self._comparisons.faults.get(name, {}))
        total: dict[str, int] = {}
        for tally in self.tallies.values():
            for kind, count in tally.faults.get(name, {}).items():
                total[kind] = total.get(kind, 0) + count
        return total

    def progress_text(self) -> str:
        best = max(self.names, key=lambda name: self._mean_score(name))
        return f"leader {best} {self._mean_score(best):.0%}"

    def _mean_score(self, name: str) -> float:
        points = games = 0.0
        for other in self.names:
            p, g = self.points(name, other)
            points, games = points + p, games + g
        return points / games if games else 0.0

    # -- output ---------------------------------------------------------------------------------
    def to_json(self, ratings: list[stats.Rating]) -> dict:
        matrix = {}
        for row in self.names:
            cells = {}
            for column in self.names:
                points, games = self.points(row, column)
                if games:
                    wins = self.wins(row, column)[0]
                    cells[column] = {self._counted: games, "score": round(points / games, 4),
                                     "wins": wins}
            matrix[row] = cells
        entries: list[dict] = [{"bot": r.name, "elo": round(r.elo, 1),
                                "elo_ci95": [round(r.low, 1), round(r.high, 1)],
                                "games": r.games, "score": round(r.score, 4),
                                "faults": self.faults(r.name)}
                               for r in ratings]
        summary = {"games": self.games, "ratings": entries, "matrix": matrix}
        if self.lineups:        # games of 3+ players: the tallies count pairwise results
            summary.update(games=self.played_games, results=self.games)
            for entry in entries:
                entry.update(games=self.played_by[entry["bot"]], results=entry["games"])
        return summary

    @property
    def _counted(self) -> str:
        """What a matrix cell counts: games, or in games of 3+ players their pairwise results."""
        return "results" if self.lineups else "games"

    def games_of(self, rating: stats.Rating) -> int:
        """The games ``rating``'s bot played (its rating's count is of pairwise results in games
        of 3+ players)."""
        return self.played_by[rating.name] if self.lineups else rating.games

    def table_lines(self, ratings: list[stats.Rating], anchor: str | None) -> list[str]:
        width = max(len(name) for name in self.names)
        zero = f"{anchor} = 0" if anchor else "mean 0"
        lines = [f"{'#':>2}  {'bot':<{width}}  {'Elo':>7}  {'95 % interval':<17}  {'games':>5}  "
                 f"{'score':>6}  faults      (Bradley-Terry, {zero})"]
        for place, rating in enumerate(ratings, 1):
            faults = ", ".join(f"{kind} {n}" for kind, n in sorted(self.faults(rating.name).items()))
            lines.append(f"{place:>2}  {rating.name:<{width}}  {format_elo(rating.elo):>7}  "
                         f"{format_bounds(rating.low, rating.high):<17}  {self.games_of(rating):>5}  "
                         f"{rating.score:>6.1%}  {faults or '-'}")
        return lines

    def matrix_lines(self, order: Sequence[str]) -> list[str]:
        """Row's score against column, in the ratings' order; columns are numbered."""
        width = max(len(name) for name in order)
        lines = ["score of row vs column:",
                 f"{'':>2}  {'':<{width}}  " + "  ".join(f"{n:>6}" for n in range(1, len(order) + 1))]
        for place, row in enumerate(order, 1):
            cells = []
            for column in order:
                points, games = self.points(row, column)
                cells.append(f"{points / games:>6.1%}" if games else f"{'-':>6}")
            lines.append(f"{place:>2}  {row:<{width}}  " + "  ".join(cells))
        return lines

    def win_matrix_lines(self, order: Sequence[str]) -> list[str]:
        """Row's wins against column over their games (draws count for neither), as
        brutaltester prints its results."""
        width = max(len(name) for name in order)
        lines = ["wins of row vs column (draws not counted, as brutaltester shows):",
                 f"{'':>2}  {'':<{width}}  " + "  ".join(f"{n:>6}" for n in range(1, len(order) + 1))]
        for place, row in enumerate(order, 1):
            cells = []
            for column in order:
                wins, games = self.wins(row, column)
                cells.append(f"{wins / games:>6.1%}" if games else f"{'-':>6}")
            lines.append(f"{place:>2}  {row:<{width}}  " + "  ".join(cells))
        return lines
