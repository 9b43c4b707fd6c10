"""A tic-tac-toe bot that leaves processes behind: ``escaper.py MODE TOKEN [DELAY_S]``, and the
command of one that does so the moment it starts (:func:`immediate_command`).

At its start the bot forks two escapees: one that ``setpgid``s away (it stays the bot's child
until the bot exits), and one from a ``setsid`` double fork whose middle child is reaped (it is
orphaned at once); both exec a sleeper with an empty environment that ignores SIGTERM, SIGHUP and
SIGINT and carries TOKEN on its command line. MODE ``play`` answers the first free cell after
DELAY_S seconds (default 0) and ignores end of input; ``spin`` burns 100 % CPU without ever
answering. Stdlib only, no project imports: it behaves like any user's program. ``botarena bench
escape`` and the tests share this one copy.
"""
from __future__ import annotations

import os
import shlex
import signal
import sys
import time

SLEEPER = ("import signal, time\nfor s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT): "
           "signal.signal(s, signal.SIG_IGN)\nwhile True: time.sleep(60)")
# A shell loop that ignores SIGTERM, SIGHUP and SIGINT; $1 is the token, for finding it.
SHELL_LOOP = "trap '' TERM HUP INT; while :; do sleep 1; done"
# A double fork (the subshell exits at once) of a setsid shell loop with an empty environment,
# then the bot itself: in a shell, so that it happens within a millisecond of the start.
IMMEDIATE = ('(setsid env -i /bin/sh -c "$1" escaper-loop "$2" </dev/null >/dev/null 2>&1 &); '
             'shift 2; exec "$@"')


def immediate_command(token: str, delay_s: float = 0.0) -> str:
    """A bot command (one string, as the CLI takes it) that double-forks a ``setsid`` shell loop
    with an empty environment at once, then runs this bot in ``play`` mode."""
    return shlex.join(["/bin/sh", "-c", IMMEDIATE, "escaper", SHELL_LOOP, token,
                       sys.executable, os.path.abspath(__file__), "play", token, str(delay_s)])


def _escape(kind: str, token: str) -> None:
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
    os.execve(sys.executable, [sys.executable, "-c", SLEEPER, token], {})


def main(argv: list[str]) -> None:
    mode, token = argv[1], argv[2]
    delay_s = float(argv[3]) if len(argv) > 3 else 0.0
    for kind in ("group", "daemon"):
        _escape(kind, token)
    for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(number, signal.SIG_IGN)
    while mode == "spin":
        pass
    while True:
        if not sys.stdin.readline():
            time.sleep(0.01)                        # ignores end of input too
            continue
        cells = [sys.stdin.readline().strip() for _ in range(int(sys.stdin.readline()))]
        time.sleep(delay_s)
        sys.stdout.write(cells[0] + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv)
