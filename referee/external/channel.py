"""The pipe to an external referee: its process started, watched and ended like a bot's.

A referee is a program (a JVM, usually) that botarena relays for: it reads our commands on its
stdin and prints its messages on stdout, while its stderr is free-form (logs, stack traces). It
runs through the harness that runs bots (``referee.harness.process``): a process group and a
cgroup of its own, the guardian that ends it if botarena dies, ``close()`` that ends its whole
tree (the JVM's threads and anything it started). What differs from a bot: a referee's message
is many lines, read against the referee's own allowance (``referee_timeout_ms``), not a turn
budget; its lines may be long (a viewer frame); and a write after it finished meets a closed
pipe, which is its normal end, not a fault.
"""
from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from referee.api import Fault, RefereeError
from referee.external.cause import cause_line
from referee.harness.fault_wording import exit_status
from referee.harness.process import BotFault, BotProcess, BotStartError

MAX_REFEREE_LINE = 64 << 20         # a viewer frame of a big game is a few hundred KB
STDERR_TAIL_CHARS = 4000            # the referee's stderr kept for a referee error
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

_cpu_lock = threading.Lock()
_cpu = {"processes": 0, "cpu_s": 0.0, "startup_cpu_s": 0.0}


def process_cpu_s(pid: int) -> float | None:
    """The CPU time (user + system, every thread) process ``pid`` used, from /proc (None when
    it cannot be read: reaped, or not Linux). An exited process not yet reaped still has it."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS
    except (OSError, IndexError, ValueError):
        return None


def referee_cpu() -> dict[str, float]:
    """The CPU of every referee process closed so far in this process (``bench host``): how
    many, their CPU seconds, and the part each spent before its first game (a host's start-up)."""
    with _cpu_lock:
        return dict(_cpu)


class Channel(Protocol):
    """How a protocol driver talks to its referee (a process of its own, or a game on a host)."""

    def write(self, lines: Sequence[str]) -> bool: ...   # False: the referee closed its input
    def read_line(self, deadline: float) -> str: ...     # RefereeError past the deadline / at exit
    def stderr_tail(self) -> str: ...
    def end_of_game(self) -> None: ...                   # the referee sent its last message
    def close(self) -> None: ...


class RefereeStartError(BotStartError):
    """A referee that exited before its first line: its command cannot run a game (a wrong
    class path, a missing file); like a bot command that cannot start, one line, no game."""


class RefereeProcess(BotProcess):
    """A referee's process: lines in, lines out, its stderr's tail kept."""

    def __init__(self, argv: Sequence[str], *, cwd: str | Path | None, label: str):
        try:
            super().__init__(list(argv), name=label, cwd=None if cwd is None else str(cwd),
                             memory_mb=None, max_line_chars=MAX_REFEREE_LINE,
                             stderr_tail_bytes=1 << 16, line_buffered=False)
        except BotStartError as error:
            raise BotStartError(f"{label}: {error}") from None
        self.label = label
        self.lines_read = 0
        self._tail: deque[str] = deque()
        self._tail_chars = 0
        self.startup_cpu_s = 0.0            # a host's CPU once ready for games (set by it)

    def write(self, lines: Sequence[str], timeout_s: float = 10.0) -> bool:
        """Send ``lines``; False when the referee has closed its input (it has finished)."""
        view = memoryview("".join(line + "\n" for line in lines).encode())
        deadline = time.perf_counter() + timeout_s
        while view:
            try:
                view = view[os.write(self._stdin_fd, view):]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, ConnectionResetError):
                return False
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise RefereeError(f"{self.label} stopped reading its input "
                                   f"(nothing read for {timeout_s:.0f} s)", self.stderr_tail())
            self._poll_in.poll(remaining * 1000)
        return True

    def read_line(self, deadline: float) -> str:       # type: ignore[override]
        """The referee's next line (without its end), due by ``deadline`` (a perf_counter time)."""
        buffer = self._buffer
        newline = buffer.find(b"\n")
        if newline < 0:
            try:
                newline, _ = self._wait_for_newline(deadline,
                                                    max(0.0, deadline - time.perf_counter()))
            except BotFault as fault:
                raise self._failure(fault) from None
        raw = buffer[:newline - 1] if newline and buffer[newline - 1] == 13 else buffer[:newline]
        del buffer[:newline + 1]
        self.lines_read += 1
        return raw.decode("utf-8", "replace")

    def _failure(self, fault: BotFault) -> RefereeError:
        """The referee error of ``fault``, headed by the cause its stderr names (a stack
        trace's root cause, not its last line); RefereeStartError (raised) for a referee that
        exited by itself before its first line."""
        tail = self.stderr_tail()
        if fault.kind is Fault.TIMEOUT:
            return RefereeError(f"{self.label} was silent past its referee_timeout_ms", tail)
        if fault.kind is not Fault.CRASH:
            return RefereeError(f"{self.label} printed garbage: {fault.detail}", tail)
        code = self._proc.returncode
        cause = cause_line(tail)
        ended = fault.detail if code is None or cause is None else f"{exit_status(code)}: {cause}"
        if code is not None and code >= 0 and not self.lines_read:
            raise RefereeStartError(f"{self.label} could not start: {ended} (check the game "
                                    "file's command, run in the file's folder)")
        return RefereeError(f"{self.label} ended before the game did: {ended}", tail)

    def end_of_game(self) -> None:
        """Nothing to do: a referee process exits by itself after its scores."""

    def adopt(self) -> None:
        """The calling thread uses the process from now on (a referee host taken up by another
        job thread than the one that started it): its ``close()`` then ends it for good."""
        self._owner = threading.get_ident()

    def close(self) -> None:
        """End the referee (see BotProcess.close), its CPU time counted in ``referee_cpu``."""
        cpu = None if self._closed else process_cpu_s(self.pid)
        super().close()
        if cpu is not None and self._closed:    # (from another thread it only killed)
            with _cpu_lock:
                _cpu["processes"] += 1
                _cpu["cpu_s"] += cpu
                _cpu["startup_cpu_s"] += self.startup_cpu_s

    def stderr_tail(self) -> str:
        """The last few thousand characters the referee wrote on stderr."""
        text = self.take_stderr()
        if text:
            self._tail.append(text)
            self._tail_chars += len(text)
            while self._tail_chars - len(self._tail[0]) >= STDERR_TAIL_CHARS and len(self._tail) > 1:
                self._tail_chars -= len(self._tail.popleft())
        whole = "".join(self._tail)
        if len(whole) <= STDERR_TAIL_CHARS:
            return whole
        cut = whole[-STDERR_TAIL_CHARS:]
        return cut[cut.find("\n") + 1:]        # from a line's start, not mid-word
