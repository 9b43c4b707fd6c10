"""A grid of bot parameters, each point rated against an opponent (or against each other in a
league), with each bot's own game scores and success rate: what ``botarena sweep`` plays,
callable from Python with a :class:`~tools.arena.settings.Settings`."""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from referee.api import UsageError
from tools import stats
from tools.arena.grid import GridPoint, expand_grid
from tools.arena.runner import RunOutcome
from tools.arena.schedule import Schedule, interleave, paired_jobs, solo_jobs
from tools.arena.settings import Settings
from tools.arena.solo import SoloComparisons
from tools.arena.standings import Standings, round_robin
from tools.arena.tally import HeadToHead, RunningMean
from tools.arena.tournament import Tournament, pair_count


@dataclass(frozen=True, slots=True)
class SweepResult:
    """One row per point (its values by parameter name, games, score, Elo with its interval,
    and its own mean score and success rate when asked); ``best`` the best point's bot;
    ``opponent`` the --vs bot's own scores (when measured)."""

    names: list[str]
    rows: list[dict]
    best: str | None
    opponent: dict | None
    seed: int
    solo: bool
    status_lines: list[str]
    interrupted: bool


# A round robin keeps a tally per matchup (about 2 KB): 200 points are 19,900 matchups, ~40 MB.
MAX_LEAGUE_POINTS = 200


def sweep_grid(template: str, vs: str | None, league: bool) -> tuple[list[str], list[GridPoint]]:
    """The grid's parameter names and points; UsageError when it cannot be swept so."""
    names, points = expand_grid(template)
    if league and len(points) > MAX_LEAGUE_POINTS:
        raise UsageError(f"sweep {template!r} --league: a round robin of {len(points):,} "
                         f"points; at most {MAX_LEAGUE_POINTS} play each other: narrow the grid, "
                         "or rate the points against one opponent with --vs")
    if vs is None and not league:
        raise UsageError("sweep needs --vs OPPONENT, or --league to play the points against "
                         "each other")
    if vs is not None and vs in (point.bot for point in points):
        raise UsageError(f"--vs {vs!r} is also a point of the grid")
    return names, points


def play_sweep(settings: Settings, template: str, *, vs: str | None = None, league: bool = False,
               games: int = 100, success_score: float | None = None) -> SweepResult:
    """Every point of ``template``'s brace lists (``"hybrid --depth {1,2,3}"``) against ``vs``,
    ``games`` games each; with ``league``, the points against each other (``vs`` joins, rated
    0). ``success_score``: a game where a bot scores that or more is a success."""
    names, points = sweep_grid(template, vs, league)
    if success_score is not None and not math.isfinite(success_score):
        raise UsageError(f"--success-score {success_score}: must be a finite number")
    pair_count(games)                             # checks the number of games
    bots = [point.bot for point in points] + ([vs] if vs is not None else [])
    with Tournament(settings, bots, "sweep") as tournament:
        own = OwnScores(success_score) if tournament.solo or success_score is not None else None
        if league:
            outcome, rows = _play_league(tournament, points, names, vs, games, own)
        else:
            assert vs is not None                   # sweep_grid refused a sweep with neither
            outcome, rows = _play_against(tournament, points, names, vs, games, own)
        opponent = None
        if own is not None:
            for row in rows:
                row.update(own.figures(row["bot"]))
            opponent = {"bot": vs, **own.figures(vs)} if vs is not None else None
        return SweepResult(names, rows, best_point(rows), opponent, tournament.base_seed,
                           tournament.solo, tournament.status_lines(outcome), outcome.interrupted)


def _play_league(tournament: Tournament, points: list[GridPoint], names: list[str],
                 vs: str | None, games: int,
                 own: OwnScores | None) -> tuple[RunOutcome, list[dict]]:
    """The points (and --vs, rated 0) in a round robin; rows from the Bradley-Terry ratings."""
    standings = Standings(tournament.bots, round_robin(tournament.bots), solo=tournament.solo)
    on_record = own.wrap(standings.add) if own is not None else standings.add
    outcome = tournament.play(standings.jobs(games, tournament.game_seeds), on_record,
                              standings.progress_text)
    ratings = {rating.name: rating for rating in standings.ratings(vs)}
    return outcome, [_row(point, names, ratings[point.bot]) for point in points]


def _play_against(tournament: Tournament, points: list[GridPoint], names: list[str],
                  vs: str, games: int, own: OwnScores | None) -> tuple[RunOutcome, list[dict]]:
    """Every point against --vs; rows from each head-to-head."""
    tallies = {point.bot: HeadToHead(point.bot, vs) for point in points}
    def add_game(record: dict) -> bool:
        tallies[next(name for name in record["seats"] if name != vs)].add(record)
        return False
    jobs: Schedule
    if tournament.solo:
        for tally in tallies.values():
            tally.solo = True
        on_record = SoloComparisons([(point.bot, vs) for point in points], add_game).add
        jobs = solo_jobs(list(tallies) + [vs], games, tournament.game_seeds)
    else:
        on_record = add_game
        jobs = interleave([paired_jobs(point.bot, vs, pair_count(games), tournament.game_seeds)
                           for point in points])
    if own is not None:
        on_record = own.wrap(on_record)
    def progress() -> str:
        best = max(tallies.values(), key=lambda tally: tally.points / max(tally.games, 1))
        return f"best so far {best.first} {best.points / max(best.games, 1):.0%}"
    outcome = tournament.play(jobs, on_record, progress)
    return outcome, [_row(point, names, tallies[point.bot]) for point in points]


class OwnScores:
    """Every bot's own game scores, taken from the finished games themselves (a single-player
    game counts once, however many comparisons it feeds); a score of ``success_score`` or more
    is a success."""

    def __init__(self, success_score: float | None):
        self.success_score = success_score
        self.scores: dict[str, RunningMean] = defaultdict(RunningMean)
        self.hits: dict[str, int] = defaultdict(int)       # scores of success_score or more

    def wrap(self, on_record):
        def note_scores_then(record: dict) -> bool:
            if record.get("referee_error") is None and not record.get("timing_uncertain"):
                for seat, name in enumerate(record["seats"]):
                    score = record["players"][seat]["score"]
                    self.scores[name].add(score)
                    if self.success_score is not None and score >= self.success_score:
                        self.hits[name] += 1
            return on_record(record)
        return note_scores_then

    def figures(self, name: str) -> dict:
        """``mean_score`` and, with a success score, ``success`` with its 95 % Wilson interval."""
        values = self.scores.get(name, RunningMean())
        count = values.count
        figures: dict = {"mean_score": round(values.mean, 3) if count else None}
        if self.success_score is not None:
            hits = self.hits.get(name, 0)
            low, high = stats.wilson(hits, count)
            figures.update(success=round(hits / count, 4) if count else None,
                           success_low=round(low, 4) if count else None,
                           success_high=round(high, 4) if count else None)
        return figures


def _row(point: GridPoint, names: list[str], source) -> dict:
    """One table row from a HeadToHead (vs the opponent) or a Rating (league)."""
    results = {}
    if isinstance(source, HeadToHead):
        estimate, _ = source.elo()
        games, score = source.games, (source.points / source.games if source.games else None)
        elo, low, high = estimate.elo, estimate.low, estimate.high
        results = {"wins": source.wins, "draws": source.draws, "losses": source.losses}
    else:
        games, score, elo, low, high = source.games, source.score, source.elo, source.low, source.high
    def clean(value: float) -> float | None:
        return round(value, 1) if math.isfinite(value) else None
    return {"bot": point.bot, **dict(zip(names, point.values)), "games": games,
            "score": None if score is None else round(score, 4),
            "elo": clean(elo) if games else None, "elo_low": clean(low) if games else None,
            "elo_high": clean(high) if games else None, **results}


def best_point(rows: list[dict]) -> str | None:
    """The point with the highest Elo. Ties (points at +inf, all won) by their lower bound, then
    by games (more evidence), then by score and their own mean score (which tells apart points
    that beat the opponent every time)."""
    played = [row for row in rows if row["games"]]
    def key(row: dict) -> tuple[float, ...]:
        elo = row["elo"] if row["elo"] is not None else \
            (math.inf if row["score"] > 0.5 else -math.inf)
        low = row.get("elo_low")
        mean = row.get("mean_score")
        return (elo, low if low is not None else -math.inf, row["games"], row["score"],
                mean if mean is not None else -math.inf)
    return max(played, key=key)["bot"] if played else None
