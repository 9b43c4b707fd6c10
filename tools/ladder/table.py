"""``ladder show``: the table of the bots in the ladder from its results file, as text or JSON.

Ratings are ``league``'s: one Bradley-Terry fit over every game among the bots in the table, on
the Elo scale, the mean 0 (a removed bot's games stay in the file, out of the fit).
"""
from __future__ import annotations

from collections.abc import Sequence

from referee.api import UsageError
from tools import stats
from tools.arena.standings import Standings, round_robin
from tools.arena.tally import format_bounds, format_elo
from tools.ladder.folder import LadderFolder
from tools.ladder.model import PairTally, fit


class LadderTable:
    """The bots in the table, their games and ratings."""

    def __init__(self, folder: LadderFolder, records: Sequence[dict] | None = None):
        self.folder = folder
        self.config = folder.config()
        active = folder.active()
        self.names = sorted(active, key=lambda name: active[name].added)
        self.newest = folder.newest()
        self.records = folder.records() if records is None else list(records)
        self.standings = Standings(self.names, round_robin(self.names))
        tally = PairTally()
        members = set(self.names)
        for record in self.records:
            if set(record["seats"]) <= members or len(record["seats"]) > 2:
                self.standings.add(record)
        for first in self.names:
            for second in self.names:
                if first < second:
                    games = self.standings.points(first, second)
                    tally.add(first, second, games[0], games[1])
        self.fit = fit(self.names, tally)
        self.ratings = self.standings.ratings() if self.names else []

    def _mark(self, name: str) -> str:
        return f"{name} *" if name == self.newest else name

    def header(self) -> str:
        running = self.folder.running()
        state = f"; a run is playing (process {running})" if running is not None else ""
        return (f"ladder {self.folder.path}: {self.config.game}, {len(self.names)} bots, "
                f"{self.standings.games:,} games among them ({len(self.records):,} in the "
                f"results file){state}")

    def lines(self) -> list[str]:
        if not self.names:
            return [self.header(), "no bots yet: botarena ladder FOLDER add NAME BOT"]
        width = max(len(self._mark(name)) for name in self.names)
        lines = [self.header(),
                 f"{'#':>2}  {'bot':<{width}}  {'Elo':>7}  {'95 % interval':<17}  {'games':>5}  "
                 f"{'score':>6}  faults      (Bradley-Terry, mean 0)"]
        for place, rating in enumerate(self.ratings, 1):
            faults = ", ".join(f"{kind} {n}" for kind, n in
                               sorted(self.standings.faults(rating.name).items()))
            lines.append(f"{place:>2}  {self._mark(rating.name):<{width}}  "
                         f"{format_elo(rating.elo):>7}  "
                         f"{format_bounds(rating.low, rating.high):<17}  {rating.games:>5}  "
                         f"{_score_text(rating):>6}  {faults or '-'}")
        order = [rating.name for rating in self.ratings]
        lines += [f"* newest: {self.newest}", ""] + self.standings.win_matrix_lines(order)
        return lines

    def to_json(self) -> dict:
        summary = self.standings.to_json(self.ratings)
        for place, entry in enumerate(summary["ratings"], 1):
            entry["rank"] = place
            if entry["games"] == 0:
                entry["score"] = None           # a bot just added: no score yet, not 50 %
            entry["newest"] = entry["bot"] == self.newest
        summary.update(folder=str(self.folder.path), game=self.config.game,
                       newest=self.newest, results=len(self.records),
                       running=self.folder.running())
        return summary

    # -- one bot ----------------------------------------------------------------------------
    def _rating(self, name: str) -> tuple[int, stats.Rating]:
        if name not in self.names:
            raise UsageError(f"no bot {name!r} in the ladder (its bots: "
                             f"{', '.join(self.names) or 'none'})")
        place = next(k for k, rating in enumerate(self.ratings, 1) if rating.name == name)
        return place, self.ratings[place - 1]

    def bot_rows(self, name: str) -> list[dict]:
        """``name`` against each other bot, best first: games, W-D-L, score, the difference of
        their ratings with its 95 % interval, ``name``'s faults in those games."""
        self._rating(name)
        rows = []
        for rating in self.ratings:
            other = rating.name
            if other == name:
                continue
            tally = self.standings.tallies[frozenset((name, other))]
            mine = tally.first == name
            wins, losses = (tally.wins, tally.losses) if mine else (tally.losses, tally.wins)
            points, games = self.standings.points(name, other)
            difference, error = self.fit.difference(name, other)
            spread = stats.Z95 * error
            rows.append({"opponent": other, "games": games, "wins": wins, "draws": tally.draws,
                         "losses": losses, "score": round(points / games, 4) if games else None,
                         "elo_difference": round(stats.ELO_PER_NAT * difference, 1),
                         "elo_difference_ci95": [round(stats.ELO_PER_NAT * (difference - spread), 1),
                                                 round(stats.ELO_PER_NAT * (difference + spread), 1)],
                         "faults": dict(tally.faults[name])})
        return rows

    def bot_json(self, name: str) -> dict:
        place, rating = self._rating(name)
        return {"bot": name, "rank": place, "elo": round(rating.elo, 1),
                "elo_ci95": [round(rating.low, 1), round(rating.high, 1)], "games": rating.games,
                "score": round(rating.score, 4) if rating.games else None,
                "newest": name == self.newest,
                "command": self.folder.active()[name].given, "opponents": self.bot_rows(name)}

    def bot_lines(self, name: str) -> list[str]:
        place, rating = self._rating(name)
        bot = self.folder.active()[name]
        rows = self.bot_rows(name)
        width = max([len("opponent")] + [len(row["opponent"]) for row in rows])
        lines = [f"{self._mark(name)}: {bot.given!r}, added {bot.time}",
                 f"rank {place} of {len(self.names)}, Elo {format_elo(rating.elo)} "
                 f"{format_bounds(rating.low, rating.high)}, {rating.games} games"
                 + (f", score {rating.score:.1%}" if rating.games else ""),
                 f"{'opponent':<{width}}  {'games':>5}  {'W-D-L':<13}  {'score':>6}  "
                 f"{'Elo difference [95 %]':<28}  faults"]
        for row in rows:
            faults = ", ".join(f"{kind} {n}" for kind, n in sorted(row["faults"].items()))
            score = f"{row['score']:.1%}" if row["score"] is not None else "-"
            low, high = row["elo_difference_ci95"]
            record = f"{row['wins']}-{row['draws']}-{row['losses']}"
            lines.append(f"{row['opponent']:<{width}}  {row['games']:>5}  {record:<13}  "
                         f"{score:>6}  {format_elo(row['elo_difference']):>7} "
                         f"{format_bounds(low, high):<20}  {faults or '-'}")
        return lines


def _score_text(rating: stats.Rating) -> str:
    """A bot's score over its games, '-' before its first (the fit's prior says 50 %; no game did)."""
    return f"{rating.score:.1%}" if rating.games else "-"
