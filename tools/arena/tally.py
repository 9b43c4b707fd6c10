"""Results of two bots against each other, from the first one's point of view.

Fed the game records of the results file (see ``tools.arena.runner``), a :class:`HeadToHead` counts
wins, draws and losses (overall and by seat), the pentanomial counts of complete pairs, faults
by kind and latencies per bot, and turns them into the summary ``match`` prints.
"""
from __future__ import annotations

import math
import re
import shlex
from collections import Counter

from referee.match import latency_summary
from tools import stats

WIN, DRAW, LOSS = 1.0, 0.5, 0.0


def game_score(record: dict, bot: str, opponent: str) -> float:
    """``bot``'s score in a game against ``opponent``: 1, 1/2 or 0 by rank (a fault ranks last)."""
    seats = record["seats"]
    players = record["players"]
    mine, theirs = players[seats.index(bot)]["rank"], players[seats.index(opponent)]["rank"]
    return WIN if mine < theirs else DRAW if mine == theirs else LOSS


class HeadToHead:
    """Games between ``first`` and ``second``; every figure is from ``first``'s point of view."""

    def __init__(self, first: str, second: str):
        self.first = first
        self.second = second
        self.by_seat = [[0, 0, 0], [0, 0, 0]]        # first's seat -> [wins, draws, losses]
        # memory stays flat however many games: a pair is kept only until its second game
        # comes, then counted; latencies and scores are kept as counts and sums
        self._open_pairs: dict[int, float] = {}
        self._pentanomial = [0] * 5
        self.faults: dict[str, Counter] = {first: Counter(), second: Counter()}
        self.latencies: dict[str, LatencyCounts] = {first: LatencyCounts(),
                                                     second: LatencyCounts()}
        self.void = 0                                 # games the referee failed: no result
        self.uncertain = 0                            # games of uncertain timing: kept apart
        self.scores: dict[str, Counter] = {first: Counter(), second: Counter()}  # score -> games
        self.solo = False                             # comparisons of single-player games
        self.first_faults: dict[str, dict] = {}       # per bot: its first fault, how to re-run it

    def add(self, record: dict) -> None:
        if record.get("referee_error") is not None:
            self.void += 1
            return
        if record.get("timing_uncertain"):
            self.uncertain += 1
            return
        seats = record["seats"]
        score = game_score(record, self.first, self.second)
        column = 0 if score == WIN else 1 if score == DRAW else 2
        # a pair of seats of a bigger game (tools.arena.multiplayer) names its real seats
        seat = (record.get("seat_numbers") or range(len(seats)))[seats.index(self.first)]
        while len(self.by_seat) <= seat:
            self.by_seat.append([0, 0, 0])
        self.by_seat[seat][column] += 1
        if not self.solo and record["pair"] is not None:   # solo: one game per seed
            self._count_pair(record["pair"], score)
        counted = record.get("counted") or (True,) * len(seats)
        for seat, name in enumerate(seats):
            if not counted[seat]:
                continue
            self.scores[name][record["players"][seat]["score"]] += 1
            fault = record["players"][seat].get("fault")
            if fault:
                self.faults[name][fault["kind"]] += 1
                rerun = rerun_command(record, [name] if self.solo else None)
                self.first_faults.setdefault(name, {**fault, "rerun": rerun})
            latencies = record.get("latencies_ms")
            if latencies:
                self.latencies[name].add(latencies[seat])

    def _count_pair(self, pair: int, score: float) -> None:
        partner = self._open_pairs.pop(pair, None)
        if partner is None:
            self._open_pairs[pair] = score
        else:
            self._pentanomial[round(2 * (partner + score))] += 1

    # -- counts -------------------------------------------------------------------------------
    @property
    def wins(self) -> int:
        return sum(row[0] for row in self.by_seat)

    @property
    def draws(self) -> int:
        return sum(row[1] for row in self.by_seat)

    @property
    def losses(self) -> int:
        return sum(row[2] for row in self.by_seat)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    def pentanomial(self) -> list[int]:
        """Complete pairs by first's total: [LL, LD+DL, LW+DD+WL, DW+WD, WW]."""
        return list(self._pentanomial)

    # -- statistics ---------------------------------------------------------------------------
    def elo(self) -> tuple[stats.EloEstimate, str]:
        """Elo with its interval: over complete pairs when there are any, else per game."""
        pairs = self.pentanomial()
        if sum(pairs):
            return stats.elo_pentanomial(pairs), "pentanomial"
        return stats.elo_trinomial(self.wins, self.draws, self.losses), "trinomial"

    def llr(self, settings: stats.SprtSettings) -> float:
        """The GSPRT's LLR, exact (see stats.llr_pentanomial_exact for why), over pairs, or over
        games when there are none (single-player comparisons)."""
        if self.solo:
            return stats.llr_trinomial_exact(self.wins, self.draws, self.losses,
                                             settings.elo0, settings.elo1)
        return stats.llr_pentanomial_exact(self.pentanomial(), settings.elo0, settings.elo1)

    def llr_approximation(self, settings: stats.SprtSettings) -> float:
        if self.solo:
            return stats.llr_trinomial(self.wins, self.draws, self.losses,
                                       settings.elo0, settings.elo1)
        return stats.llr_pentanomial(self.pentanomial(), settings.elo0, settings.elo1)

    def mean_scores(self) -> dict[str, dict]:
        """Each bot's mean game score (its points, quests...) with a 95 % interval, bounded by the
        lowest and highest scores seen (the game's range is not declared)."""
        means = {}
        for name, counts in self.scores.items():
            levels = sorted(counts) or [0.0]
            _, mean, _ = stats.mean_and_variance([counts[level] for level in levels], levels)
            low, high = stats.bounded_interval([counts[level] for level in levels], levels)
            means[name] = {"mean": round(mean, 3) if counts else 0.0,
                           "ci95": [round(low, 3), round(high, 3)]}
        return means

    def summary(self) -> dict:
        """The figures as one JSON-ready object."""
        estimate, model = self.elo()
        trinomial = stats.elo_trinomial(self.wins, self.draws, self.losses)
        games = self.games
        return {
            "bot_a": self.first, "bot_b": self.second,
            "games": games, "wins": self.wins, "draws": self.draws, "losses": self.losses,
            "score": round(self.points / games, 4) if games else None,
            "elo": _round(estimate.elo), "elo_ci95": [_round(estimate.low), _round(estimate.high)],
            "elo_model": model,
            "elo_trinomial": {"elo": _round(trinomial.elo),
                              "elo_ci95": [_round(trinomial.low), _round(trinomial.high)]},
            "los": round(stats.los(self.wins, self.losses), 4),
            "draw_ratio": round(stats.draw_ratio(self.wins, self.draws, self.losses), 4),
            "pentanomial": self.pentanomial(),
            "by_seat": [{"seat": seat, "wins": row[0], "draws": row[1], "losses": row[2]}
                        for seat, row in enumerate(self.by_seat)],
            "faults": {name: dict(counter) for name, counter in self.faults.items()},
            "latency_ms": {name: values.summary() for name, values in self.latencies.items()},
            "answers": {name: values.count for name, values in self.latencies.items()},
            "void": self.void,
            "timing_uncertain": self.uncertain,
            "mean_score": self.mean_scores(),
            "first_faults": self.first_faults,
            "solo": self.solo,
        }

    def progress_text(self) -> str:
        """A short running figure for a progress bar."""
        if not self.games:
            return ""
        estimate, _ = self.elo()
        return (f"{self.wins}-{self.draws}-{self.losses} score {self.points / self.games:.1%} "
                f"Elo {format_elo(estimate.elo)} {format_interval(estimate)}")


class RunningMean:
    """Count, mean and spread of a stream of numbers without keeping them (Welford)."""

    __slots__ = ("count", "mean", "_squares")

    def __init__(self):
        self.count, self.mean, self._squares = 0, 0.0, 0.0

    def add(self, value: float) -> None:
        self.count += 1
        delta = value - self.mean
        self.mean += delta / self.count
        self._squares += delta * (value - self.mean)

    def standard_error(self) -> float:
        """Of the mean, with the population variance (n in the denominator)."""
        return math.sqrt(max(self._squares, 0.0) / self.count / self.count) if self.count else 0.0


class LatencyCounts:
    """Answer latencies as a count per value: the percentiles of the full list (to three
    figures above 10 ms), in memory that grows with distinct values, not answers."""

    __slots__ = ("count", "_counts")

    def __init__(self):
        self.count = 0
        self._counts: Counter = Counter()

    def add(self, values) -> None:
        # to 0.01 ms below 10 ms (as recorded), three figures above: a slow or loaded machine
        # spreads latencies over seconds, and the keys must not grow with the answers
        self._counts.update(value if value < 10 else float(f"{value:.3g}") for value in values)
        self.count += len(values)

    def summary(self) -> dict[str, float]:
        """p50, p99 and max as ``referee.match.latency_summary`` gives them from the list."""
        if not self.count:
            return latency_summary([])
        wanted = {"p50": min(self.count - 1, int(0.5 * self.count)),
                  "p99": min(self.count - 1, int(0.99 * self.count))}
        found: dict[str, float] = {}
        seen = 0
        for value in sorted(self._counts):
            seen += self._counts[value]
            for name, index in wanted.items():
                if name not in found and index < seen:
                    found[name] = round(value, 3)
        return {"p50": found["p50"], "p99": found["p99"], "max": round(max(self._counts), 3)}


def rerun_command(record: dict, seats: list[str] | None = None, replay: str = "fault.json") -> str:
    """The ``botarena play`` command that plays the game of ``record`` again, with a replay
    (``seats``: the bots to name, for one bot's game of a single-player comparison)."""
    seats = seats or record.get("game_seats") or record["seats"]
    words = ["botarena", "play", record.get("game_file") or record.get("game", "GAME"),
             *(_COPY_SUFFIX.sub("", name) for name in seats), "--seed", str(record["seed"])]
    for key, value in (record.get("options") or {}).items():
        words += ["--option", f"{key}={value}"]
    clock = record.get("time_control") or {}
    for key in ("first_turn_ms", "turn_ms", "grace_ms"):
        if key in clock:
            words += [f"--{key.replace('_', '-')}", str(clock[key])]
    return shlex.join(words + ["--replay", replay])


_COPY_SUFFIX = re.compile(r" #\d+$")        # "random #2", a second copy of a bot (see Tournament)


def shorten(text: str, width: int) -> str:
    """``text`` on one line, cut at the last word that fits in ``width`` with an ellipsis (the
    whole text stays in the JSON summary)."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    cut = text[:width - 1]
    if " " in cut[width // 2:]:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "…"


def mean_with_interval(mean: float, low: float, high: float) -> str:
    """``7.980 [7.341, 8.619]``: the three with one number of decimals, 3 below 10 (a win
    rate's 0.953), 2 up to 1,000 (cards, points), 1 beyond."""
    largest = max(abs(mean), abs(low), abs(high))
    decimals = 3 if largest < 10 else 2 if largest < 1000 else 1
    return f"{mean:.{decimals}f} [{low:.{decimals}f}, {high:.{decimals}f}]"


def _detail_text(detail: str, width: int = 160) -> str:
    short = shorten(detail, width)
    return short if short == detail else f"{short} (whole text: --json)"


def _round(value: float) -> float | None:
    return round(value, 1) if math.isfinite(value) else None


def format_elo(value: float | None, unbounded: str = "inf") -> str:
    """``value`` as +12.3; None (an unbounded end in JSON) as ``unbounded``."""
    if value is None:
        return unbounded
    if not math.isfinite(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.1f}" if round(value, 1) else "0.0"


def format_bounds(low: float | None, high: float | None) -> str:
    return f"[{format_elo(low, '-inf')}, {format_elo(high, '+inf')}]"


def format_interval(estimate: stats.EloEstimate) -> str:
    return format_bounds(estimate.low, estimate.high)


def summary_lines(summary: dict) -> list[str]:
    """The ``match`` summary as text, from :meth:`HeadToHead.summary`."""
    a, b = summary["bot_a"], summary["bot_b"]
    games = summary["games"]
    if not games:
        return [f"{a} vs {b}: no games finished"]
    results = summary.get("results")        # a game of 3+ players: its pairwise results
    headline = f"{a} vs {b}: {games} games" + \
        (f", {results} pairwise results (wins, draws, losses below)" if results else "")
    lines = [headline,
             f"  wins {summary['wins']}  draws {summary['draws']}  losses {summary['losses']}  "
             f"score {summary['score']:.1%}  draw ratio {summary['draw_ratio']:.1%}",
             f"  Elo {format_elo(summary['elo'], '+inf' if summary['score'] > 0.5 else '-inf')} "
             f"{format_bounds(*summary['elo_ci95'])} "
             f"(95 %, {_model_text(summary)})  LOS {summary['los']:.1%}"]
    if not summary["solo"]:
        pairs = summary["pentanomial"]
        lines.append(f"  pairs {sum(pairs)}: LL {pairs[0]}  LD {pairs[1]}  WL/DD {pairs[2]}  "
                     f"WD {pairs[3]}  WW {pairs[4]}")
        for row in summary["by_seat"]:
            lines.append(f"  {a} in seat {row['seat']}: wins {row['wins']}  draws {row['draws']}  "
                         f"losses {row['losses']}")
    for name in (a, b):
        score = summary["mean_score"][name]
        lines.append(f"  {name}: mean score {mean_with_interval(score['mean'], *score['ci95'])} "
                     "(95 %)")
    for name in (a, b):
        latency = summary["latency_ms"][name]
        faults = summary["faults"][name]
        fault_text = ", ".join(f"{kind} {count}" for kind, count in sorted(faults.items())) \
            or "none"
        timing = f"latency p50 {latency['p50']:.1f}  p99 {latency['p99']:.1f}  " \
                 f"max {latency['max']:.1f} ms" if summary["answers"][name] else "no answers"
        lines.append(f"  {name}: {timing};  faults: {fault_text}")
    for name, fault in summary["first_faults"].items():
        lines.append(f"  first fault of {name}: {fault['kind']} at turn {fault['turn']}: "
                     f"{_detail_text(fault['detail'])}")
        lines.append(f"    re-run it: {fault['rerun']}")
    if summary["void"]:
        lines.append(f"  void: {summary['void']} game(s) without a result (referee error; see "
                     "referee_error in the results file)")
    if summary.get("timing_uncertain"):
        lines.append(f"  timing uncertain: {summary['timing_uncertain']} game(s) kept apart, not "
                     "counted above (see timing_uncertain in the results file)")
    return lines


def _model_text(summary: dict) -> str:
    if summary["elo_model"] == "pentanomial":
        return f"over {sum(summary['pentanomial'])} seat-swapped pairs"
    if summary["solo"]:
        return "per seed, each bot alone, higher score wins"
    return "per game"
