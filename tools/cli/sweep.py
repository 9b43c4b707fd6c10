"""``botarena sweep``: a grid of bot parameters, each point rated against an opponent (or each
other), with a table, a CSV and a plot of Elo (or a success rate, or the mean score) against a
parameter."""
from __future__ import annotations

import json
import sys

from referee.api import UsageError
from tools.arena.printable import printable
from tools.arena.sweep import play_sweep, sweep_grid
from tools.arena.tally import format_bounds, format_elo
from tools.arena.tournament import pair_count
from tools.cli.options import add_run_arguments, check_output_file, run_games, run_settings
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
    names, _ = sweep_grid(args.template, args.vs, args.league)
    if args.plot and not have_matplotlib():
        print(f"botarena: --plot {args.plot}: matplotlib is not installed, so there will be no "
              f"plot; to get it: {PLOT_HINT}", file=sys.stderr)
    _check_plot_options(args, names)
    if args.csv:
        check_output_file(args.csv, "--csv")
    if args.plot:
        check_output_file(args.plot, "--plot")
        if have_matplotlib():
            check_plot_format(args.plot)
    settings = run_settings(args)
    games = run_games(args, settings)
    result = play_sweep(settings, args.template, vs=args.vs, league=args.league, games=games,
                        success_score=args.success_score)
    rows, best, opponent = result.rows, result.best, result.opponent
    if args.csv:
        _write_csv(args.csv, names, rows)
    if args.plot and have_matplotlib():
        plot_sweep(args.plot, names, rows, best, args, opponent)
    if args.json:
        summary = {"parameters": names, "points": rows, "best": best, "opponent": args.vs,
                   "league": args.league, "seed": result.seed, "interrupted": result.interrupted}
        if opponent is not None:
            summary["opponent_scores"] = opponent
        print(json.dumps(summary))
    else:
        lines = _table_lines(names, rows, best, args, games, result.solo)
        if opponent is not None:
            lines.insert(-1 if best is not None else len(lines), _opponent_line(opponent))
        print(printable("\n".join(lines + result.status_lines), keep_newlines=True))
        for path, what in ((args.csv, "csv"), (args.plot if have_matplotlib() else None, "plot")):
            if path:
                print(f"{what}: {path}")
        if args.plot and not have_matplotlib():
            print(f"plot: not drawn, matplotlib is missing ({PLOT_HINT})")
    return 130 if result.interrupted else 0


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


def _table_lines(names: list[str], rows: list[dict], best: str | None, args, games: int,
                 solo: bool = False) -> list[str]:
    against = f"vs {args.vs}" if not args.league else \
        ("league, " + (f"{args.vs} = 0" if args.vs else "mean 0"))
    widths = [max(len(name), *(len(str(row[name])) for row in rows)) for name in names]
    head = "  ".join(f"{name:>{width}}" for name, width in zip(names, widths))
    games = games if solo else pair_count(games) * 2     # solo: -n seeds, no pairs
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
