"""Benchmark of a bot's fixed cost per game: ``botarena bench spawn [--rounds N]``.

Spawn paths, with ``cat`` as the bot (an instant echo that starts in well under a millisecond),
timed from the call to the first echoed line:
  vfork      subprocess as the harness starts a bot with no cgroup (a session of its own,
             close_fds: vfork/exec)
  shim       the same through the shell that enters a cgroup and execs the bot (one more exec,
             and the move), right after another move
  preexec    the same as vfork plus a preexec_fn setting PR_SET_PDEATHSIG (subprocess must fork)
  setpriv    the same through the exec shim ``setpriv --pdeathsig KILL`` (one more exec)
Then a whole BotProcess (start, first answer, close: what each bot of each game costs): made
inside its cgroup by clone3(CLONE_INTO_CGROUP) (``referee.harness.cgroup_starter``, with
BOTARENA_CLONE_INTO_CGROUP=1), started through the shell that enters its cgroup (the default),
moved in by a
thread after it started (the older way, which left a window), without a cgroup (the /proc
search), and sandboxed under bwrap (what --sandbox adds). Rounds alternate the variants so they
see the same machine.

Last, the kernel's price for a move into a cgroup: it waits for an RCU grace period unless
another move happened a moment before (or the cgroup2 mount has ``favordynmods``, printed). A
move of a sleeping process is timed after quiet spells of several lengths, and a game's start
(its two bots started together, the time until both answered) after a quiet spell as long as a
short game, made inside by clone3 and through the shell, against the older way: the cost a game
pays. Figures are printed, nothing is asserted.
"""
from __future__ import annotations

import argparse
import ctypes
import os
import shutil
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from referee.harness import cgroup, cgroup_starter, process, spawn
from referee.harness.process import BotProcess
from referee.harness.sandbox import bwrap_program
from tools.bench.pipes import pipes_of

_PR_SET_PDEATHSIG = 1
_QUIET_SPELLS_MS = (0, 2, 10, 50, 200)
_GAME_MS = 50                       # a short game (tic-tac-toe between quick bots): the quiet spell
_clock = time.perf_counter
_T = TypeVar("_T")


def _set_pdeathsig() -> None:
    ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, 9, 0, 0, 0)


def _echo_once(argv: list[str], preexec: Callable[[], None] | None = None) -> float:
    """Seconds from the spawn call to the first echoed line, then the child is ended."""
    started = _clock()
    child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, bufsize=0, start_new_session=True,
                             close_fds=True, preexec_fn=preexec)
    stdin, stdout = pipes_of(child)
    os.write(stdin.fileno(), b"1\n")
    os.read(stdout.fileno(), 64)
    took = _clock() - started
    stdin.close()
    stdout.close()
    child.wait()
    return took


def _shim_once(cat: list[str]) -> float:
    """_echo_once through the shell that enters a new cgroup (after a move, as in a game's
    second bot: no grace period to wait for)."""
    group = cgroup.new_bot_cgroup()
    if group is None:
        return float("nan")
    warm = cgroup.new_bot_cgroup()
    try:
        _move_once(warm)
        return _echo_once(spawn.entering_argv(group.procs, dict(os.environ), cat))
    finally:
        for made in (group, warm):
            if made is not None:
                made.remove()


def _move_once(group: cgroup.BotCgroup | None) -> None:
    """One move (a sleeping child into ``group``), so that the next one has no grace period to
    wait for."""
    if group is None:
        return
    sleeper = subprocess.Popen(["sleep", "5"])
    try:
        with open(group.procs, "w") as handle:
            handle.write(str(sleeper.pid))
    finally:
        sleeper.kill()
        sleeper.wait()


def _bot_once(sandboxed: bool = False) -> tuple[float, float, float]:
    """(start, first answer, close) seconds of one BotProcess running ``cat``."""
    started = _clock()
    bot = BotProcess(["cat"], memory_mb=process.DEFAULT_MEMORY_MB, sandboxed=sandboxed)
    up = _clock()
    bot.read_line(bot.send(["1"], 10), 10)
    answered = _clock()
    bot.close()
    return up - started, answered - up, _clock() - answered


def _game_start_once() -> float:
    """Seconds from starting a game's two bots (``cat``) to both first answers."""
    started = _clock()
    bots = [BotProcess(["cat"], memory_mb=process.DEFAULT_MEMORY_MB) for _ in range(2)]
    for bot in bots:
        bot.read_line(bot.send(["1"], 10), 10)
    took = _clock() - started
    for bot in bots:
        bot.close()
    return took


def _the_older_way(call: Callable[[], _T]) -> _T:
    """``call`` with bots moved into their cgroup by a thread after they started."""
    process._ENTER_AT_START = False
    try:
        return call()
    finally:
        process._ENTER_AT_START = True


def _through_the_shell(call: Callable[[], _T]) -> _T:
    """``call`` with bots started through the shell that enters their cgroup (no clone3)."""
    return _with_clone3(False, call)


def _made_inside(call: Callable[[], _T]) -> _T:
    """``call`` with bots made inside their cgroup by clone3 (BOTARENA_CLONE_INTO_CGROUP=1)."""
    return _with_clone3(True, call)


def _with_clone3(on: bool, call: Callable[[], _T]) -> _T:
    before, spawn.use_clone_into_cgroup = spawn.use_clone_into_cgroup, on
    try:
        return call()
    finally:
        spawn.use_clone_into_cgroup = before


def _without_cgroups(call: Callable[[], _T]) -> _T:
    original = cgroup.new_bot_cgroup
    cgroup.new_bot_cgroup = lambda: None
    try:
        return call()
    finally:
        cgroup.new_bot_cgroup = original


def _move_after(quiet_s: float, sleeper: subprocess.Popen, groups: list[cgroup.BotCgroup],
                turn: int) -> float:
    """Seconds one move of ``sleeper`` takes after ``quiet_s`` without any."""
    time.sleep(quiet_s)
    started = _clock()
    with open(groups[turn % 2].procs, "w") as handle:
        handle.write(str(sleeper.pid))
    return _clock() - started


def _ms(values: Sequence[float]) -> str:
    return f"{statistics.median(values) * 1000:7.2f} ms"


def _print_moves(rounds: int) -> None:
    first, second = cgroup.new_bot_cgroup(), cgroup.new_bot_cgroup()
    if first is None or second is None:
        print("a move into a cgroup: skipped: no cgroup v2 here")
        return
    groups = [first, second]
    sleeper = subprocess.Popen(["sleep", "600"])
    try:
        moves: dict[int, list[float]] = {spell: [] for spell in _QUIET_SPELLS_MS}
        for turn in range(max(3, rounds // 10)):
            for spell in _QUIET_SPELLS_MS:
                moves[spell].append(_move_after(spell / 1000, sleeper, groups, turn))
        print("a move into a cgroup after a quiet spell (the kernel's RCU grace period), median "
              f"of {len(moves[0])}:")
        print("  " + "  ".join(f"{spell} ms: {_ms(values).strip()}"
                               for spell, values in moves.items()))
    finally:
        sleeper.kill()
        sleeper.wait()
        for group in groups:
            group.remove()


def _print_game_cost(rounds: int) -> None:
    starts: dict[str, list[float]] = {"clone3": [], "shell": [], "moved": []}
    for _ in range(max(3, rounds // 10)):
        time.sleep(_GAME_MS / 1000)
        starts["clone3"].append(_made_inside(_game_start_once))
        time.sleep(_GAME_MS / 1000)
        starts["shell"].append(_through_the_shell(_game_start_once))
        time.sleep(_GAME_MS / 1000)
        starts["moved"].append(_the_older_way(_game_start_once))
    clone3, shell, moved = (statistics.median(starts[name]) for name in ("clone3", "shell", "moved"))
    print(f"a game's start after {_GAME_MS} ms without a move (every game of a match: games last "
          "longer than a grace period), two bots to both first answers:")
    print(f"  made inside their cgroup (clone3) {clone3 * 1000:.2f} ms, through the shell "
          f"{shell * 1000:.2f} ms, moved after they started {moved * 1000:.2f} ms")
    print(f"  the game pays {(clone3 - moved) * 1000:+.2f} ms made inside, "
          f"{(shell - moved) * 1000:+.2f} ms through the shell (its bots share one grace period)")


def run(rounds: int) -> None:
    cat = [shutil.which("cat") or "/bin/cat"]
    setpriv = shutil.which("setpriv")
    bwrap = bwrap_program()
    spawns: dict[str, list[float]] = {"vfork": [], "shim": [], "preexec": [], "setpriv": []}
    bots: dict[str, list[tuple[float, float, float]]] = {
        "cgroup": [], "shell": [], "moved": [], "no cgroup": [], "sandboxed": []}
    using_cgroups = cgroup.run_folder() is not None
    _bot_once()                                     # set-up once: guardian, cgroup folder
    for _ in range(rounds):
        spawns["vfork"].append(_echo_once(cat))
        if using_cgroups:
            spawns["shim"].append(_shim_once(cat))
        spawns["preexec"].append(_echo_once(cat, _set_pdeathsig))
        if setpriv:
            spawns["setpriv"].append(_echo_once([setpriv, "--pdeathsig", "KILL", "--", *cat]))
        if using_cgroups:
            bots["cgroup"].append(_made_inside(_bot_once))
            bots["shell"].append(_through_the_shell(_bot_once))
            bots["moved"].append(_the_older_way(_bot_once))
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
            print(f"  {name:<8} skipped: " + ("no cgroup v2 here" if name == "shim"
                                              else "not installed"))
    made_by = "clone3(CLONE_INTO_CGROUP)" if cgroup_starter.available() else \
        "the shell (clone3 cannot be used here)"
    print("one bot per game, BotProcess start / first answer / close (total); in its cgroup: "
          f"made inside by {made_by}, through the shell that enters it, moved in after its start:")
    labels = {"cgroup": "clone3", "shell": "shell", "moved": "moved in",
              "no cgroup": "no cgroup", "sandboxed": "sandboxed"}
    for name, rows in bots.items():
        if not rows:
            print(f"  {labels[name]:<10} skipped: " + ("no bwrap (apt-get install bubblewrap)"
                                                       if name == "sandboxed"
                                                       else "no cgroup v2 here"))
            continue
        columns = list(zip(*rows))
        total = [sum(parts) for parts in rows]
        print(f"  {labels[name]:<10} {_ms(columns[0])} / {_ms(columns[1])} / {_ms(columns[2])}  "
              f"({_ms(total)})")
    baseline = bots["cgroup"] or bots["no cgroup"]
    if bots["sandboxed"]:
        plain = statistics.median(sum(parts) for parts in baseline)
        boxed = statistics.median(sum(parts) for parts in bots["sandboxed"])
        print(f"--sandbox adds {(boxed - plain) * 1000:.2f} ms per bot (start-up and teardown)")
    if using_cgroups:
        dynamic = cgroup.favors_dynamic_moves()
        print("the cgroup2 mount " + ("has favordynmods: moves wait for no grace period" if dynamic
                                      else "has no favordynmods (mount -o remount,favordynmods "
                                           "turns it on): moves after a quiet spell wait"))
        _print_moves(rounds)
        _print_game_cost(rounds)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="botarena bench spawn",
                                     description="a bot's fixed cost per game: spawn paths, "
                                                 "cgroup, sandbox")
    parser.add_argument("--rounds", type=int, default=200, help="spawns per variant (default 200)")
    args = parser.parse_args(argv)
    run(max(1, args.rounds))


if __name__ == "__main__":
    main()
