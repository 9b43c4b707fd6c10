"""Benchmark of a bot's fixed cost per game: ``botarena bench spawn [--rounds N]``.

Spawn paths, with ``cat`` as the bot (an instant echo that starts in well under a millisecond),
timed from the call to the first echoed line:
  vfork      subprocess as the harness starts a bot (process_group=0, close_fds: vfork/exec)
  preexec    the same plus a preexec_fn setting PR_SET_PDEATHSIG (subprocess must fork instead)
  setpriv    the same through the exec shim ``setpriv --pdeathsig KILL`` (one more exec)
Then a whole BotProcess (start, first answer, close: what each bot of each game costs), with
its cgroup (cgroup.kill) and without one (the /proc search), and sandboxed under bwrap: the
start-up cost --sandbox adds per bot. Rounds alternate the variants so they see the same machine.
Figures are printed, nothing is asserted.
"""
from __future__ import annotations

import argparse
import ctypes
import os
import shutil
import statistics
import subprocess
import time
from typing import Callable

from referee.harness import cgroup, process
from referee.harness.process import BotProcess
from referee.harness.sandbox import bwrap_program

_PR_SET_PDEATHSIG = 1
_clock = time.perf_counter


def _set_pdeathsig() -> None:
    ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, 9, 0, 0, 0)


def _echo_once(argv: list[str], preexec: Callable[[], None] | None = None) -> float:
    """Seconds from the spawn call to the first echoed line, then the child is ended."""
    started = _clock()
    child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, bufsize=0, process_group=0, close_fds=True,
                             preexec_fn=preexec)
    os.write(child.stdin.fileno(), b"1\n")
    os.read(child.stdout.fileno(), 64)
    took = _clock() - started
    child.stdin.close()
    child.stdout.close()
    child.wait()
    return took


def _bot_once(sandboxed: bool = False) -> tuple[float, float, float]:
    """(start, first answer, close) seconds of one BotProcess running ``cat``."""
    started = _clock()
    bot = BotProcess(["cat"], memory_mb=process.DEFAULT_MEMORY_MB, sandboxed=sandboxed)
    up = _clock()
    bot.read_line(bot.send(["1"], 10), 10)
    answered = _clock()
    bot.close()
    return up - started, answered - up, _clock() - answered


def _without_cgroups(call: Callable[[], tuple]) -> tuple:
    original = cgroup.bot_cgroup
    cgroup.bot_cgroup = lambda pid, marker=b"": None
    try:
        return call()
    finally:
        cgroup.bot_cgroup = original


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:7.2f} ms"


def run(rounds: int) -> None:
    cat = [shutil.which("cat") or "/bin/cat"]
    setpriv = shutil.which("setpriv")
    bwrap = bwrap_program()
    spawns: dict[str, list[float]] = {"vfork": [], "preexec": [], "setpriv": []}
    bots: dict[str, list[tuple[float, float, float]]] = {"cgroup": [], "no cgroup": [],
                                                         "sandboxed": []}
    using_cgroups = cgroup.run_folder() is not None
    _bot_once()                                     # set-up once: guardian, cgroup folder
    for _ in range(rounds):
        spawns["vfork"].append(_echo_once(cat))
        spawns["preexec"].append(_echo_once(cat, _set_pdeathsig))
        if setpriv:
            spawns["setpriv"].append(_echo_once([setpriv, "--pdeathsig", "KILL", "--", *cat]))
        if using_cgroups:
            bots["cgroup"].append(_bot_once())
        bots["no cgroup"].append(_without_cgroups(_bot_once))
        if bwrap:
            bots["sandboxed"].append(_bot_once(sandboxed=True))
    resident_mb = int(open("/proc/self/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE") >> 20
    print(f"spawn to first echo of `cat`, median of {rounds} (harness resident {resident_mb} MB; "
          f"load average {os.getloadavg()[0]:.2f}):")
    for name, values in spawns.items():
        if values:
            print(f"  {name:<8} {_ms(values)}")
        else:
            print(f"  {name:<8} skipped: not installed")
    print("one bot per game, BotProcess start / first answer / close (total):")
    for name, values in bots.items():
        if not values:
            print(f"  {name:<10} skipped: " + ("no bwrap (apt-get install bubblewrap)"
                                               if name == "sandboxed" else "no cgroup v2 here"))
            continue
        columns = list(zip(*values))
        total = [sum(parts) for parts in values]
        print(f"  {name:<10} {_ms(columns[0])} / {_ms(columns[1])} / {_ms(columns[2])}  "
              f"({_ms(total)})")
    baseline = bots["cgroup"] or bots["no cgroup"]
    if bots["sandboxed"]:
        plain = statistics.median(sum(parts) for parts in baseline)
        boxed = statistics.median(sum(parts) for parts in bots["sandboxed"])
        print(f"--sandbox adds {(boxed - plain) * 1000:.2f} ms per bot (start-up and teardown)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="botarena bench spawn",
                                     description="a bot's fixed cost per game: spawn paths, "
                                                 "cgroup, sandbox")
    parser.add_argument("--rounds", type=int, default=200, help="spawns per variant (default 200)")
    args = parser.parse_args(argv)
    run(max(1, args.rounds))


if __name__ == "__main__":
    main()
