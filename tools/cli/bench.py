"""``botarena bench NAME [ARGS]``: run one of the benchmarks (they print figures, assert nothing)."""
from __future__ import annotations

import argparse
import importlib
import sys

BENCHMARKS = {
    "harness": ("tools.bench.harness", "the harness's cost per turn against a raw pipe, floods, "
                                       "latency under load, soak, interruption"),
    "match": ("tools.bench.match", "games/s and memory per game of a real `botarena match` run "
                                   "(default: tictactoe random random -n 20000 --jobs 2)"),
    "escape": ("tools.bench.escape", "bot processes left after a game ends, SIGKILL, SIGHUP, "
                                     "SIGINT (escapes, a spinning bot)"),
    "spawn": ("tools.bench.spawn", "a bot's fixed cost per game: spawn paths, cgroup, --sandbox"),
    "buffering": ("tools.bench.buffering", "what line-buffered bot stdout (the default) costs per "
                                           "turn and per start, Python and C"),
    "bundle": ("tools.bench.bundle", "bundled against unbundled speed, start-up, sizes"),
    "cluster": ("tools.bench.cluster", "games/s on --cluster local:W against --jobs W (instant "
                                       "and ~1 s tictactoe games), latency the scheduler adds"),
    "ladder": ("tools.bench.ladder", "games the ladder's scheduling needs against a round robin: "
                                     "8 bots of measured strengths and a 9th mid-run"),
    "view": ("tools.bench.view", "replay viewer: a 150-turn xmas_rush page's size, open and step "
                                 "times in headless Chromium"),
    "jobs": ("tools.bench.jobs", "timeouts of busy 40-of-50 ms bots in simultaneous games with "
                                 "--jobs = cores, and the load average"),
    "host": ("tools.bench.host", "a CodinGame referee's CPU per game (its host = true JVMs or "
                                 "one JVM a game), the bots' and botarena's, games/s against "
                                 "the CPU bound (GAME.toml BOT BOT)"),
    "throughput": ("tools.bench.throughput", "xmas_rush games/s of instant bots against the bound "
                                             "of start-ups and pipe round trips; referee CPU per answer"),
}


def register(commands) -> None:
    parser = commands.add_parser(
        "bench", help="run a benchmark (prints figures)",
        description="Run a benchmark. " + "; ".join(f"{name}: {text}"
                                                    for name, (_, text) in BENCHMARKS.items()))
    parser.add_argument("name", choices=sorted(BENCHMARKS))
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the benchmark's own arguments")
    parser.set_defaults(func=run)


def run(args) -> int:
    module = importlib.import_module(BENCHMARKS[args.name][0])
    # a benchmark's own parser names itself after sys.argv[0]: its usage and errors then say
    # "botarena bench NAME", the command the user typed
    program, sys.argv[0] = sys.argv[0], f"botarena bench {args.name}"
    try:
        return int(module.main(args.args) or 0)
    finally:
        sys.argv[0] = program
