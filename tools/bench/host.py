"""CPU per game of a CodinGame referee: ``botarena bench host GAME.toml BOT_A BOT_B [-n 16]``.

Plays ``botarena match GAME.toml BOT_A BOT_B -n GAMES --jobs J`` in a child Python process,
through the CLI's own entry point, and splits the CPU it cost by who spent it:

  referee      every referee process (``channel.referee_cpu``: read from /proc as each ends).
               With ``host = true`` that is one JVM per job slot; its start-up (up to READY)
               is printed apart, once per host, and the per-game figure is the rest over the
               games. With a ``command`` it is one JVM a game, start-up included.
  bots         the children's CPU (every process this one reaped: bots and referees) less the
               referees'
  botarena     that process (the harness's threads, the protocol driver)

The bound is the games/s the machine would reach if that CPU were the only limit (the cores
over the CPU a game); actual / bound says how close the run came. The load average is printed
before and after (other work on the machine shows there). Figures only; nothing is asserted.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The child: the real command line, then what only it can tell (its referees' CPU from
# channel.referee_cpu, its own CPU after its imports, its reaped children's), written to the
# file named by argv[1].
_MEASURED_MATCH = (
    "import json, resource, sys\n"
    "from referee.external.channel import referee_cpu\n"
    "from tools.cli.main import main\n"
    "start = resource.getrusage(resource.RUSAGE_SELF)\n"
    "code = main(sys.argv[2:])\n"
    "own = resource.getrusage(resource.RUSAGE_SELF)\n"
    "children = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "figures = {**referee_cpu(), 'own_s': own.ru_utime + own.ru_stime - start.ru_utime - start.ru_stime,\n"
    "           'children_s': children.ru_utime + children.ru_stime}\n"
    "with open(sys.argv[1], 'w') as out:\n"
    "    json.dump(figures, out)\n"
    "sys.exit(code)\n")


def _load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="botarena bench host",
        description="CPU per game of a CodinGame referee (host = true or a command), of the bots "
                    "and of botarena, over a real match; games/s against the CPU bound")
    parser.add_argument("game", help="a game file (.toml) with protocol = \"codingame\"")
    parser.add_argument("bots", nargs=2, metavar="BOT", help="the two bots (as for match)")
    parser.add_argument("-n", "--games", type=int, default=16, help="games (default 16)")
    parser.add_argument("--jobs", "-j", type=int, default=2, help="games at once (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="the match's base seed (default 1)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    if not Path(args.game).is_file() or not args.game.endswith(".toml"):
        parser.error(f"{args.game}: not a game file (.toml)")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    load_before = _load()
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="bench-host-") as folder:
        out = Path(folder) / "games.jsonl"
        measured = Path(folder) / "figures.json"
        command = ["match", args.game, *args.bots, "-n", str(args.games), "--jobs", str(args.jobs),
                   "--seed", str(args.seed), "--out", str(out), "--quiet"]
        print("running: botarena " + " ".join(command), flush=True)
        wall = time.perf_counter()
        code = subprocess.run([sys.executable, "-c", _MEASURED_MATCH, str(measured), *command]).returncode
        wall = time.perf_counter() - wall
        games = sum(1 for _ in out.open()) if out.exists() else 0
        figures = json.loads(measured.read_text()) if measured.exists() else None
    if code != 0 or games == 0 or figures is None:
        print(f"botarena bench host: the match failed (exit {code}, {games} games)", file=sys.stderr)
        return 1
    own, children = figures["own_s"], figures["children_s"]
    processes = int(figures["processes"])
    referee, startup = figures["cpu_s"], figures["startup_cpu_s"]
    bots = children - referee
    total = children + own
    hosted = startup > 0
    print(f"load average before: {load_before}")
    print(f"{games} games in {wall:.2f} s: {games / wall:.2f} games/s (--jobs {args.jobs}, "
          f"{cores} cores)")
    if hosted:
        print(f"referee host: {processes} JVMs, start-up {1000 * startup / max(processes, 1):.0f} ms "
              f"CPU each (once per host); {1000 * (referee - startup) / games:.1f} ms CPU a game")
    else:
        print(f"referee: {processes} processes, {1000 * referee / games:.1f} ms CPU a game "
              "(start-up included)")
    print(f"bots: {1000 * bots / games:.1f} ms CPU a game (both); botarena: "
          f"{1000 * own / games:.1f} ms; total {1000 * total / games:.1f} ms CPU a game")
    bound = cores * games / total if total > 0 else float("inf")
    print(f"bound (the cores over the CPU a game): {bound:.2f} games/s; actual / bound "
          f"{games / wall / bound:.2f}")
    print(f"load average after: {_load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
