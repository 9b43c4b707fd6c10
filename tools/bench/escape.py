"""Processes left behind: ``botarena bench escape [--sandbox]``.

Runs ``botarena play tictactoe`` with bots that each start two escapees (one that ``setpgid``s
away, one from a ``setsid`` double fork whose middle child is reaped, both exec'ing a sleeper with
an empty environment, ignoring SIGTERM, SIGHUP and SIGINT: ``tools/bench/escaper.py``), ends it
each way below, waits one second, and counts the bot processes still alive anywhere (target 0).
The spinning bot ignores end of input and burns 100 % CPU without answering. Leftovers are killed
after counting.
  end        the game ends normally
  immediate  the same, the first bot a shell that double-forks a setsid shell loop with an empty
             environment within a millisecond of its start, before it runs the bot
  SIGKILL    botarena is SIGKILLed mid-game (a bot spinning at its first turn)
  SIGHUP     the terminal closes (SIGHUP to botarena)
  SIGINT     Ctrl-C to a botarena started with SIGINT ignored (a background job of a script)
"""
from __future__ import annotations

import argparse
import os
import shlex
import signal
import subprocess
import sys
import time
import uuid

import psutil

from tools.bench import escaper

ESCAPER = shlex.join([sys.executable, os.path.abspath(escaper.__file__)])
WAYS = ("end", "immediate", "SIGKILL", "SIGHUP", "SIGINT")

def _alive(token: str) -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter(["cmdline"]):
        try:
            if token in (process.info["cmdline"] or []) and \
                    process.status() != psutil.STATUS_ZOMBIE:
                found.append(process)
        except psutil.Error:
            continue
    return found


def _wait_for(condition, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def left_after(way: str, sandboxed: bool) -> tuple[int, int]:
    """(bot processes seen before, processes left one second after) for one way of ending."""
    token = f"escape-bench-{uuid.uuid4().hex[:10]}"
    first = (escaper.immediate_command(token, 0.2) if way == "immediate"
             else f"{ESCAPER} play {token} 0.2")
    second = f"{ESCAPER} {'play' if way in ('end', 'immediate') else 'spin'} {token} 0.2"
    command = [sys.executable, "-m", "tools.cli", "play", "tictactoe", first, second,
               "--first-turn-ms", "60000", "--turn-ms", "2000", "--seed", "1"] + \
        (["--sandbox"] if sandboxed else [])
    cli = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           preexec_fn=_ignore_sigint if way == "SIGINT" else None)
    try:
        _wait_for(lambda: len(_alive(token)) >= 6 or cli.poll() is not None, 60)
        seen = len(_alive(token))
        if way in ("end", "immediate"):
            cli.wait(timeout=120)
        else:
            cli.send_signal({"SIGKILL": signal.SIGKILL, "SIGHUP": signal.SIGHUP,
                             "SIGINT": signal.SIGINT}[way])
            cli.wait(timeout=60)
        time.sleep(1.0)
        left = _alive(token)
        return seen, len(left)
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.wait()
        for process in _alive(token):
            try:
                process.kill()
            except psutil.Error:
                pass


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="botarena bench escape",
                                     description="bot processes left after each way a game ends")
    parser.add_argument("--sandbox", action="store_true", help="also with --sandbox (needs bwrap)")
    parser.add_argument("--ways", default=",".join(WAYS),
                        help=f"comma-separated subset of {','.join(WAYS)}")
    args = parser.parse_args(argv)
    ways = args.ways.split(",")
    unknown = [way for way in ways if way not in WAYS]
    if unknown:
        parser.error(f"unknown way {unknown[0]!r}: choose among {','.join(WAYS)}")
    modes = [False] + ([True] if args.sandbox else [])
    print(f"bot processes left 1 s after the game ends or botarena dies (target 0; "
          f"load average {os.getloadavg()[0]:.2f}):")
    for sandboxed in modes:
        for way in ways:
            seen, left = left_after(way, sandboxed)
            label = f"{way}{' --sandbox' if sandboxed else ''}"
            print(f"  {label:<20} {left} left of {seen} seen")


if __name__ == "__main__":
    main()
