"""What a Dask cluster costs per game: ``botarena bench cluster [--games N] [--workers W]``.

The same tictactoe match of random bots is played on ``--jobs W`` threads here and on a
``--cluster local:W`` (W worker processes of one thread), each executor opened before the clock
starts (a cluster's start-up is paid once per run, not per game):

  instant games   the random bots answer at once: the floor, where overhead is all there is
  ~1 s games      the same bots through a wrapper that waits --move-ms before each answer, so a
                  game lasts about a second (the issue's target: cluster >= 0.8 x local)
  latency         one game at a time, submitted, played and handed back: the median of
                  (round trip - the game's own wall time), locally and on the cluster; the
                  difference is what the scheduler adds to each game

Figures are printed with the load average; nothing is asserted. Needs distributed.
"""
from __future__ import annotations

import argparse
import contextlib
import dataclasses
import itertools
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from referee.api import TimeControl
from referee.games import load_game
from referee.match import MatchResult
from tools.arena.arena import Arena
from tools.arena.botspec import resolve_bot
from tools.arena.executor import GameExecutor, open_executor
from tools.arena.runner import paired_jobs, run_jobs
from tools.arena.schedule import GameJob
from tools.arena.settings import BotLimits

# random answers after a fixed wait: a game of ~9 moves lasts about 9 x --move-ms
DELAYED_BOT = """import random, sys, time
delay, rng = float(sys.argv[1]) / 1000, random.Random(int(sys.argv[2]))
while True:
    sys.stdin.readline()
    cells = [sys.stdin.readline().strip() for _ in range(int(sys.stdin.readline()))]
    time.sleep(delay)
    print(rng.choice(cells), flush=True)
"""
CALM = TimeControl(first_turn_ms=30000, turn_ms=30000)


def _arena(texts: dict[str, str], workdir: str) -> Arena:
    game = load_game("tictactoe")
    players = {name: dataclasses.replace(resolve_bot("tictactoe", text, workdir=workdir), name=name)
               for name, text in texts.items()}
    return Arena(game, game.parse_options({}), CALM, BotLimits(memory_mb=None), players)


def _games_per_second(executor: GameExecutor, games: int) -> float:
    started = time.perf_counter()
    outcome = run_jobs(executor, paired_jobs("a", "b", games // 2, base_seed=1),
                       on_result=lambda job, result: False)
    return outcome.played / (time.perf_counter() - started)


def _added_latency_ms(executor: GameExecutor, games: int) -> float:
    """Median of (submit to hand-back) - (the game's own wall time), one game at a time."""
    added = []
    for job in itertools.islice(paired_jobs("a", "b", games, base_seed=2), games):
        started = time.perf_counter()
        executor.submit(job)
        results: list[tuple[GameJob, MatchResult]] = []
        while not results:
            results = executor.finished(timeout=0.001)
        added.append((time.perf_counter() - started - results[0][1].wall_s) * 1000)
    return statistics.median(added)


def _measure(arena: Arena, texts: dict[str, str], workdir: str, workers: int, games: int,
             latency_games: int) -> dict[str, dict[str, float]]:
    figures: dict[str, dict[str, float]] = {}
    for where, options in (("local", {"jobs": workers}),
                           ("cluster", {"cluster": f"local:{workers}", "bot_texts": texts,
                                        "workdir": workdir})):
        with contextlib.closing(open_executor(arena, **options)) as executor:
            _games_per_second(executor, 2 * workers)            # warm: imports, page cache
            figures[where] = {"rate": _games_per_second(executor, games),
                              "latency": _added_latency_ms(executor, latency_games)}
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="botarena bench cluster", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="instant games (default: 200)")
    parser.add_argument("--slow-games", type=int, default=40, help="~1 s games (default: 40)")
    parser.add_argument("--move-ms", type=float, default=120, help="wait before each answer "
                        "in the ~1 s games (default: 120)")
    parser.add_argument("--workers", type=int, default=2, help="local:W against --jobs W (default: 2)")
    parser.add_argument("--latency-games", type=int, default=20,
                        help="games played one at a time for the latency (default: 20)")
    options = parser.parse_args(argv)
    try:
        import distributed  # noqa: F401
    except ImportError:
        print("bench cluster needs distributed: pip install 'botarena[cluster]'", file=sys.stderr)
        return 2
    print(f"cluster bench: tictactoe random bots, --cluster local:{options.workers} against "
          f"--jobs {options.workers} (load average {os.getloadavg()[0]:.2f} on "
          f"{os.cpu_count()} cores)", flush=True)
    with tempfile.TemporaryDirectory(prefix="botarena-bench-") as folder:
        Path(folder, "delayed.py").write_text(DELAYED_BOT)
        runs = (("instant games", {"a": "random --seed 1", "b": "random --seed 2"}, options.games),
                (f"~1 s games ({options.move_ms:g} ms a move)",
                 {"a": f"delayed.py {options.move_ms} 1", "b": f"delayed.py {options.move_ms} 2"},
                 options.slow_games))
        for title, texts, games in runs:
            arena = _arena(texts, folder)
            figures = _measure(arena, texts, folder, options.workers, games, options.latency_games)
            local, cluster = figures["local"], figures["cluster"]
            print(f"{title}: {games} games  local {local['rate']:.2f} games/s  cluster "
                  f"{cluster['rate']:.2f} games/s  ratio cluster/local "
                  f"{cluster['rate'] / local['rate']:.2f}", flush=True)
            print(f"  latency per game, one at a time (median of {options.latency_games}): "
                  f"local {local['latency']:.1f} ms  cluster {cluster['latency']:.1f} ms  "
                  f"added by the scheduler {cluster['latency'] - local['latency']:.1f} ms",
                  flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
