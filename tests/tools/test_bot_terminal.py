"""A bot has no terminal (issue 23): started from a shell at a terminal, botarena's bots share no
session with it, so a bot can neither write over botarena's output through ``/dev/tty`` nor push
keystrokes into the terminal's input (TIOCSTI), which the user's shell would run once botarena
exits. Each try must fail, and nothing of it reach the terminal."""
from __future__ import annotations

import sys

from tests.fixtures.terminal import run_in_terminal

# A tic-tac-toe bot that, at its start, writes TOKEN to /dev/tty and pushes it into the terminal's
# input queue through /dev/tty and through each of its own descriptors, and writes what happened
# to REPORT; then plays the first free cell.
BOT = r'''
import fcntl, os, sys, termios
report, token = sys.argv[1], sys.argv[2]
lines = []
try:
    tty = os.open("/dev/tty", os.O_RDWR)
except OSError as error:
    lines.append("open /dev/tty: " + error.strerror)
    tty = None
else:
    lines.append("open /dev/tty: opened")
    os.write(tty, ("\r\n" + token + " written\r\n").encode())
for fd, name in ((tty, "/dev/tty"), (0, "stdin"), (1, "stdout"), (2, "stderr")):
    if fd is None:
        continue
    try:
        for byte in (token + " pushed\n").encode():
            fcntl.ioctl(fd, termios.TIOCSTI, bytes([byte]))
        lines.append("TIOCSTI %s: pushed" % name)
    except OSError as error:
        lines.append("TIOCSTI %s: %s" % (name, error.strerror))
with open(report, "w") as handle:
    handle.write("\n".join(lines) + "\n")
while True:
    if not sys.stdin.readline():
        break
    cells = [sys.stdin.readline().strip() for _ in range(int(sys.stdin.readline()))]
    sys.stdout.write(cells[0] + "\n")
    sys.stdout.flush()
'''


def test_a_bot_cannot_reach_the_terminal_botarena_runs_in(tmp_path):
    bot, report, token = tmp_path / "bot.py", tmp_path / "report.txt", "BOT-AT-THE-TERMINAL"
    bot.write_text(BOT)
    run = run_in_terminal("play", "tictactoe", f"{sys.executable} {bot} {report} {token}",
                          "random --seed 2", "--seed", "1", "--first-turn-ms", "30000",
                          controlling=True)
    assert run.returncode == 0, run.output
    tried = report.read_text().splitlines()
    assert tried[0] == "open /dev/tty: No such device or address", tried
    assert [line for line in tried if line.endswith(": pushed")] == [], tried
    assert f"{token} written" not in run.output and f"{token} pushed" not in run.output, \
        run.output
