"""The only code that starts and talks to a bot process.

A bot runs from an argv list (never through a shell's parsing) in a session of
its own, with no controlling terminal, and, where one can be made, in a cgroup
of its own from its first instruction (see ``spawn``), with a marker in its
environment that its children inherit (see ``process_tree``). The
harness writes a turn's input lines, then reads one answer line against a
deadline that starts when the input was flushed and stops at the answer's
newline. stdout, stderr and a pidfd of the bot (it exited) are polled together
by the calling thread, with no thread per bot: stderr is read as it comes while
the bot answers, into a 1 MB pipe, so a bot that floods it does not block and is
not slowed; what it writes between its turns waits in the pipe.
``close()`` ends the whole process tree (also children that called ``setsid``
or double-forked) and is idempotent: ``cgroup.kill`` ends even children that left
its group and environment (``referee.harness.cgroup``), and a guardian process (``referee.harness.guardian``)
ends every bot if the harness itself dies, even by SIGKILL. The harness makes
itself non-dumpable, so bots cannot read its memory, descriptors or environment
through ``/proc``; bots inherit no descriptor but their own three pipe ends.

Memory: the cap is set as the bot's ``RLIMIT_DATA`` (its writable private
memory: heap and anonymous mappings, not reserved-but-unused address space, so
a JVM or node starts fine), so an allocation past it fails at once (Python
raises MemoryError); and the resident memory of the bot's whole process tree is
sampled (root every 20 ms, tree every 0.5 s), killing the bot past the cap.
"""
from __future__ import annotations

import atexit
import fcntl
import itertools
import os
import re
import select
import signal
import shutil
import subprocess
import threading
import time
import weakref
from typing import Sequence

from referee.harness import cgroup, guardian
from referee.api import Answer, BotFault, Fault    # (Player's values: see referee.api)
from referee.harness.bot_stderr import StderrLog
from referee.harness.cpu_clock import CpuClock
from referee.harness.output_buffering import line_buffering_variables, unflushed_hint, waiting_for_input
from referee.harness.process_tree import (MARKER_VARIABLE, become_subreaper, descendants, kill_tree,
                                  reap, resident_bytes, set_not_dumpable, signal_group,
                                  start_ticks)
from referee.harness.spawn import BotStartError, StartedBot, start_bot
from referee.harness.watchdog import monitor

MAX_LINE_CHARS = 4096           # longest answer line accepted (a game may set less)
STDERR_TAIL_BYTES = 4096        # stderr kept per turn (the tail)
DEFAULT_MEMORY_MB = 768         # as on CodinGame
_READ_CHUNK = 65536
_EXIT_GRACE_MS = 20             # at the end of a game, a bot may exit on its own before the kill
_CPU_SAMPLE_MS = 1.0            # CPU time is read (a few us) only for answers slower than this
_STDERR_PIPE_BYTES = 1 << 20    # a bigger pipe: fewer wake-ups of the drain thread under a flood
_F_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)
_PAGE_BYTES = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_OUT_OF_MEMORY = re.compile(r"MemoryError|bad_alloc|[Oo]ut of memory|Cannot allocate memory|"
                            r"heap out of memory|OutOfMemoryError")

__all__ = ["Answer", "BotFault", "BotProcess", "BotStartError", "DEFAULT_MEMORY_MB",
           "MAX_LINE_CHARS", "STDERR_TAIL_BYTES", "become_subreaper", "close_all", "kill_tree"]

_live: "weakref.WeakSet[BotProcess]" = weakref.WeakSet()
_live_lock = threading.RLock()   # games in several threads start bots while close_all() runs
_serial = itertools.count(1)
_now = time.perf_counter
_setup_done = False
_ENTER_AT_START = True          # False: move bots into their cgroup after they start (benchmark)


def _line_before(data, newline: int):
    """What precedes the newline at index ``newline``, without a carriage return before it."""
    return data[:newline - 1] if newline and data[newline - 1] == 13 else data[:newline]


def _process_setup() -> None:
    """Once per harness process, before its first bot: bots may not read our memory,
    descriptors or environment through /proc; a guardian process ends them if we die."""
    global _setup_done
    with _live_lock:
        if _setup_done:
            return
        _setup_done = True
        set_not_dumpable()
        guardian.start(cgroup.run_folder())
        atexit.register(_at_exit)


def _at_exit() -> None:
    close_all()
    cgroup.remove_run_folder()
    guardian.stop()


class BotProcess:
    """One running bot. Use as a context manager or call ``close()``."""

    def __init__(self, argv: list[str], *, name: str = "", cwd: str | None = None,
                 env: dict[str, str] | None = None, memory_mb: int | None = DEFAULT_MEMORY_MB,
                 max_line_chars: int = MAX_LINE_CHARS, stderr_tail_bytes: int = STDERR_TAIL_BYTES,
                 sandboxed: bool = False, line_buffered: bool = True):
        _process_setup()
        self.argv = [str(word) for word in argv]
        self.name = name or " ".join(self.argv)
        self.max_line_chars = max_line_chars
        self.memory_mb = memory_mb or None
        self.stderr = StderrLog(stderr_tail_bytes)
        self._buffer = bytearray()
        self._closed = False
        self._eof_at: float | None = None       # when stdin was closed (end_input)
        self._tick_lock = threading.Lock()
        self._owner = threading.get_ident()
        self.memory_exceeded_bytes = 0
        self.marker = f"{os.getpid()}.{next(_serial)}"
        environment = dict(os.environ if env is None else env)
        environment[MARKER_VARIABLE] = self.marker
        self.line_buffered = line_buffered          # stdout as CodinGame runs bots: see output_buffering
        if line_buffered:
            environment.update(line_buffering_variables(environment))
        started, self._cgroup_move = _start(self.argv, self.name, cwd, environment, sandboxed,
                                            f"{MARKER_VARIABLE}={self.marker}".encode())
        self._proc, self._own_folder = started.process, started.own_folder
        self.pid = self._proc.pid               # bwrap's, for a sandboxed bot
        self.bot_pid = started.bot_pid or self.pid      # the bot's own process: CPU and memory
        guardian.watch(self.pid)                # its process group, killed if we die
        with _live_lock:
            _live.add(self)
        self._started_ticks = start_ticks(self.pid)
        if self.memory_mb:
            self._limit_memory()
        self._stdin_fd = self._proc.stdin.fileno()
        self._stdout_fd = self._proc.stdout.fileno()
        self._stderr_fd = self._proc.stderr.fileno()
        for fd in (self._stdin_fd, self._stdout_fd, self._stderr_fd):
            os.set_blocking(fd, False)
        try:
            fcntl.fcntl(self._stderr_fd, _F_SETPIPE_SZ, _STDERR_PIPE_BYTES)
        except OSError:
            pass
        self._pidfd = self._open_pidfd()
        self._poll_out = select.poll()          # stdout, stderr and the pidfd, while answering
        self._poll_out.register(self._stdout_fd, select.POLLIN)
        self._only_stdout_ready = [(self._stdout_fd, select.POLLIN)]
        self._poll_out.register(self._stderr_fd, select.POLLIN)
        if self._pidfd is not None:
            self._poll_out.register(self._pidfd, select.POLLIN)
        self._poll_err = select.poll()
        self._poll_err.register(self._stderr_fd, select.POLLIN)
        self._stderr_open = True
        self._poll_in = select.poll()
        self._poll_in.register(self._stdin_fd, select.POLLOUT)
        self._cpu = CpuClock(self.bot_pid)
        self._statm_fd = self._open_proc("statm") if self.memory_mb else None
        if self.memory_mb:
            monitor.add(self)

    # -- set-up ----------------------------------------------------------------
    @property
    def _cgroup(self) -> cgroup.BotCgroup | None:
        """The bot's cgroup (None: none could be made), once it is in."""
        move = self._cgroup_move
        return move.result() if isinstance(move, cgroup.CgroupMove) else move

    def _limit_memory(self) -> None:
        limit = self.memory_mb * 1024 * 1024
        try:
            import resource
            # under bwrap, the bot itself too: it was forked before we got here
            for pid in {self.pid, self.bot_pid}:
                resource.prlimit(pid, resource.RLIMIT_DATA, (limit, limit))
        except (ImportError, AttributeError, ValueError, OSError):
            pass                            # the bot already exited, or no prlimit here

    def _open_pidfd(self) -> int | None:
        try:
            return os.pidfd_open(self.pid)
        except (AttributeError, OSError):
            return None

    def _open_proc(self, name: str) -> int | None:
        try:
            return os.open(f"/proc/{self.bot_pid}/{name}", os.O_RDONLY)
        except OSError:
            return None

    # -- clocks and memory -----------------------------------------------------
    def tick(self, now: float, full: bool) -> None:
        """Called by the monitor thread: kill the bot when its memory passes the cap."""
        with self._tick_lock:
            if self._closed or self.memory_exceeded_bytes or self._statm_fd is None:
                return
            try:
                resident = int(os.pread(self._statm_fd, 128, 0).split()[1]) * _PAGE_BYTES
            except (OSError, IndexError, ValueError):
                return
            if full:
                resident = resident_bytes(descendants(self.pid))
            if resident > self.memory_mb * 1024 * 1024:
                self.memory_exceeded_bytes = resident
                kill_tree(self.pid, self.marker, self._started_ticks)

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
                chunk = os.read(self._stderr_fd, _READ_CHUNK)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self._stderr_open = False
                self._poll_out.unregister(self._stderr_fd)
                return
            self.stderr.absorb(chunk)
            if len(chunk) < _READ_CHUNK:
                return

    def take_stderr(self) -> str:
        """The stderr written since the last call, up to the cap (its tail), decoded leniently.

        When more was written than the cap, the text starts with ``[... N bytes cut]``.
        """
        if self._stderr_open and self._poll_err.poll(0):
            self._drain_stderr()
        return self.stderr.take()

    # -- the turn --------------------------------------------------------------
    def send(self, lines: Sequence[str], timeout_s: float) -> float:
        """Write a turn's lines; return the perf_counter time the input started going out.

        The clock starts before the write, as CodinGame's starts when the input is sent: a bot
        woken on this core can answer before os.write returns to us.
        """
        if self._buffer or self._poll_out.poll(0):
            self._check_no_unrequested_output()
        data = ("\n".join(lines) + "\n").encode()
        started = _now()
        try:
            written = os.write(self._stdin_fd, data)
        except BlockingIOError:
            written = 0
        except (BrokenPipeError, ConnectionResetError):
            raise BotFault(Fault.CRASH, self._exit_detail("stopped reading its input")) from None
        if written < len(data):
            self._write_rest(memoryview(data)[written:], timeout_s)
        return started

    def _write_rest(self, view: memoryview, timeout_s: float) -> None:
        deadline = time.perf_counter() + timeout_s
        while view:
            try:
                view = view[os.write(self._stdin_fd, view):]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, ConnectionResetError):
                raise BotFault(Fault.CRASH, self._exit_detail("stopped reading its input")) from None
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise BotFault(Fault.TIMEOUT, "did not read its input in time (stdin pipe full)")
            self._poll_in.poll(remaining * 1000)

    def _check_no_unrequested_output(self) -> None:
        self._fill_once()
        if self._buffer:
            extra = bytes(self._buffer[:60]).decode("utf-8", "replace")
            raise BotFault(Fault.BAD_OUTPUT, f"wrote output when none was expected: {extra!r}")

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
        return None if newline < 0 else _quoted_line(self._buffer[:newline])

    def _fill_once(self) -> int:
        """Read what stdout has now: the byte count, 0 if nothing yet, -1 at end of file."""
        try:
            chunk = os.read(self._stdout_fd, _READ_CHUNK)
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
        try:
            line = raw.decode()
        except UnicodeDecodeError:
            raise BotFault(Fault.BAD_OUTPUT, f"answer is not UTF-8: {bytes(raw[:40])!r}") from None
        latency_ms = (finished - started) * 1000
        if latency_ms < _CPU_SAMPLE_MS:
            return Answer(line, latency_ms, None, None)
        cpu_ms, wait_ms = self._cpu.lap(latency_ms)
        return Answer(line, latency_ms, cpu_ms, wait_ms)

    def _whole_line_read(self) -> bytes | None:
        """One read of stdout: the line without its end if it is exactly one whole line, else
        None with what was read kept in the buffer."""
        try:
            chunk = os.read(self._stdout_fd, _READ_CHUNK)
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
        fraction waited in select to the microsecond): an answer that arrives after it is
        late, while one already there when an overloaded harness wakes up late still counts
        (its latency then passes the deadline, and the game's result says so).
        ``now``: the clock as the caller just read it, for the first wait.
        """
        buffer, stdout_fd = self._buffer, self._stdout_fd
        while True:
            if len(buffer) > self.max_line_chars:
                raise BotFault(Fault.BAD_OUTPUT, f"answer line longer than {self.max_line_chars} "
                                                 "characters (and no newline)")
            remaining = deadline - (_now() if now is None else now)
            now = None
            if remaining <= 0:
                if self.memory_exceeded_bytes:
                    raise BotFault(Fault.CRASH, self._memory_detail())
                raise BotFault(Fault.TIMEOUT, self._timeout_detail(timeout_s))
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
                    exited = True                   # the pidfd
            newline = buffer.find(b"\n", old_length)
            if newline >= 0:
                return newline, found_at
            if ended:
                raise BotFault(Fault.CRASH, self._exit_detail("closed its stdout"))
            if exited and self._fill_once() <= 0 and self._proc.poll() is not None:
                # the bot exited; its children may still hold stdout open
                newline = buffer.find(b"\n", old_length)
                if newline >= 0:
                    return newline, found_at
                raise BotFault(Fault.CRASH, self._exit_detail("exited"))

    def _wait(self, remaining_s: float) -> list[tuple[int, int]]:
        """The poll events within ``remaining_s``, never waiting past it."""
        if remaining_s >= 0.001:
            return self._poll_out.poll(int(remaining_s * 1000))
        watched = [self._stdout_fd, self._stderr_fd] if self._stderr_open else [self._stdout_fd]
        if self._pidfd is not None:
            watched.append(self._pidfd)
        try:
            ready = select.select(watched, [], [], remaining_s)[0]
        except ValueError:                      # a descriptor past select's 1024
            ready = True
        return self._poll_out.poll(0) if ready else []

    def _refuse_extra_or_long(self, raw: bytearray) -> None:
        if len(raw) > self.max_line_chars:
            raise BotFault(Fault.BAD_OUTPUT, f"answer line longer than {self.max_line_chars} characters "
                                             f"({len(raw)})")
        answer = _quoted_line(raw)
        lines = bytes(self._buffer).split(b"\n")
        count = len(lines) - (lines[-1] == b"")
        more = f" and {count - 1} more" if count > 1 else ""
        raise BotFault(Fault.BAD_OUTPUT, f"answered more than one line: {answer} was read as the "
                       f"answer, then came the extra line {_quoted_line(lines[0])}{more} in the "
                       "same turn; print debug output to stderr, only the answer to stdout")

    def _timeout_detail(self, timeout_s: float) -> str:
        detail = f"no answer within {timeout_s * 1000:.0f} ms"
        cpu_ms, wait_ms = self._cpu.since_lap()
        if cpu_ms is not None:
            detail += f" (bot used {cpu_ms:.0f} ms CPU"
            if wait_ms is not None and wait_ms >= 1:
                detail += f", waited {wait_ms:.0f} ms for a CPU"
            if cpu_ms < timeout_s * 500 and self._cpu.runnable():
                detail += ", and was waiting for a CPU at the deadline: the machine is overloaded"
            detail += ")"
            if cpu_ms < timeout_s * 100 and not self._buffer and waiting_for_input(self.bot_pid):
                detail += unflushed_hint(self.line_buffered)
        if self._buffer:
            detail += f"; partial line {bytes(self._buffer[:40]).decode('utf-8', 'replace')!r}"
        return detail

    def _exit_detail(self, alive_text: str) -> str:
        try:
            code = self._proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            if self.memory_exceeded_bytes:
                return self._memory_detail()
            return alive_text
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            detail = f"killed by {name}"
        else:
            detail = f"exited with code {code}"
        self._drain_stderr()
        if self.memory_exceeded_bytes:
            return self._memory_detail()
        last = self.stderr.last_line()
        if self.memory_mb and _OUT_OF_MEMORY.search(last):
            return f"memory limit ({self.memory_mb} MB) exceeded: {detail}: {last}"
        return f"{detail}: {last}" if last else detail

    def _memory_detail(self) -> str:
        return (f"memory limit ({self.memory_mb} MB) exceeded: resident memory reached "
                f"{self.memory_exceeded_bytes / 2**20:.0f} MB; killed")

    # -- the end ---------------------------------------------------------------
    def end_input(self) -> None:
        """End of file on stdin: the bot may now exit on its own. Only the owner thread (the
        one that writes to stdin) closes it; ``close()`` then waits for the exit. A game ends
        the input of all its bots first, so they exit at the same time, not one after another."""
        if self._eof_at is None and threading.get_ident() == self._owner:
            self._close_stdin()

    def _close_stdin(self) -> None:
        self._eof_at = _now()
        try:
            self._proc.stdin.close()
        except OSError:
            pass

    def _let_exit(self) -> None:
        """End of file on stdin, and a moment (from then) to exit on its own, so its last
        stderr is flushed. Called by close() in the owner thread, or once that thread is gone."""
        if self._eof_at is None:
            self._close_stdin()
        if self._pidfd is not None and self._proc.returncode is None:
            left_ms = _EXIT_GRACE_MS - (_now() - self._eof_at) * 1000
            if left_ms > 0:
                waiting = select.poll()
                waiting.register(self._pidfd, select.POLLIN)
                waiting.poll(left_ms)

    def kill(self) -> None:
        """End the bot's process tree now (any thread); its pipes stay open until ``close()``.

        With a cgroup, ``cgroup.kill`` ends everything in it (escapes included) and the
        process group catches a child forked before the bot was moved in; without one,
        the search of ``process_tree`` finds the tree.
        """
        if self._cgroup is None:
            kill_tree(self.pid, self.marker, self._started_ticks)
            return
        members = self._cgroup.pids()
        self._cgroup.kill()
        signal_group(self.pid)
        if self._cgroup.wait_empty() and not self._cgroup.early:
            adopted = set(members) - {self.pid}
            if adopted:
                reap(adopted, dying=adopted | {self.pid})
        else:            # or it started processes before it was moved in: see referee.harness.cgroup
            kill_tree(self.pid, self.marker, self._started_ticks)

    def close(self) -> None:
        """End the bot and every process it started. Safe to call twice, from any thread.

        From another thread than the one that started the bot (which may be
        inside ``send``/``read_line``) it only kills: that thread's own close()
        releases the pipes, so no descriptor is closed under its feet.
        """
        if self._closed:
            return
        if threading.get_ident() != self._owner and _thread_alive(self._owner):
            self.kill()
            return
        self._closed = True
        with _live_lock:
            _live.discard(self)
        monitor.discard(self)
        self._let_exit()
        self.kill()
        try:
            self._proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass
        if self._cgroup is not None:
            self._cgroup.remove()
        guardian.forget(self.pid)
        if self._own_folder is not None:
            shutil.rmtree(self._own_folder, ignore_errors=True)
        for _ in range(_STDERR_PIPE_BYTES // _READ_CHUNK + 1):
            if not self._stderr_open or not self._poll_err.poll(0):
                break
            self._drain_stderr()            # what it wrote after its last answer ([PDATA] too)
        for stream in (self._proc.stdin, self._proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        try:
            self._proc.stderr.close()
        except OSError:
            pass
        with self._tick_lock:
            self._cpu.close()
            for name in ("_statm_fd", "_pidfd"):
                fd = getattr(self, name)
                if fd is not None:
                    setattr(self, name, None)
                    try:
                        os.close(fd)
                    except OSError:
                        pass

    def __enter__(self) -> "BotProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _start(argv: list[str], name: str, cwd: str | None, environment: dict[str, str],
           sandboxed: bool, marker: bytes
           ) -> tuple[StartedBot, cgroup.BotCgroup | cgroup.CgroupMove | None]:
    """Start the bot inside a cgroup of its own where one can be made (see ``spawn``), or
    moved in just after it started where it cannot be started inside (or ``_ENTER_AT_START``
    is off: the benchmark's older way); the cgroup, or the move under way, or None."""
    group = cgroup.new_bot_cgroup()
    try:
        started = start_bot(argv, name, cwd, environment, sandboxed,
                            group.procs if group is not None and _ENTER_AT_START else None)
    except BaseException:
        if group is not None:
            group.remove()
        raise
    if group is None or started.in_cgroup:
        return started, group
    return started, cgroup.CgroupMove(started.process.pid, marker, into=group)


def _thread_alive(ident: int) -> bool:
    return any(thread.ident == ident for thread in threading.enumerate())


def close_all() -> None:
    """End every bot process still open in this harness (on interruption and at exit)."""
    with _live_lock:
        bots = list(_live)
    for bot in bots:
        bot.end_input()
    for bot in bots:
        bot.close()


def _quoted_line(raw: bytes | bytearray, width: int = 60) -> str:
    """A line a bot printed, quoted (repr) and cut to ``width`` characters with an ellipsis."""
    text = bytes(raw).rstrip(b"\r").decode("utf-8", "replace")
    return repr(text) if len(text) <= width else repr(text[:width]) + "..."
