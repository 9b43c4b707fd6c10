"""``botarena sweep``: a grid of bot parameters, each point rated against an opponent (or each
other), with a table, a CSV and a plot of Elo (or a success rate, or the mean score) against a
parameter."""
from __future__ import annotations

import json
import math
import sys
from collections import defaultdict

from referee.api import UsageError
from tools import stats
from tools.arena.grid import GridPoint, expand_grid
from tools.arena.runner import interleave, paired_jobs
from tools.arena.solo import SoloComparisons, solo_jobs
from tools.arena.standings import Standings, round_robin
from tools.arena.tally import HeadToHead, RunningMean, format_bounds, format_elo
from tools.arena.tournament import Tournament, pair_count
from tools.cli.options import add_run_arguments, check_output_file, settle_run_arguments
from tools.cli.options import write_csv as write_csv_rows
from tools.cli.sweep_plot import PLOT_HINT, check_plot_format, have_matplotlib, plot_sweep

PLOT_METRICS = ("elo", "success", "mean_score")


def register(commands) -> None:
    parser = commands.add_parser(
        "sweep", help="rate a grid of bot parameters against an opponent, table, CSV and plot",
        description="Expand brace lists in BOT (\"hybrid --depth {1,2,3,5,8}\"; several lists give "
        "the cartesian product) and rate every point: against --vs OPPONENT, or with --league "
        "against each other.")
    parser.add_argument("game")
    parser.add_argument("template", metavar="BOT")
    parser.add_argument("--vs", metavar="OPPONENT", help="the bot every point plays")
    parser.add_argument("--league", action="store_true",
                        help="points play each other in a round robin (with --vs, it joins and is "
                        "rated 0)")
    add_run_arguments(parser, games_default=100, games_help="games per point (per matchup with "
                      "--league)")
    parser.add_argument("--csv", metavar="FILE", help="write the table as CSV")
    parser.add_argument("--plot", metavar="FILE", help="plot Elo against the parameter (PNG, SVG, "
                        f"PDF; needs matplotlib: {PLOT_HINT})")
    parser.add_argument("--success-score", type=float, metavar="S",
                        help="a game where a bot scores S or more is a success: adds each point's "
                        "success rate with its 95 %% interval (e.g. 52 for calculation)")
    parser.add_argument("--plot-y", choices=PLOT_METRICS, default="elo",
                        help="what --plot draws: elo (default), success (needs --success-score) or "
                        "mean_score (the bots' own game score)")
    parser.add_argument("--plot-x", metavar="PARAMETER",
                        help="the parameter on the x axis (default: the first); one line per "
                        "value of the others")
    parser.set_defaults(func=run)


def run(args) -> int:
    settle_run_arguments(args)
    names, points = expand_grid(args.template)
    if args.vs is None and not args.league:
        raise UsageError("sweep needs --vs OPPONENT, or --league to play the points against "
                         "each other")
    if args.plot and not have_matplotlib():
        print(f"botarena: --plot {args.plot}: matplotlib is not installed, so there will be no "
              f"plot; to get it: {PLOT_HINT}", file=sys.stderr)
    if args.vs is not None and args.vs in (point.bot for point in points):
        raise UsageError(f"--vs {args.vs!r} is also a point of the grid")
    _check_plot_options(args, names)
    if args.csv:
        check_output_file(args.csv, "--csv")
    if args.plot:
        check_output_file(args.plot, "--plot")
        if have_matplotlib():
            check_plot_format(args.plot)
    pair_count(args.games)                        # checks -n
    bots = [point.bot for point in points] + ([args.vs] if args.vs is not None else [])
    tournament = Tournament(args, bots)
    play = _play_league if args.league else _play_against
    own = OwnScores(args.success_score) if tournament.solo or args.success_score is not None \
        else None
    outcome, rows = play(tournament, points, names, args, own)
    opponent = None
    if own is not None:
        for row in rows:
            row.update(own.figures(row["bot"]))
        opponent = {"bot": args.vs, **own.figures(args.vs)} if args.vs is not None else None
    best = _best(rows)
    if args.csv:
        _write_csv(args.csv, names, rows)
    if args.plot and have_matplotlib():
        plot_sweep(args.plot, names, rows, best, args, opponent)
    if args.json:
        summary = {"parameters": names, "points": rows, "best": best, "opponent": args.vs,
                   "league": args.league, "seed": tournament.base_seed,
                   "interrupted": outcome.interrupted}
        if opponent is not None:
            summary["opponent_scores"] = opponent
        print(json.dumps(summary))
    else:
        lines = _table_lines(names, rows, best, args, tournament.solo)
        if opponent is not None:
            lines.insert(-1 if best is not None else len(lines), _opponent_line(opponent))
        print("\n".join(lines + tournament.status_lines(outcome)))
        for path, what in ((args.csv, "csv"), (args.plot if have_matplotlib() else None, "plot")):
            if path:
                print(f"{what}: {path}")
        if args.plot and not have_matplotlib():
            print(f"plot: not drawn, matplotlib is missing ({PLOT_HINT})")
    return 130 if outcome.interrupted else 0


def _play_league(tournament: Tournament, points: list[GridPoint], names: list[str], args,
                 own: "OwnScores | None"):
    """The points (and --vs, rated 0) in a round robin; rows from the Bradley-Terry ratings."""
    standings = Standings(tournament.bots, round_robin(tournament.bots), solo=tournament.solo)
    on_record = own.wrap(standings.add) if own is not None else standings.add
    outcome = tournament.play(standings.jobs(args.games, tournament.game_seeds), on_record,
                              standings.progress_text)
    ratings = {rating.name: rating for rating in standings.ratings(args.vs)}
    return outcome, [_row(point, names, ratings[point.bot]) for point in points]


def _play_against(tournament: Tournament, points: list[GridPoint], names: list[str], args,
                  own: "OwnScores | None"):
    """Every point against --vs; rows from each head-to-head."""
    tallies = {point.bot: HeadToHead(point.bot, args.vs) for point in points}
    def add_game(record: dict) -> bool:
        tallies[next(name for name in record["seats"] if name != args.vs)].add(record)
        return False
    if tournament.solo:
        for tally in tallies.values():
            tally.solo = True
        on_record = SoloComparisons([(point.bot, args.vs) for point in points], add_game).add
        jobs = solo_jobs(list(tallies) + [args.vs], args.games, tournament.game_seeds)
    else:
        on_record = add_game
        jobs = interleave([paired_jobs(point.bot, args.vs, pair_count(args.games),
                                       tournament.game_seeds) for point in points])
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
            if record.get("referee_error") is None:
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


def _opponent_line(opponent: dict) -> str:
    text = f"  {opponent['bot']}: mean score {_format_mean(opponent['mean_score'])}"
    if "success" in opponent:
        text += f", success {_format_success(opponent)}"
    return text


def _format_mean(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _format_success(row: dict) -> str:
    if row["success"] is None:
        return "-"
    return f"{row['success']:.1%} [{row['success_low']:.1%}, {row['success_high']:.1%}]"


def _check_plot_options(args, names: list[str]) -> None:
    if args.plot_x is not None and args.plot_x not in names:
        raise UsageError(f"--plot-x {args.plot_x!r} is not a parameter of the grid "
                         f"({', '.join(names)})")
    if args.plot_y == "success" and args.success_score is None:
        raise UsageError("--plot-y success needs --success-score S (the score that counts as a "
                         "success)")
    if args.success_score is not None and not math.isfinite(args.success_score):
        raise UsageError(f"--success-score {args.success_score}: must be a finite number")


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


def _best(rows: list[dict]) -> str | None:
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


def _table_lines(names: list[str], rows: list[dict], best: str | None, args,
                 solo: bool = False) -> list[str]:
    against = f"vs {args.vs}" if not args.league else \
        ("league, " + (f"{args.vs} = 0" if args.vs else "mean 0"))
    widths = [max(len(name), *(len(str(row[name])) for row in rows)) for name in names]
    head = "  ".join(f"{name:>{width}}" for name, width in zip(names, widths))
    games = args.games if solo else pair_count(args.games) * 2     # solo: -n seeds, no pairs
    lines = [f"sweep {args.template!r} ({against}), {games} games per "
             f"{'matchup' if args.league else 'point'}",
             f"   {head}  {'games':>5}  {'score':>6}  {'Elo':>7}  {'95 % interval':<18}"]
    results = "wins" in rows[0]                   # against --vs: wins-draws-losses of each point
    if results:
        lines[-1] = lines[-1].replace("  score", f"  {'W-D-L':>11}  score", 1)
    own = "mean_score" in rows[0]
    if own:
        lines[-1] += "  mean score" + ("  success (95 %)" if "success" in rows[0] else "")
    lines[-1] = lines[-1].rstrip()
    for row in rows:
        cells = "  ".join(f"{row[name]:>{width}}" for name, width in zip(names, widths))
        score = f"{row['score']:>6.1%}" if row["score"] is not None else f"{'-':>6}"
        mark = " *" if row["bot"] == best else "  "
        elo = format_elo(row["elo"], "-" if not row["games"] else
                         "+inf" if row["score"] > 0.5 else "-inf")
        counts = f"  {row['wins']}-{row['draws']}-{row['losses']}".rjust(13) if results else ""
        line = (f"{mark} {cells}  {row['games']:>5}{counts}  {score}  {elo:>7}  "
                f"{format_bounds(row['elo_low'], row['elo_high']):<18}")
        if own:
            line += f"  {_format_mean(row['mean_score']):>10}"
            if "success" in row:
                line += f"  {_format_success(row)}"
        lines.append(line.rstrip())
    if best is not None:
        lines.append(f"* best: {best}")
    return lines


def _write_csv(path: str, names: list[str], rows: list[dict]) -> None:
    fields = names + ["bot", "games", "score", "elo", "elo_low", "elo_high"]
    fields += [key for key in ("wins", "draws", "losses", "mean_score", "success", "success_low",
                               "success_high")
               if rows and key in rows[0]]
    write_csv_rows(path, fields, rows)
