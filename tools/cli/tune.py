"""``botarena tune``: find a bot's best parameters against an opponent, by SPSA (fishtest's
way, for ranges) or by racing a grid (successive halving), then verify the result."""
from __future__ import annotations

import json
import shlex

from referee.api import UsageError
from tools.arena.botspec import bot_parser, builtin_bots, resolve_bot
from tools.arena.grid import check_flags_once, expand_grid, fill, parse_ranges
from tools.arena.race import DROP_RULES, Race
from tools.arena.spsa import Spsa, schedule
from tools.arena.tuner import TuneInterrupted, TuneSession
from tools.arena.tuning import SPSA_GAMES, RaceRun, SpsaRun, verify
from tools.cli.options import add_run_arguments, check_output_file, settle_run_arguments
from tools.cli.sweep_plot import PLOT_HINT, have_matplotlib as _have_matplotlib
from tools.cli.tune_report import report_lines, summary, write_csv, write_plot


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
    parser.add_argument("--method", choices=("spsa", "race"), default="spsa",
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
    settle_run_arguments(args)
    check_flags_once(args.template, "tune")
    for value, option in ((args.iterations, "--iterations"), (args.pairs or 1, "--pairs"),
                          (args.rounds, "--rounds")):
        if value < 1:
            raise UsageError(f"{option} {value}: must be at least 1")
    if args.games < 0:
        raise UsageError(f"-n {args.games}: must be 0 (no verification) or more")
    for path, option in ((args.csv, "--csv"), (args.plot, "--plot")):
        if path:
            check_output_file(path, option)
    tuner = _SpsaTuner(args) if args.method == "spsa" else _RaceTuner(args)
    session = TuneSession(args, tuner.stamp(), tuner.progress_text)
    try:
        tuner.check_bots(session.game.name, session.cluster is not None)
        tuner.prepare(session)
        try:
            tuner.tune(session)
            tuned = tuner.tuned_bot()
            session.plan(session.games + 2 * args.games)
            tallies = verify(session, tuned, {"opponent": args.vs, "start": tuner.start_bot()},
                             args.games)
        except TuneInterrupted:
            session.close()
            print(f"interrupted after {session.games} games; best so far: {tuner.tuned_bot()}")
            print(tuner.resume_hint(args))
            return 130
    finally:
        session.close()
    result = summary(args, tuner, session, tallies)
    if args.csv:
        write_csv(args.csv, tuner)
    plotted = bool(args.plot) and _have_matplotlib()
    if plotted:
        write_plot(args.plot, tuner, args)
    if args.json:
        print(json.dumps(result))
    else:
        print("\n".join(report_lines(result, args, plotted)))
    return 0


def _pairs_of(text: str, option: str, names: list[str]) -> dict[str, float]:
    """``NAME=V,NAME=V`` with every name a parameter of BOT."""
    values = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, value = item.partition("=")
        name = name.strip().lstrip("-")
        if not sep or name not in names:
            raise UsageError(f"{option} {item!r}: unknown parameter {name!r}; BOT's parameters "
                             f"are {', '.join(names)}")
        try:
            values[name] = float(value)
        except ValueError:
            raise UsageError(f"{option} {item!r}: {value.strip()!r} is not a number") from None
    return values


def bot_defaults(game: str, template: str, names: list[str]) -> dict[str, str]:
    """A built-in bot's own default for each ``--name`` (what it plays when not told)."""
    head = shlex.split(fill(template, ["0"] * len(names)))[0]
    if head not in builtin_bots(game):
        return {}
    defaults = {}
    for action in bot_parser(game, head)._actions:
        for name in names:
            if f"--{name}" in action.option_strings and action.default is not None:
                defaults[name] = str(action.default)
    return defaults


def check_bot(game: str, bot: str, what: str, on_cluster: bool = False) -> None:
    """A bot's arguments checked here; its files too, unless a cluster's workers hold them."""
    try:
        resolve_bot(game, bot, check_files=not on_cluster)
    except UsageError as error:
        raise UsageError(f"{what}: {error}") from None


class _SpsaTuner:
    method = "spsa"

    def __init__(self, args):
        self.args = args
        self.parameters = parse_ranges(args.template)
        names = [p.name for p in self.parameters]
        self.given_start = _pairs_of(args.start, "--start", names)
        self.c_end = _pairs_of(args.c_end, "--c-end", names)
        self.r_end = _pairs_of(args.r_end, "--r-end", names)
        for name, value in self.c_end.items():
            if value <= 0:
                raise UsageError(f"--c-end {name}={value:g}: must be above 0")
        self.pairs = args.pairs or 1
        self.run = None

    def stamp(self) -> dict:
        a = self.args
        return {"method": "spsa", "bot": a.template, "vs": a.vs, "iterations": a.iterations,
                "pairs": self.pairs, "spsa_games": a.spsa_games, "start": a.start,
                "c_end": a.c_end, "r_end": a.r_end}

    def check_bots(self, game: str, on_cluster: bool) -> None:
        defaults = bot_defaults(game, self.args.template, [p.name for p in self.parameters])
        self.start = []
        for p in self.parameters:
            value = self.given_start.get(p.name)
            if value is None and p.name in defaults:
                try:
                    value = float(defaults[p.name])
                except ValueError:
                    value = None
            if value is None or not p.low <= value <= p.high:
                if p.name in self.given_start:
                    raise UsageError(f"--start {p.name}={value:g} is outside its range "
                                     f"{p.low:g}..{p.high:g}")
                value = p.from_internal(sum(p.bounds) / 2)
            self.start.append(value)
        for label, values in (("low", [p.low for p in self.parameters]),
                              ("high", [p.high for p in self.parameters]), ("start", self.start)):
            units = [p.to_internal(v) for p, v in zip(self.parameters, values)]
            texts = [p.text(u) for p, u in zip(self.parameters, units)]
            check_bot(game, fill(self.args.template, texts), f"BOT at its {label} values", on_cluster)
        check_bot(game, self.args.vs, "--vs", on_cluster)

    def prepare(self, session: TuneSession) -> None:
        per_iteration = self.pairs * 2
        gains = [schedule(p, self.args.iterations, per_iteration, self.c_end.get(p.name),
                          self.r_end.get(p.name)) for p in self.parameters]
        spsa = Spsa(self.parameters, self.start, gains, session.base_seed)
        self.start_units = list(spsa.theta)
        self.run = SpsaRun(spsa, self.args.template, self.args.vs, self.args.iterations,
                           self.pairs, self.args.spsa_games, game_seeds=session.game_seeds)
        session.plan(self.args.iterations * self.run.games_per_iteration())

    def tune(self, session: TuneSession) -> None:
        self.run.run(session)

    def progress_text(self) -> str:
        return self.run.progress_text() if self.run is not None else ""

    def tuned_bot(self) -> str:
        return self.run.bot(self.run.spsa.theta)

    def start_bot(self) -> str:
        return self.run.bot(self.start_units)

    def resume_hint(self, args) -> str:
        return "run the same command again to resume" if args.out else \
            "use --out FILE to be able to resume"


class _RaceTuner:
    method = "race"

    def __init__(self, args):
        self.args = args
        self.names, self.points = expand_grid(args.template, "tune")
        if len(self.points) < 2:
            raise UsageError(f"tune {args.template!r}: a race needs two or more points")
        self.given_start = _pairs_of(args.start, "--start", self.names)
        if args.c_end or args.r_end:
            raise UsageError("--c-end and --r-end are SPSA settings; --method race has none")
        if args.vs in (point.bot for point in self.points):
            raise UsageError(f"--vs {args.vs!r} is also a point of the grid")
        self.pairs = args.pairs or 2
        self.run = RaceRun(Race(self.points, args.vs, self.pairs, args.drop), args.rounds,
                           self.names)

    def stamp(self) -> dict:
        a = self.args
        return {"method": "race", "bot": a.template, "vs": a.vs, "rounds": a.rounds,
                "pairs": self.pairs, "drop": a.drop}

    def check_bots(self, game: str, on_cluster: bool) -> None:
        for point in self.points:
            check_bot(game, point.bot, "grid point", on_cluster)
        check_bot(game, self.args.vs, "--vs", on_cluster)
        defaults = {**bot_defaults(game, self.args.template, self.names),
                    **{name: _number_text(value) for name, value in self.given_start.items()}}
        self.start = fill(self.args.template, [defaults.get(name, "") for name in self.names]) \
            if all(name in defaults for name in self.names) else None
        if self.start is not None:
            check_bot(game, self.start, "the starting parameters", on_cluster)

    def prepare(self, session: TuneSession) -> None:
        self.game_seeds = session.game_seeds
        session.plan(self.run.planned_games())

    def tune(self, session: TuneSession) -> None:
        self.run.run(session, self.game_seeds)

    def progress_text(self) -> str:
        return self.run.progress_text()

    def tuned_bot(self) -> str:
        return self.run.race.best().point.bot

    def start_bot(self) -> str | None:
        return self.start

    def resume_hint(self, args) -> str:
        return _SpsaTuner.resume_hint(self, args)


def _number_text(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"

