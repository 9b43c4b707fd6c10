"""Processes left behind: ``botarena bench escape [--sandbox]``.

Runs ``botarena play tictactoe`` with bots that each start two escapees (one that ``setpgid``s
away, one from a ``setsid`` double fork whose middle child is reaped, both exec'ing a sleeper with
an empty environment, ignoring SIGTERM, SIGHUP and SIGINT), ends it each way below, waits one
second, and counts the bot processes still alive anywhere (target 0). The spinning bot ignores end
of input and burns 100 % CPU without answering. Leftovers are killed after counting.
  end       the game ends normally
  SIGKILL   botarena is SIGKILLed mid-game (a bot spinning at its first turn)
  SIGHUP    the terminal closes (SIGHUP to botarena)
  SIGINT    Ctrl-C to a botarena started with SIGINT ignored (a background job of a script)
"""
from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid

import psutil

BOT = r'''
import os, signal, sys, time
MODE, TOKEN = sys.argv[1], sys.argv[2]
SLEEPER = ("import signal, time\nfor s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT): "
           "signal.signal(s, signal.SIG_IGN)\nwhile True: time.sleep(60)")
def escape(kind):
    child = os.fork()
    if child:
        if kind == "daemon":
            os.waitpid(child, 0)
        return
    if kind == "group":
        os.setpgid(0, 0)
    else:
        os.setsid()
        if os.fork():
            os._exit(0)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.execve(sys.executable, [sys.executable, "-c", SLEEPER, TOKEN], {})
for kind in ("group", "daemon"):
    escape(kind)
for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
    signal.signal(number, signal.SIG_IGN)
while MODE == "spin":
    pass
while True:
    if not sys.stdin.readline():
        continue                                    # ignores end of input too
    cells = [sys.stdin.readline().strip() for _ in range(int(sys.stdin.readline()))]
    time.sleep(0.2)                                 # a game long enough to be seen
    sys.stdout.write(cells[0] + "\n"); sys.stdout.flush()
'''


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


def left_after(way: str, bot_file: str, sandboxed: bool) -> tuple[int, int]:
    """(bot processes seen before, processes left one second after) for one way of ending."""
    token = f"escape-bench-{uuid.uuid4().hex[:10]}"
    second = "spin" if way != "end" else "play"
    command = [sys.executable, "-m", "tools.cli", "play", "tictactoe",
               f"{sys.executable} {bot_file} play {token}",
               f"{sys.executable} {bot_file} {second} {token}", "--first-turn-ms", "60000",
               "--turn-ms", "2000", "--seed", "1"] + (["--sandbox"] if sandboxed else [])
    cli = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           preexec_fn=_ignore_sigint if way == "SIGINT" else None)
    try:
        _wait_for(lambda: len(_alive(token)) >= 6 or cli.poll() is not None, 60)
        seen = len(_alive(token))
        if way == "end":
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
    parser.add_argument("--ways", default="end,SIGKILL,SIGHUP,SIGINT",
                        help="comma-separated subset of end,SIGKILL,SIGHUP,SIGINT")
    args = parser.parse_args(argv)
    modes = [False] + ([True] if args.sandbox else [])
    with tempfile.TemporaryDirectory() as folder:
        bot_file = os.path.join(folder, "escaping_bot.py")
        with open(bot_file, "w") as handle:
            handle.write(BOT)
        print(f"bot processes left 1 s after the game ends or botarena dies (target 0; "
              f"load average {os.getloadavg()[0]:.2f}):")
        for sandboxed in modes:
            for way in args.ways.split(","):
                seen, left = left_after(way, bot_file, sandboxed)
                label = f"{way}{' --sandbox' if sandboxed else ''}"
                print(f"  {label:<18} {left} left of {seen} seen")


if __name__ == "__main__":
    main()
