"""Is ``--jobs`` = the number of cores safe for simultaneous games? Busy bots, counted timeouts.

Plays ``match number_maze_duel`` between two DUCT bots that search until 10 ms before each
50 ms deadline (busy 40 of every 50 ms, both at once: a simultaneous game keeps two cores busy,
not one), ``--turns`` game turns in all (default 2,000: 100 games of 20 turns), with ``--jobs``
games at once (default: the number of cores). Prints the timeouts among all answers, the
latencies, and the load average before and after: 0 timeouts on an idle machine says the
default holds; timeouts say to lower it for simultaneous games. A timeout ends its game (the
bot loses), so the count is of games cut short; the answers given show how far they got.

    botarena bench jobs                       # the full measure (quiet machine: ~2 minutes)
    botarena bench jobs --turns 40 --jobs 1   # a smoke run
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time

GAME, TURNS_PER_GAME = "number_maze_duel", 20


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=2000,
                        help=f"game turns in all, {TURNS_PER_GAME} a game (default: 2000)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="games at once (default: the number of cores)")
    parser.add_argument("--turn-ms", type=int, default=50, help="budget per turn (default: 50)")
    parser.add_argument("--margin-ms", type=int, default=10,
                        help="the bots stop searching this long before it (default: 10)")
    parser.add_argument("--seed", type=int, default=1)
    return parser


def main(argv: list[str] | None = None) -> int:
    options = build_parser().parse_args(argv)
    cores = len(os.sched_getaffinity(0))
    jobs = options.jobs or cores
    games = 2 * math.ceil(options.turns / TURNS_PER_GAME / 2)
    bot = f"duct --margin-ms {options.margin_ms} --turn-ms {options.turn_ms}"
    command = [sys.executable, "-m", "tools.cli", "match", GAME, bot, bot, "-n", str(games),
               "--jobs", str(jobs), "--seed", str(options.seed), "--turn-ms", str(options.turn_ms),
               "--option", f"turns={TURNS_PER_GAME}", "--json", "--quiet"]
    before = os.getloadavg()[0]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    after = os.getloadavg()[0]
    if done.returncode != 0:
        print(f"bench jobs: the match failed ({done.returncode}): {done.stderr.strip()}",
              file=sys.stderr)
        return 1
    summary = json.loads(done.stdout)
    busy = options.turn_ms - options.margin_ms
    print(f"bench jobs: {GAME}, {bot} against itself (busy {busy} of {options.turn_ms} ms, both "
          f"seats at once), {summary['games']} games x {TURNS_PER_GAME} turns = "
          f"{summary['games'] * TURNS_PER_GAME} turns, --jobs {jobs} on {cores} core(s), "
          f"{seconds:.1f} s")
    for line in result_lines(summary):
        print(line)
    print(f"load average (1 min): {before:.2f} before, {after:.2f} after")
    return 0


def result_lines(summary: dict) -> list[str]:
    """Timeouts per bot (a timeout ends its game, so each is a game cut short), the answers
    given against those planned (two a turn), and the answers' latencies."""
    answers = sum(summary["answers"].values())
    planned = 2 * TURNS_PER_GAME * summary["games"]
    timeouts = {name: counts.get("timeout", 0) for name, counts in summary["faults"].items()}
    total = sum(timeouts.values())
    lines = [f"timeouts: {total} in {summary['games']} games ("
             + ", ".join(f"{name}: {count}" for name, count in timeouts.items())
             + f"); answers given: {answers} of {planned} planned"]
    for name, latency in summary["latency_ms"].items():
        lines.append(f"  {name}: latency p50 {latency['p50']:.1f}  p99 {latency['p99']:.1f}  "
                     f"max {latency['max']:.1f} ms")
    return lines


if __name__ == "__main__":
    sys.exit(main())
