"""How many games does the ladder's scheduling save? The ladder against a round robin.

A pool of 8 tictactoe MCTS bots with fixed playout budgets (``--iterations``: deterministic
strength, no clock), then a 9th added mid-run. Their true pairwise results are measured once
with real games (``--measure``: a ``botarena league`` of the 9, every pair in both seat
orders; kept in tools/bench/ladder_rates.json); the trials then draw each game's result (win,
draw or loss of the first seat) from those measured frequencies instead of playing it, so
hundreds of trials take minutes. Each trial, for each method:

1. the 8 bots play until the best is separated from the second with 95 % confidence (the
   fit's first minus second, its 95 % interval above 0): the games this took;
2. the 9th bot joins; play until the first two are separated and the newcomer's 95 % rank range
   (1 + the bots surely above it, to 9 less those surely below) lies within one of its true rank.

The ladder chooses each seat-swapped pair with tools.ladder.scheduler, exactly as ``ladder run``
does; the round robin plays the pair with the fewest games (the newcomer's pairs first, until
it has caught up), as a league does. At the end of each ladder trial, coverage: is each bot's
true rating (the Bradley-Terry fit of the measured rates) inside its 95 % interval?

    botarena bench ladder                     # 100 trials from the stored rates (a few minutes)
    botarena bench ladder --trials 10         # a smoke run
    botarena bench ladder --measure -n 40     # measure the rates again with real games first
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tools.ladder.model import Fit, PairTally, fit
from tools.ladder.scheduler import Scheduler
from tools.stats import ELO_PER_NAT

RATES = Path(__file__).with_name("ladder_rates.json")
GAME = "tictactoe"
POOL = tuple(f"mcts --iterations {n}" for n in (2, 4, 8, 16, 32, 64, 128, 256))
NEWCOMER = "mcts --iterations 24"
CAP = 40_000                    # games per phase before a trial gives up

Rates = dict[tuple[str, str], tuple[float, float, float]]   # first seat's win, draw, loss


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=100,
                        help="trials per method (default: 100; 0: only --measure)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--measure", action="store_true",
                        help="measure the true rates with real games first (writes the rates file)")
    parser.add_argument("-n", "--games", type=int, default=40,
                        help="with --measure: games per pair of bots (default: 40)")
    parser.add_argument("--jobs", type=int, default=None, help="with --measure: games at once")
    parser.add_argument("--rates", default=str(RATES), help=f"the rates file (default: {RATES})")
    return parser


# -- the true rates -------------------------------------------------------------------------------

def measure(path: str, games: int, jobs: int | None) -> None:
    """Play the league of the 9 bots and keep each ordered pair's win, draw, loss frequencies."""
    bots = [*POOL, NEWCOMER]
    with tempfile.TemporaryDirectory() as folder:
        results = Path(folder, "league.jsonl")
        # no clock: each bot's strength is its playout budget, never the machine's load
        command = [sys.executable, "-m", "tools.cli", "league", GAME, *bots, "-n", str(games),
                   "--seed", "34", "--out", str(results), "--quiet", "--json",
                   "--first-turn-ms", "600000", "--turn-ms", "600000"]
        if jobs is not None:
            command += ["--jobs", str(jobs)]
        load = os.getloadavg()[0]
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        seconds = time.perf_counter() - started
        records = [json.loads(line) for line in results.read_text().splitlines() if line]
    faults = sum(any(player.get("fault") for player in record["players"]) for record in records)
    Path(path).write_text(json.dumps({
        "game": GAME, "pool": list(POOL), "newcomer": NEWCOMER, "games_per_pair": games,
        "measured": f"{len(records)} games ({faults} with a fault) in {seconds:.0f} s, load "
                    f"average {load:.1f} before",
        "counts": count_results(records)}, indent=1) + "\n")


def count_results(records: Sequence[dict]) -> dict[str, list[int]]:
    """Wins, draws and losses of the first seat, by "FIRST|SECOND"."""
    counts: dict[str, list[int]] = {}
    for record in records:
        first, second = record["seats"]
        ranks = [player["rank"] for player in record["players"]]
        column = 0 if ranks[0] < ranks[1] else 1 if ranks[0] == ranks[1] else 2
        counts.setdefault(f"{first}|{second}", [0, 0, 0])[column] += 1
    return counts


def read_rates(path: str) -> tuple[list[str], str, Rates, str]:
    data = json.loads(Path(path).read_text())
    rates: Rates = {}
    for key, (wins, draws, losses) in data["counts"].items():
        first, second = key.split("|")
        total = wins + draws + losses
        rates[(first, second)] = (wins / total, draws / total, losses / total)
    return data["pool"], data["newcomer"], rates, data["measured"]


def true_fit(names: Sequence[str], rates: Rates) -> Fit:
    """The Bradley-Terry fit of the rates themselves (as if from 10^6 games a pair)."""
    tally = PairTally()
    for (first, second), (wins, draws, _) in rates.items():
        if first in names and second in names:
            tally.add(first, second, 10**6 * (wins + draws / 2), 10**6)
    return fit(names, tally)


# -- one trial ------------------------------------------------------------------------------------

Chooser = Callable[[Fit, PairTally, list[str], str], tuple[str, ...]]


def ladder_choice(current: Fit, tally: PairTally, active: list[str], newest: str) -> tuple[str, ...]:
    return Scheduler(current, tally, active, newest).choose()


def round_robin_choice(current: Fit, tally: PairTally, active: list[str],
                       newest: str) -> tuple[str, ...]:
    pairs = list(itertools.combinations(active, 2))
    return min(pairs, key=lambda pair: (tally.games(*pair), pairs.index(pair)))


@dataclass
class Trial:
    first_phase: int              # games until the best of 8 is separated from the second
    second_phase: int             # games after the newcomer joined until both questions settle
    top_right: bool               # the separated best is the true best (at the end)
    newcomer_rank: tuple[int, int]
    covered: int                  # bots whose true rating is in their interval (at the end)
    rated: int


def run_trial(choose: Chooser, pool: Sequence[str], newcomer: str, rates: Rates,
              rng: random.Random) -> Trial:
    names = list(pool)
    rng.shuffle(names)                    # the order they were added in: the last is newest
    truth = true_fit([*pool, newcomer], rates)
    true_order = truth.order()
    tally = PairTally()
    current = fit(names, tally)

    def play_until(done: Callable[[Fit], bool]) -> int:
        nonlocal current
        played = 0
        while not done(current) and played < CAP:
            first, second = choose(current, tally, names, names[-1])
            for seats in ((first, second), (second, first)):
                wins, draws, _ = rates[seats]
                draw = rng.random()
                tally.add(*seats, 1.0 if draw < wins else 0.5 if draw < wins + draws else 0.0)
            played += 2
            current = fit(names, tally, current.theta)
        return played

    def top_separated(result: Fit) -> bool:
        best, second = result.order()[:2]
        return result.separated(best, second)

    first_phase = play_until(top_separated)
    names.append(newcomer)
    current = fit(names, tally, (*current.theta, 0.0))
    true_rank = true_order.index(newcomer) + 1

    def placed(result: Fit) -> bool:
        low, high = result.rank_range(newcomer)
        return top_separated(result) and true_rank - 1 <= low and high <= true_rank + 1

    second_phase = play_until(placed)
    centre = sum(truth.theta) / len(truth.theta)
    covered = 0
    for name in names:
        _, low, high = current.elo_interval(name)
        true_elo = ELO_PER_NAT * (truth.theta[truth.index(name)] - centre)
        covered += low <= true_elo <= high
    return Trial(first_phase, second_phase, current.order()[0] == true_order[0],
                 current.rank_range(newcomer), covered, len(names))


# -- the report -----------------------------------------------------------------------------------

def _describe(label: str, values: Sequence[int]) -> str:
    capped = sum(value >= CAP for value in values)
    quartiles = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    text = (f"{label}: median {statistics.median(values):,.0f}, mean {statistics.mean(values):,.0f}"
            f", quartiles {quartiles[0]:,.0f}-{quartiles[2]:,.0f}")
    return text + (f", {capped} trial(s) stopped at the cap of {CAP:,}" if capped else "")


def main(argv: list[str] | None = None) -> int:
    options = build_parser().parse_args(argv)
    if options.measure:
        measure(options.rates, options.games, options.jobs)
    if options.trials < 1:
        return 0
    pool, newcomer, rates, measured = read_rates(options.rates)
    truth = true_fit([*pool, newcomer], rates)
    centre = sum(truth.theta) / len(truth.theta)
    print(f"bench ladder: {GAME}, true rates measured once ({measured}); games drawn from them")
    print("true ratings (Elo, mean 0): " + ", ".join(
        f"{name.split()[-1]}{'*' if name == newcomer else ''} "
        f"{ELO_PER_NAT * (truth.theta[truth.index(name)] - centre):+.0f}"
        for name in truth.order()) + "  (mcts --iterations N; * joins mid-run)")
    load = os.getloadavg()[0]
    started = time.perf_counter()
    results: dict[str, list[Trial]] = {}
    for label, choose in (("ladder", ladder_choice), ("round robin", round_robin_choice)):
        rng = random.Random(options.seed)
        results[label] = [run_trial(choose, pool, newcomer, rates, rng)
                          for _ in range(options.trials)]
    for label, trials in results.items():
        firsts = [trial.first_phase for trial in trials]
        seconds = [trial.second_phase for trial in trials]
        totals = [a + b for a, b in zip(firsts, seconds)]
        print(f"{label}, {len(trials)} trials:")
        print("  " + _describe("best of 8 separated from the second", firsts))
        print("  " + _describe("then newcomer placed within one rank (and top still separated)",
                               seconds))
        print("  " + _describe("total", totals))
        right = sum(trial.top_right for trial in trials)
        covered = sum(trial.covered for trial in trials)
        rated = sum(trial.rated for trial in trials)
        print(f"  best bot right at the end: {right}/{len(trials)}; true rating inside the 95 % "
              f"interval: {covered}/{rated} ({covered / rated:.1%})")
    ladder, robin = results["ladder"], results["round robin"]
    for label, part in (("first phase", lambda t: t.first_phase),
                        ("second phase", lambda t: t.second_phase),
                        ("total", lambda t: t.first_phase + t.second_phase)):
        ratio = statistics.median(map(part, ladder)) / statistics.median(map(part, robin))
        print(f"ladder / round robin, median games, {label}: {ratio:.2f}")
    print(f"simulated in {time.perf_counter() - started:.0f} s, load average {load:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after")
    return 0
