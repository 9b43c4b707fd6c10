"""Run ``botarena`` in a pseudo-terminal, as a user at a real terminal does.

Piped runs (``tests.conftest.run_cli``) never see what only happens on a terminal: a progress
bar drawn, ``isatty()`` branches. :func:`run_in_terminal` gives the command a pty for stdin,
stdout and stderr (80x24 unless told), without ``PYTHONUNBUFFERED`` (a terminal user rarely
sets it), and returns everything it wrote, both streams interleaved as on the screen.
"""
from __future__ import annotations

import errno
import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class TerminalRun:
    returncode: int
    output: str          # stdout and stderr as the terminal got them (\r\n line ends, \r redraws)

    @property
    def lines(self) -> list[str]:
        """The output's lines as they stay on the screen: the last redraw of each."""
        return [line.rsplit("\r", 1)[-1] for line in self.output.replace("\r\n", "\n").split("\n")]


def run_in_terminal(*args: str, timeout: float = 120, columns: int = 100, rows: int = 24,
                    env: dict[str, str] | None = None, cwd: Path = ROOT,
                    typed: str = "") -> TerminalRun:
    """Run ``botarena ARGS`` with a pseudo-terminal as its stdin, stdout and stderr; ``typed`` is
    keyed in at once (the terminal holds it until the command reads, as when typing ahead)."""
    command = [sys.executable, "-m", "tools.cli", *args]
    environment = {key: value for key, value in os.environ.items()
                   if key != "PYTHONUNBUFFERED"}
    environment.update(env or {})
    environment.setdefault("TERM", "xterm")
    environment["COLUMNS"], environment["LINES"] = str(columns), str(rows)
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    try:
        process = subprocess.Popen(command, cwd=cwd, env=environment, stdin=follower,
                                   stdout=follower, stderr=follower, start_new_session=True)
    finally:
        os.close(follower)
    try:
        if typed:
            os.write(leader, typed.encode())
        output = _read_until_closed(leader, process, time.monotonic() + timeout)
    finally:
        os.close(leader)
        if process.poll() is None:
            process.kill()
        process.wait()
    return TerminalRun(process.returncode, output.decode(errors="replace"))


def _read_until_closed(leader: int, process: subprocess.Popen, deadline: float) -> bytes:
    """Everything written to the terminal until every writer has closed it (EIO on Linux)."""
    chunks = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            process.kill()
            raise TimeoutError(f"{process.args} still running; output so far: "
                               f"{b''.join(chunks)[-2000:]!r}")
        ready, _, _ = select.select([leader], [], [], min(left, 0.5))
        if not ready:
            continue
        try:
            chunk = os.read(leader, 65536)
        except OSError as error:
            if error.errno == errno.EIO:
                return b"".join(chunks)
            raise
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
