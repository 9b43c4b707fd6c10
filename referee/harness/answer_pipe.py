"""A bot's answers, read from its stdout against a deadline: the harness's hot path.

The deadline starts when the turn's input was flushed and stops at the answer's newline.
stdout, stderr and a descriptor that becomes readable when the bot exits (a pidfd) are polled
together by the calling thread, with no thread per bot: stderr is read as it comes while the bot
answers, into a big pipe, so a bot that floods it does not block and is not slowed; what it
writes between its turns waits in the pipe. The usual answer takes one wait and one read (the
fast path of ``read_line``), and no wait ends past the deadline. An answer found past it (the
harness itself got the CPU late) is judged by when the kernel says it was written (``arrival``).

Nothing here knows of processes: ``AnswerPipe`` reads any pipe pair the same way (an
``os.pipe()`` in the tests). ``BotProcess`` (``process``) is one, with a process behind it: it
overrides the hooks that tell a fault's facts (``_deadline_fault``, ``_exit_detail``,
``_has_exited``) and gives the CPU clock; ``fault_wording`` has the words.
"""
from __future__ import annotations

import os
import select
import time
from typing import TypeVar

from referee.api import Answer, BotFault, Fault
from referee.harness import arrival
from referee.harness import fault_wording as wording
from referee.harness.arrival import Arrival
from referee.harness.bot_stderr import StderrLog
from referee.harness.cpu_clock import CpuClock

MAX_LINE_CHARS = 4096           # longest answer line accepted (a game may set less)
STDERR_TAIL_BYTES = 4096        # stderr kept per turn (the tail)
READ_CHUNK = 65536
_CPU_SAMPLE_MS = 1.0            # CPU time is read (a few us) only for answers slower than this
_now = time.perf_counter
_Bytes = TypeVar("_Bytes", bytes, bytearray)


class NoClock:
    """The CPU clock of a pipe with no process behind it: no readings."""

    __slots__ = ()

    def lap(self, wall_ms: float) -> tuple[float | None, float | None]:
        return None, None


def _line_before(data: _Bytes, newline: int) -> _Bytes:
    """What precedes the newline at index ``newline``, without a carriage return before it."""
    return data[:newline - 1] if newline and data[newline - 1] == 13 else data[:newline]


class AnswerPipe:
    """The reading end of a bot's stdout and stderr, and optionally ``exit_fd``, a descriptor
    that becomes readable when the bot exits. The descriptors are made non-blocking; whoever
    opened them closes them."""

    def __init__(self, stdout_fd: int, stderr_fd: int, exit_fd: int | None = None, *,
                 max_line_chars: int = MAX_LINE_CHARS,
                 stderr_tail_bytes: int = STDERR_TAIL_BYTES, stamped: bool = False) -> None:
        self.max_line_chars = max_line_chars
        self.stamped = stamped          # stdout is a FIFO the kernel stamps (see arrival)
        self.stderr = StderrLog(stderr_tail_bytes)
        self._buffer = bytearray()
        self._stdout_fd, self._stderr_fd, self._exit_fd = stdout_fd, stderr_fd, exit_fd
        self._cpu: CpuClock | NoClock = NoClock()
        for fd in (stdout_fd, stderr_fd):
            os.set_blocking(fd, False)
        self._poll_out = select.poll()          # stdout, stderr and the exit, while answering
        self._poll_out.register(stdout_fd, select.POLLIN)
        self._only_stdout_ready = [(stdout_fd, select.POLLIN)]
        self._poll_out.register(stderr_fd, select.POLLIN)
        if exit_fd is not None:
            self._poll_out.register(exit_fd, select.POLLIN)
        self._poll_err = select.poll()
        self._poll_err.register(stderr_fd, select.POLLIN)
        self._stderr_open = True

    # -- what a process adds (see BotProcess) -------------------------------------------------
    def _deadline_fault(self, timeout_s: float) -> BotFault:
        """The fault of an answer not there at the deadline."""
        return BotFault(Fault.TIMEOUT, wording.no_answer(timeout_s, self._buffer))

    def _exit_detail(self, alive_text: str) -> str:
        """The detail of a bot whose stdout ended, or that exited (``alive_text``: as it seems)."""
        return alive_text

    def _has_exited(self) -> bool:
        """Whether the bot has exited, once ``exit_fd`` became readable."""
        return True

    # -- stderr ----------------------------------------------------------------
    @property
    def stderr_total_bytes(self) -> int:
        return self.stderr.total_bytes

    @property
    def pdata(self) -> dict[str, str]:
        return self.stderr.pdata

    def _drain_stderr(self) -> None:
        """Read what stderr holds now (it is read while the bot answers, and here)."""
        while self._stderr_open:
            try:
                chunk = os.read(self._stderr_fd, READ_CHUNK)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self._stderr_open = False
                self._poll_out.unregister(self._stderr_fd)
                return
            self.stderr.absorb(chunk)
            if len(chunk) < READ_CHUNK:
                return

    def take_stderr(self) -> str:
        """The stderr written since the last call, up to the cap (its tail), decoded leniently.

        When more was written than the cap, the text starts with ``[... N bytes cut]``.
        """
        if self._stderr_open and self._poll_err.poll(0):
            self._drain_stderr()
        return self.stderr.take()

    # -- stdout ----------------------------------------------------------------
    def _check_no_unrequested_output(self) -> None:
        self._fill_once()
        if self._buffer:
            raise BotFault(Fault.BAD_OUTPUT, wording.unrequested_output(self._buffer))

    def line_following(self, wait_s: float = 0.05) -> str | None:
        """The next line the bot prints within ``wait_s``, quoted, or None: asked only after an
        answer was refused, to tell a debug line printed before the answer (the answer came
        next) from a wrong answer."""
        deadline = _now() + wait_s
        while b"\n" not in self._buffer and _now() < deadline:
            ready, _, _ = select.select([self._stdout_fd], [], [], max(0.0, deadline - _now()))
            if not ready or self._fill_once() < 0:
                break
        newline = self._buffer.find(b"\n")
        return None if newline < 0 else wording.quoted_line(self._buffer[:newline])

    def _fill_once(self) -> int:
        """Read what stdout has now: the byte count, 0 if nothing yet, -1 at end of file."""
        try:
            chunk = os.read(self._stdout_fd, READ_CHUNK)
        except BlockingIOError:
            return 0
        except OSError:
            return -1
        if not chunk:
            return -1
        self._buffer += chunk
        return len(chunk)

    def read_line(self, started: float, timeout_s: float, last: bool = True) -> Answer:
        """The next answer line, due ``timeout_s`` after ``started`` (a perf_counter time).
        ``last``: no more lines are expected this turn, so what follows it is refused; a line
        of a multi-line answer before its last leaves the rest in the buffer."""
        buffer = self._buffer
        raw: bytes | bytearray | None
        now: float | None
        raw = now = None
        if not buffer:
            now = _now()
            remaining_ms = (started + timeout_s - now) * 1000
            if remaining_ms >= 1:
                # the usual answer, in one wait and one read: stdout alone ready, one whole
                # line; anything else (stderr, an exit, part of a line...) takes the path below
                now = None                      # (the clock moves on while waiting)
                if self._poll_out.poll(int(remaining_ms)) == self._only_stdout_ready:
                    finished = _now()           # found: the read's own time is not the bot's
                    raw = self._whole_line_read()
        if raw is None:
            newline = buffer.find(b"\n")
            if newline < 0:
                newline, finished = self._wait_for_newline(started + timeout_s, timeout_s, now)
            else:
                finished = _now()
            raw = _line_before(buffer, newline)
            del buffer[:newline + 1]
        if (buffer and last) or len(raw) > self.max_line_chars:
            self._refuse_extra_or_long(raw)
        uncertain = False
        if finished > started + timeout_s:      # found late: when was it written?
            finished, uncertain = self._arrival(started, timeout_s, finished)
        try:
            line = raw.decode()
        except UnicodeDecodeError:
            raise BotFault(Fault.BAD_OUTPUT, wording.not_utf8(raw)) from None
        latency_ms = (finished - started) * 1000
        if latency_ms < _CPU_SAMPLE_MS:
            return Answer(line, latency_ms, None, None, uncertain)
        cpu_ms, wait_ms = self._cpu.lap(latency_ms)
        return Answer(line, latency_ms, cpu_ms, wait_ms, uncertain)

    def _arrival(self, started: float, timeout_s: float, found: float) -> tuple[float, bool]:
        """An answer the harness found past its deadline (it got the CPU late), judged by when
        the kernel says it was written: a timeout if after the deadline; if before, its
        latency is at most the end of the stamp's window; else (no stamp, or a stamp too close
        to the deadline to tell) it counts as found, and is uncertain (the second value)."""
        deadline = started + timeout_s
        stamp = arrival.written_at(self._stdout_fd) if self.stamped else None
        verdict = arrival.judge(stamp, deadline)
        if verdict is Arrival.LATE:
            assert stamp is not None
            raise BotFault(Fault.TIMEOUT, wording.written_late(
                timeout_s, (stamp - started) * 1000, (found - started) * 1000))
        if verdict is Arrival.IN_TIME:
            assert stamp is not None
            return min(found, stamp + arrival.WINDOW_S), False
        return found, True

    def _whole_line_read(self) -> bytes | None:
        """One read of stdout: the line without its end if it is exactly one whole line, else
        None with what was read kept in the buffer."""
        try:
            chunk = os.read(self._stdout_fd, READ_CHUNK)
        except OSError:
            return None                         # (the path that reads again tells what it was)
        end = len(chunk) - 1
        if end >= 0 and chunk.find(b"\n") == end:
            return _line_before(chunk, end)
        self._buffer += chunk
        return None

    def _wait_for_newline(self, deadline: float, timeout_s: float,
                          now: float | None = None) -> tuple[int, float]:
        """Poll stdout (and stderr, and the bot's exit) until a newline: its index in the buffer,
        and the clock when the wait that found it ended.

        No wait ends past the deadline (poll's whole milliseconds are rounded down, the last
        fraction waited in select to the microsecond). An overloaded harness can still wake
        up late and find an answer there: ``read_line`` judges it by when it was written.
        ``now``: the clock as the caller just read it, for the first wait.
        """
        buffer, stdout_fd = self._buffer, self._stdout_fd
        while True:
            if len(buffer) > self.max_line_chars:
                raise BotFault(Fault.BAD_OUTPUT, wording.line_too_long(self.max_line_chars))
            remaining = deadline - (_now() if now is None else now)
            now = None
            if remaining <= 0:
                # a last look: what came while this thread waited for a CPU since its last
                # look is judged by when it was written (read_line), not called late unseen
                old_length = len(buffer)
                if self._fill_once() > 0:
                    newline = buffer.find(b"\n", old_length)
                    if newline >= 0:
                        return newline, _now()
                raise self._deadline_fault(timeout_s)
            events = self._wait(remaining)
            found_at = _now()
            old_length = len(buffer)
            ended = exited = False
            for fd, _ in events:
                if fd == stdout_fd:
                    ended = self._fill_once() < 0
                elif fd == self._stderr_fd:
                    self._drain_stderr()
                else:
                    exited = True                   # the exit descriptor
            newline = buffer.find(b"\n", old_length)
            if newline >= 0:
                return newline, found_at
            if ended:
                raise BotFault(Fault.CRASH, self._exit_detail(wording.CLOSED_STDOUT))
            if exited and self._fill_once() <= 0 and self._has_exited():
                # the bot exited; its children may still hold stdout open
                newline = buffer.find(b"\n", old_length)
                if newline >= 0:
                    return newline, found_at
                raise BotFault(Fault.CRASH, self._exit_detail(wording.EXITED))

    def _wait(self, remaining_s: float) -> list[tuple[int, int]]:
        """The poll events within ``remaining_s``, never waiting past it."""
        if remaining_s >= 0.001:
            return self._poll_out.poll(int(remaining_s * 1000))
        watched = [self._stdout_fd, self._stderr_fd] if self._stderr_open else [self._stdout_fd]
        if self._exit_fd is not None:
            watched.append(self._exit_fd)
        try:
            ready = bool(select.select(watched, [], [], remaining_s)[0])
        except ValueError:                      # a descriptor past select's 1024
            ready = True
        return self._poll_out.poll(0) if ready else []

    def _refuse_extra_or_long(self, raw: bytes | bytearray) -> None:
        if len(raw) > self.max_line_chars:
            raise BotFault(Fault.BAD_OUTPUT, wording.line_too_long(self.max_line_chars, len(raw)))
        raise BotFault(Fault.BAD_OUTPUT, wording.extra_lines(raw, bytes(self._buffer)))
