"""Tuning a bot's parameters against an opponent, by SPSA (fishtest's way, for ranges) or by
racing a grid (successive halving), then verifying the result: what ``botarena tune`` does,
callable from Python with a :class:`~tools.arena.settings.Settings` and a :class:`TuneSpec`::

    result = tune(Settings("tictactoe", seed=1), TuneSpec("hybrid --depth {1,2,3}", "random",
                                                          method="race", rounds=2, games=0))
    print(result.tuned)
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from referee.api import UsageError
from tools.arena.botspec import bot_parser, builtin_bots, resolve_bot
from tools.arena.grid import check_flags_once, expand_grid, fill, parse_ranges
from tools.arena.settings import Settings
from tools.arena.tally import HeadToHead, format_interval
from tools.tune.race import DROP_RULES, Race
from tools.tune.runs import SPSA_GAMES, RaceRun, SpsaRun, verify
from tools.tune.session import TuneInterrupted, TuneSession
from tools.tune.spsa import Spsa, schedule

METHODS = ("spsa", "race")


@dataclass(frozen=True, slots=True)
class TuneSpec:
    """What to tune and how: ``template`` is BOT with ranges (SPSA: ``{1..8}``, ``{0.1..4 log}``)
    or brace lists (race: ``{1,2,3}``); ``vs`` the bot to beat. ``start``, ``c_end`` and
    ``r_end`` are ``NAME=V,...`` texts, as the command line takes them (they stamp the results
    file, so a resumed run is known by them). ``games``: each verification match (0: none).
    Checked as it is made (UsageError, one line)."""

    template: str
    vs: str
    method: str = "spsa"
    iterations: int = 200
    pairs: int | None = None                # default: 1 per SPSA iteration, 2 per race round
    spsa_games: str = "mirror"
    start: str = ""
    c_end: str = ""
    r_end: str = ""
    rounds: int = 10
    drop: str = "bounds"
    games: int = 100

    def __post_init__(self) -> None:
        check_flags_once(self.template, "tune")
        for value, option in ((self.iterations, "--iterations"), (self.pairs or 1, "--pairs"),
                              (self.rounds, "--rounds")):
            if value < 1:
                raise UsageError(f"{option} {value}: must be at least 1")
        if self.games < 0:
            raise UsageError(f"-n {self.games}: must be 0 (no verification) or more")
        for choice, option, choices in ((self.method, "--method", METHODS),
                                        (self.spsa_games, "--spsa-games", SPSA_GAMES),
                                        (self.drop, "--drop", DROP_RULES)):
            if choice not in choices:
                raise UsageError(f"{option} {choice!r}: choose from {', '.join(choices)}")


@dataclass(frozen=True, slots=True)
class TuneResult:
    """``summary``: what ``tune --json`` prints (None when interrupted); ``tuner`` the method's
    state (its trajectory or its points, for a CSV or a plot); ``tuned`` the best bot so far;
    ``games`` finished, from the results file or played now."""

    summary: dict | None
    tuner: SpsaTuner | RaceTuner
    tuned: str
    games: int
    interrupted: bool


def tune(settings: Settings, spec: TuneSpec) -> TuneResult:
    """Tune, then play the verification matches; Ctrl-C keeps the games played so far in the
    settings' results file (``interrupted``), from where the same call resumes."""
    tuner = SpsaTuner(spec) if spec.method == "spsa" else RaceTuner(spec)
    session = TuneSession(settings, tuner.stamp(), tuner.progress_text)
    try:
        tuner.check_bots(session.game.name, session.cluster is not None)
        tuner.prepare(session)
        try:
            tuner.tune(session)
            tuned = tuner.tuned_bot()
            session.plan(session.games + 2 * spec.games)
            tallies = verify(session, tuned, {"opponent": spec.vs, "start": tuner.start_bot()},
                             spec.games)
        except TuneInterrupted:
            session.close()
            return TuneResult(None, tuner, tuner.tuned_bot(), session.games, True)
    finally:
        session.close()
    return TuneResult(_summary(spec, tuner, session, tallies), tuner, tuned, session.games, False)


def _summary(spec: TuneSpec, tuner: SpsaTuner | RaceTuner, session: TuneSession,
             tallies: dict[str, HeadToHead]) -> dict:
    """The run as one JSON-ready object."""
    result: dict[str, Any] = {"method": tuner.method, "bot": spec.template, "vs": spec.vs,
              "seed": session.base_seed, "games": session.games,
              "games_played_now": session.played, "tuned": tuner.tuned_bot(),
              "start": tuner.start_bot(), "executor": session.executor_description,
              "verification": {}}
    if isinstance(tuner, SpsaTuner):
        spsa = tuner.run.spsa
        result["parameters"] = {p.name: v for p, v in zip(spsa.parameters, spsa.values())}
        result["theta"] = {p.name: p.from_internal(t) for p, t in zip(spsa.parameters, spsa.theta)}
        result["gains"] = {p.name: {"c_end": g.c_end, "r_end": g.r_end, "a": g.a, "c": g.c,
                                    "A": g.big_a} for p, g in zip(spsa.parameters, spsa.gains)}
        result["iterations"] = tuner.run.iteration
    else:
        race = tuner.run.race
        best = race.best()
        result["parameters"] = dict(zip(tuner.names, best.point.values))
        result["rounds"] = tuner.run.history
        result["points"] = [point_row(tuner.names, entrant) for entrant in race.entrants]
        result["race_games"] = race.games_played()
        result["full_grid_games"] = race.full_grid_games()
        result["tied_cuts"] = race.tied_cuts
    for label, tally in tallies.items():
        estimate, model = tally.elo()
        result["verification"][label] = {
            "against": tally.second, "games": tally.games, "wins": tally.wins,
            "draws": tally.draws, "losses": tally.losses,
            "score": round(tally.points / tally.games, 4) if tally.games else None,
            **estimate.to_json(), "model": model, "interval": format_interval(estimate)}
    return result


def point_row(names: list[str], entrant) -> dict:
    """A race point's row: its values, games, score, Elo with its interval, when it dropped."""
    estimate, _ = entrant.tally.elo()
    json_figures = estimate.to_json()
    return {**dict(zip(names, entrant.point.values)), "bot": entrant.point.bot,
            "games": entrant.tally.games, "score": round(entrant.score, 4),
            "elo": json_figures["elo"], "elo_low": json_figures["elo_ci95"][0],
            "elo_high": json_figures["elo_ci95"][1], "dropped_after_round":
            None if entrant.dropped_after is None else entrant.dropped_after + 1}


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


class SpsaTuner:
    method = "spsa"

    def __init__(self, spec: TuneSpec):
        self.spec = spec
        self.parameters = parse_ranges(spec.template)
        names = [p.name for p in self.parameters]
        self.given_start = _pairs_of(spec.start, "--start", names)
        self.c_end = _pairs_of(spec.c_end, "--c-end", names)
        self.r_end = _pairs_of(spec.r_end, "--r-end", names)
        for name, value in self.c_end.items():
            if value <= 0:
                raise UsageError(f"--c-end {name}={value:g}: must be above 0")
        self.pairs = spec.pairs or 1
        self._run: SpsaRun | None = None          # made by prepare()

    @property
    def run(self) -> SpsaRun:
        if self._run is None:
            raise RuntimeError("SpsaTuner.prepare() makes the run")
        return self._run

    def stamp(self) -> dict:
        a = self.spec
        return {"method": "spsa", "bot": a.template, "vs": a.vs, "iterations": a.iterations,
                "pairs": self.pairs, "spsa_games": a.spsa_games, "start": a.start,
                "c_end": a.c_end, "r_end": a.r_end}

    def check_bots(self, game: str, on_cluster: bool) -> None:
        defaults = bot_defaults(game, self.spec.template, [p.name for p in self.parameters])
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
            check_bot(game, fill(self.spec.template, texts), f"BOT at its {label} values", on_cluster)
        check_bot(game, self.spec.vs, "--vs", on_cluster)

    def prepare(self, session: TuneSession) -> None:
        per_iteration = self.pairs * 2
        gains = [schedule(p, self.spec.iterations, per_iteration, self.c_end.get(p.name),
                          self.r_end.get(p.name)) for p in self.parameters]
        spsa = Spsa(self.parameters, self.start, gains, session.base_seed)
        self.start_units = list(spsa.theta)
        self._run = SpsaRun(spsa, self.spec.template, self.spec.vs, self.spec.iterations,
                           self.pairs, self.spec.spsa_games, game_seeds=session.game_seeds)
        session.plan(self.spec.iterations * self.run.games_per_iteration())

    def tune(self, session: TuneSession) -> None:
        self.run.run(session)

    def progress_text(self) -> str:
        return self._run.progress_text() if self._run is not None else ""

    def tuned_bot(self) -> str:
        return self.run.bot(self.run.spsa.theta)

    def start_bot(self) -> str:
        return self.run.bot(self.start_units)


class RaceTuner:
    method = "race"

    def __init__(self, spec: TuneSpec):
        self.spec = spec
        self.names, self.points = expand_grid(spec.template, "tune")
        if len(self.points) < 2:
            raise UsageError(f"tune {spec.template!r}: a race needs two or more points")
        self.given_start = _pairs_of(spec.start, "--start", self.names)
        if spec.c_end or spec.r_end:
            raise UsageError("--c-end and --r-end are SPSA settings; --method race has none")
        if spec.vs in (point.bot for point in self.points):
            raise UsageError(f"--vs {spec.vs!r} is also a point of the grid")
        self.pairs = spec.pairs or 2
        self.run = RaceRun(Race(self.points, spec.vs, self.pairs, spec.drop), spec.rounds,
                           self.names)

    def stamp(self) -> dict:
        a = self.spec
        return {"method": "race", "bot": a.template, "vs": a.vs, "rounds": a.rounds,
                "pairs": self.pairs, "drop": a.drop}

    def check_bots(self, game: str, on_cluster: bool) -> None:
        for point in self.points:
            check_bot(game, point.bot, "grid point", on_cluster)
        check_bot(game, self.spec.vs, "--vs", on_cluster)
        defaults = {**bot_defaults(game, self.spec.template, self.names),
                    **{name: _number_text(value) for name, value in self.given_start.items()}}
        self.start = fill(self.spec.template, [defaults.get(name, "") for name in self.names]) \
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


def _number_text(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"

