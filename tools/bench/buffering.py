"""What line buffering (the default: ``referee.harness.output_buffering``) costs a bot: ``botarena bench
buffering [--turns N] [--rounds R] [--starts S]``.

Per turn: the harness's round trip (``BotProcess.send`` + ``read_line``) to two bots of the same
program, one started line-buffered and one as it is, turn by turn alternately (both see the same
machine at the same moment), all on one CPU; medians per round. Compared: a Python echo that
flushes, a C echo that calls fflush (each with and without line buffering), and the bots that do
not flush at all (which only work line-buffered) against their flushing twins. Per start: the
time from spawn to the first answer, alternately with and without (LD_PRELOAD loads a library).
Figures are printed; nothing is asserted.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from referee.harness.output_buffering import LIBSTDBUF
from referee.harness.process import BotProcess

PY_FLUSH = ("import sys\nr, w, f = sys.stdin.readline, sys.stdout.write, sys.stdout.flush\n"
            "while True:\n l = r()\n if not l: break\n w(l); f()\n")
PY_PRINT = "import sys\nfor l in sys.stdin:\n print(l, end='')\n"
C_ECHO = r"""#include <stdio.h>
int main(void) {
    char line[256];
    while (fgets(line, sizeof line, stdin)) { fputs(line, stdout); %s }
    return 0;
}
"""


def _c_bots(folder: str) -> dict[str, list[str]] | None:
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        return None
    bots = {}
    for name, flush in (("c_fflush", "fflush(stdout);"), ("c_printf", "")):
        source = os.path.join(folder, f"{name}.c")
        with open(source, "w") as file:
            file.write(C_ECHO % flush)
        subprocess.run([compiler, "-O2", "-o", source[:-2], source], check=True)
        bots[name] = [source[:-2]]
    return bots


def paired_turns(first: tuple[list[str], bool], second: tuple[list[str], bool],
                 turns: int) -> tuple[float, float]:
    """Median microseconds per turn of two bots (argv, line_buffered), turn by turn alternately."""
    bots = [BotProcess(argv, name="echo", line_buffered=buffered, memory_mb=None)
            for argv, buffered in (first, second)]
    cpu = min(os.sched_getaffinity(0))
    before = os.sched_getaffinity(0)
    times: list[list[float]] = [[], []]
    clock = time.perf_counter
    try:
        os.sched_setaffinity(0, {cpu})
        for bot in bots:
            os.sched_setaffinity(bot.pid, {cpu})
            bot.read_line(bot.send(["-1 -1"], 10), 10)           # started and warm
        for _ in range(turns):
            for index, bot in enumerate(bots):
                started = clock()
                bot.read_line(bot.send(["-1 -1"], 1), 1)
                times[index].append(clock() - started)
    finally:
        os.sched_setaffinity(0, before)
        for bot in bots:
            bot.close()
    return statistics.median(times[0]) * 1e6, statistics.median(times[1]) * 1e6


def start_ms(argv: list[str], buffered: bool) -> float:
    started = time.perf_counter()
    bot = BotProcess(argv, name="start", line_buffered=buffered, memory_mb=None)
    try:
        bot.read_line(bot.send(["-1 -1"], 10), 10)
        return (time.perf_counter() - started) * 1000
    finally:
        bot.close()


def comparisons(c_bots: dict[str, list[str]] | None) -> list[tuple[str, tuple, tuple]]:
    python = [sys.executable, "-c"]
    rows = [("python write+flush: line-buffered vs as it is",
             (python + [PY_FLUSH], True), (python + [PY_FLUSH], False)),
            ("python print, no flush (line-buffered) vs write+flush (as it is)",
             (python + [PY_PRINT], True), (python + [PY_FLUSH], False))]
    if c_bots is not None:
        rows += [("C fflush: line-buffered (LD_PRELOAD) vs as it is",
                  (c_bots["c_fflush"], True), (c_bots["c_fflush"], False)),
                 ("C printf, no fflush (line-buffered) vs fflush (as it is)",
                  (c_bots["c_printf"], True), (c_bots["c_fflush"], False))]
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="botarena bench buffering", description=__doc__)
    parser.add_argument("--turns", type=int, default=3000, help="turns per bot per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--starts", type=int, default=20, help="starts per setting")
    args = parser.parse_args(argv)
    print(f"line buffering: {args.turns} turns x {args.rounds} rounds per comparison, one CPU "
          f"(load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores); "
          f"libstdbuf: {LIBSTDBUF or 'not found (C bots are not line-buffered here)'}")
    with tempfile.TemporaryDirectory(prefix="botarena-bench-") as folder:
        c_bots = _c_bots(folder)
        if c_bots is None:
            print("  C bots skipped: no C compiler (cc, gcc or clang)")
        print(f"  {'comparison':<66} {'first us':>9} {'second us':>10} {'diff us':>8}")
        for label, first, second in comparisons(c_bots):
            pairs = [paired_turns(first, second, args.turns) for _ in range(args.rounds)]
            one, two = (statistics.median(values) for values in zip(*pairs))
            print(f"  {label:<66} {one:>9.1f} {two:>10.1f} {one - two:>+8.1f}")
        print(f"  start to first answer, median of {args.starts} (line-buffered vs as it is):")
        bots = {"python": [sys.executable, "-c", PY_FLUSH], **(c_bots or {})}
        for name in ("python", "c_fflush"):
            if name not in bots:
                continue
            times: dict[bool, list[float]] = {True: [], False: []}
            for _ in range(args.starts):
                for buffered in (True, False):
                    times[buffered].append(start_ms(bots[name], buffered))
            on, off = statistics.median(times[True]), statistics.median(times[False])
            print(f"    {name:<10} {on:>7.2f} ms vs {off:>7.2f} ms ({on - off:+.2f} ms)")
    print(f"  load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
