"""``botarena tune``: find a bot's best parameters against an opponent, by SPSA (fishtest's
way, for ranges) or by racing a grid (successive halving), then verify the result."""
from __future__ import annotations

import json

from tools.arena.printable import printable
from tools.cli.options import add_run_arguments, check_output_file, run_games, run_settings
from tools.cli.sweep_plot import PLOT_HINT
from tools.cli.sweep_plot import have_matplotlib as _have_matplotlib
from tools.cli.tune_report import report_lines, write_csv, write_plot
from tools.tune.race import DROP_RULES
from tools.tune.runs import SPSA_GAMES
from tools.tune.tuners import METHODS, TuneSpec, tune


def register(commands) -> None:
    parser = commands.add_parser(
        "tune", help="tune a bot's parameters against an opponent: SPSA over ranges, or racing "
        "a grid", description="SPSA: BOT has ranges, \"hybrid --depth {1..8} --c {0.1..4 log}\" "
        "(integer when both ends are; ' log' for a log scale). Race: BOT has brace lists as for "
        "sweep, \"hybrid --depth {1,2,3,5,8}\". Ends with a verification match of the tuned bot "
        "against the opponent and against the starting parameters.")
    parser.add_argument("game")
    parser.add_argument("template", metavar="BOT")
    parser.add_argument("--vs", metavar="OPPONENT", required=True, help="the bot to beat")
    parser.add_argument("--method", choices=METHODS, default="spsa",
                        help="spsa (default) or race")
    parser.add_argument("--iterations", type=int, default=200, metavar="N",
                        help="SPSA iterations (default: 200)")
    parser.add_argument("--pairs", type=int, metavar="P", help="seat-swapped pairs per SPSA "
                        "iteration (default: 1) or per point and racing round (default: 2)")
    parser.add_argument("--spsa-games", choices=SPSA_GAMES, default="mirror",
                        help="mirror: theta+ plays theta- (fishtest; default); opponent: each "
                        "plays OPPONENT on the same seeds")
    parser.add_argument("--start", metavar="NAME=V,...", default="",
                        help="starting values (default: the bot's own defaults, else mid-range)")
    parser.add_argument("--c-end", metavar="NAME=V,...", default="",
                        help="SPSA perturbation at the end, per parameter (default: a fifth of "
                        "the range, at least 1 for an integer)")
    parser.add_argument("--r-end", metavar="NAME=V,...", default="",
                        help="SPSA learning rate at the end, a_end / c_end^2 (default: from the "
                        "range and the budget; printed at the start)")
    parser.add_argument("--rounds", type=int, default=10, metavar="R",
                        help="racing: the most rounds (default: 10)")
    parser.add_argument("--drop", choices=DROP_RULES, default="bounds",
                        help="racing: drop points whose Elo upper bound is below the best's lower "
                        "bound (bounds, default) or the worse half each round (half)")
    add_run_arguments(parser, games_default=100,
                      games_help="games of each verification match (0: none)")
    parser.add_argument("--csv", metavar="FILE", help="SPSA: theta per iteration; race: the points")
    parser.add_argument("--plot", metavar="FILE", help="SPSA: each parameter's trajectory; race: "
                        f"Elo of the points (needs matplotlib: {PLOT_HINT})")
    parser.set_defaults(func=run)


def run(args) -> int:
    settings = run_settings(args)
    spec = TuneSpec(args.template, args.vs, method=args.method, iterations=args.iterations,
                    pairs=args.pairs, spsa_games=args.spsa_games, start=args.start,
                    c_end=args.c_end, r_end=args.r_end, rounds=args.rounds, drop=args.drop,
                    games=run_games(args, settings))
    for path, option in ((args.csv, "--csv"), (args.plot, "--plot")):
        if path:
            check_output_file(path, option)
    result = tune(settings, spec)
    if result.interrupted or result.summary is None:
        print(f"interrupted after {result.games} games; best so far: {result.tuned}")
        print("run the same command again to resume" if args.out else
              "use --out FILE to be able to resume")
        return 130
    if args.csv:
        write_csv(args.csv, result.tuner)
    plotted = bool(args.plot) and _have_matplotlib()
    if plotted:
        write_plot(args.plot, result.tuner, args)
    if args.json:
        print(json.dumps(result.summary))
    else:
        print(printable("\n".join(report_lines(result.summary, args, plotted)), keep_newlines=True))
    return 0
