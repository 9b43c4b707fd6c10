"""The only code that starts and ends a bot process: its lifecycle around the pipes it answers on.

A bot runs from an argv list (never through a shell's parsing) in a session of
its own, with no controlling terminal, and, where one can be made, in a cgroup
of its own from its first instruction (see ``spawn``), with a marker in its
environment that its children inherit (see ``process_tree``). The harness writes
a turn's input lines (``send``), then reads one answer line against a deadline
(``read_line``: ``answer_pipe``, which ``BotProcess`` is with a process behind it;
the words of its faults are ``fault_wording``'s).
``close()`` ends the whole process tree (also children that called ``setsid``
or double-forked) and is idempotent: ``cgroup.kill`` ends even children that left
its group and environment (``referee.harness.cgroup``), and a guardian process
(``referee.harness.guardian``) ends every bot if the harness itself dies, even by
SIGKILL. The harness makes itself non-dumpable, so bots cannot read its memory,
descriptors or environment through ``/proc``; bots inherit no descriptor but their
own three pipe ends.

Memory: the cap is set as the bot's ``RLIMIT_DATA`` (its writable private
memory: heap and anonymous mappings, not reserved-but-unused address space, so
a JVM or node starts fine), so an allocation past it fails at once (Python
raises MemoryError); and the resident memory of the bot's whole process tree is
sampled (root every 20 ms, tree every 0.5 s), killing the bot past the cap.
"""
from __future__ import annotations

import array
import atexit
import fcntl
import itertools
import os
import select
import subprocess
import termios
import threading
import time
import weakref
from collections.abc import Sequence
from typing import IO

from referee.api import Answer, BotFault, Fault  # (Player's values: see referee.api)
from referee.harness import arrival, cgroup, guardian
from referee.harness import fault_wording as wording
from referee.harness.answer_pipe import MAX_LINE_CHARS, READ_CHUNK, STDERR_TAIL_BYTES, AnswerPipe
from referee.harness.cgroup_starter import StartedChild
from referee.harness.cpu_clock import CpuClock
from referee.harness.output_buffering import line_buffering_variables, unflushed_hint, waiting_for_input
from referee.harness.process_tree import (
    MARKER_VARIABLE,
    become_subreaper,
    descendants,
    kill_tree,
    reap,
    resident_bytes,
    set_not_dumpable,
    signal_group,
    start_ticks,
)
from referee.harness.spawn import BotStartError, StartedBot, remove_own_folder, start_bot
from referee.harness.watchdog import monitor

DEFAULT_MEMORY_MB = 768         # as on CodinGame
_EXIT_GRACE_MS = 20             # at the end of a game, a bot may exit on its own before the kill
_STDERR_PIPE_BYTES = 1 << 20    # a bigger pipe: fewer wake-ups of the drain thread under a flood
_F_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)
_PAGE_BYTES = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

__all__ = ["Answer", "BotFault", "BotProcess", "BotStartError", "DEFAULT_MEMORY_MB",
           "MAX_LINE_CHARS", "STDERR_TAIL_BYTES", "become_subreaper", "close_all", "kill_tree"]

_live: weakref.WeakSet[BotProcess] = weakref.WeakSet()
_live_lock = threading.RLock()   # games in several threads start bots while close_all() runs
_serial = itertools.count(1)
_now = time.perf_counter
_setup_done = False
_ENTER_AT_START = True          # False: move bots into their cgroup after they start (benchmark)


def process_setup() -> None:
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
    arrival.remove_folder()
    guardian.stop()


class BotProcess(AnswerPipe):
    """One running bot: an ``AnswerPipe`` with a process behind it. Use as a context manager
    or call ``close()``."""

    _cpu: CpuClock                              # the process's (AnswerPipe's is none)

    def __init__(self, argv: list[str], *, name: str = "", cwd: str | None = None,
                 env: dict[str, str] | None = None, memory_mb: int | None = DEFAULT_MEMORY_MB,
                 max_line_chars: int = MAX_LINE_CHARS, stderr_tail_bytes: int = STDERR_TAIL_BYTES,
                 sandboxed: bool = False, line_buffered: bool = True):
        process_setup()
        self.argv = [str(word) for word in argv]
        self.name = name or " ".join(self.argv)
        self.memory_mb = memory_mb or None
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
        fifo = arrival.stamped_pipe()           # stdout: its writes are stamped, see arrival
        try:
            started, self._cgroup_move = _start(
                self.argv, self.name, cwd, environment, sandboxed,
                f"{MARKER_VARIABLE}={self.marker}".encode(),
                subprocess.PIPE if fifo is None else fifo[1])
        except BaseException:
            if fifo is not None:
                os.close(fifo[0])
            raise
        finally:
            if fifo is not None:
                os.close(fifo[1])               # the bot's end: its alone now
        self._proc, self._own_folder = started.process, started.own_folder
        self._stdin, self._stdout, self._stderr = _pipes(self._proc,
                                                         None if fifo is None else fifo[0])
        self.pid = self._proc.pid               # bwrap's, for a sandboxed bot
        self.bot_pid = started.bot_pid or self.pid      # the bot's own process: CPU and memory
        guardian.watch(self.pid)                # its process group, killed if we die
        with _live_lock:
            _live.add(self)
        self._started_ticks = start_ticks(self.pid)
        if self.memory_mb:
            self._limit_memory(self.memory_mb * 1024 * 1024)
        self._stdin_fd = self._stdin.fileno()
        os.set_blocking(self._stdin_fd, False)
        stderr_fd = self._stderr.fileno()
        try:
            fcntl.fcntl(stderr_fd, _F_SETPIPE_SZ, _STDERR_PIPE_BYTES)
        except OSError:
            pass
        super().__init__(self._stdout.fileno(), stderr_fd, self._open_pidfd(),
                         max_line_chars=max_line_chars, stderr_tail_bytes=stderr_tail_bytes,
                         stamped=fifo is not None)
        self._poll_in = select.poll()
        self._poll_in.register(self._stdin_fd, select.POLLOUT)
        move = self._cgroup_move                # (a move still under way: its threads then)
        self._cpu = CpuClock(self.bot_pid, move.path if isinstance(move, cgroup.BotCgroup)
                             else None)
        self._statm_fd = self._open_proc("statm") if self.memory_mb else None
        if self.memory_mb:
            monitor.add(self)

    # -- set-up ----------------------------------------------------------------
    @property
    def _cgroup(self) -> cgroup.BotCgroup | None:
        """The bot's cgroup (None: none could be made), once it is in."""
        move = self._cgroup_move
        return move.result() if isinstance(move, cgroup.CgroupMove) else move

    def _limit_memory(self, limit: int) -> None:
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
            if self._closed or self.memory_exceeded_bytes or self._statm_fd is None \
                    or self.memory_mb is None:
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

    # -- the turn --------------------------------------------------------------
    def send(self, lines: Sequence[str], timeout_s: float) -> float:
        """Write a turn's lines; return the perf_counter time the input started going out.

        The clock starts before the write, as CodinGame's starts when the input is sent: a bot
        woken on this core can answer before os.write returns to us.
        """
        if self._buffer or self._poll_out.poll(0):
            self._check_no_unrequested_output()
        data = ("\n".join(lines) + "\n").encode()
        if self.stamped:
            arrival.clear(self._stdout_fd)      # the answer's write stamps it anew
        started = _now()
        try:
            written = os.write(self._stdin_fd, data)
        except BlockingIOError:
            written = 0
        except (BrokenPipeError, ConnectionResetError):
            raise BotFault(Fault.CRASH, self._exit_detail(wording.STOPPED_READING)) from None
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
                raise BotFault(Fault.CRASH, self._exit_detail(wording.STOPPED_READING)) from None
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise BotFault(Fault.TIMEOUT, wording.STDIN_FULL)
            self._poll_in.poll(remaining * 1000)

    # -- the facts behind a fault (AnswerPipe's hooks) -----------------------------------
    def _has_exited(self) -> bool:
        return self._proc.poll() is not None

    def _deadline_fault(self, timeout_s: float) -> BotFault:
        if self.memory_exceeded_bytes:
            return BotFault(Fault.CRASH, self._memory_detail())
        cpu_ms, wait_ms = self._cpu.since_lap()
        use = hint = ""
        if cpu_ms is not None:
            use = wording.cpu_use(cpu_ms, wait_ms, timeout_s,
                                  cpu_ms < timeout_s * 500 and self._cpu.runnable())
            if cpu_ms < timeout_s * 100 and not self._buffer and not self._input_unread() \
                    and waiting_for_input(self.bot_pid):
                hint = unflushed_hint(self.line_buffered)
        return BotFault(Fault.TIMEOUT, wording.no_answer(timeout_s, self._buffer, use, hint))

    def _input_unread(self) -> int:
        """Bytes of input the bot has not read yet (0 if it cannot be told)."""
        unread = array.array("i", [0])
        try:
            fcntl.ioctl(self._stdin_fd, termios.FIONREAD, unread)
        except (OSError, ValueError):
            return 0
        return unread[0]

    def _exit_detail(self, alive_text: str) -> str:
        try:
            code = self._proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            if self.memory_exceeded_bytes:
                return self._memory_detail()
            return alive_text
        status = wording.exit_status(code)
        self._drain_stderr()
        if self.memory_exceeded_bytes:
            return self._memory_detail()
        return wording.ended(status, self.stderr.last_line(), self.memory_mb)

    def _memory_detail(self) -> str:
        return wording.memory_exceeded(self.memory_mb, self.memory_exceeded_bytes)

    # -- the end ---------------------------------------------------------------
    def end_input(self) -> None:
        """End of file on stdin: the bot may now exit on its own. Only the owner thread (the
        one that writes to stdin) closes it; ``close()`` then waits for the exit. A game ends
        the input of all its bots first, so they exit at the same time, not one after another."""
        if self._eof_at is None and threading.get_ident() == self._owner:
            self._close_stdin()

    def _close_stdin(self) -> float:
        """Close stdin; the time it was closed."""
        eof_at = self._eof_at = _now()
        try:
            self._stdin.close()
        except OSError:
            pass
        return eof_at

    def _let_exit(self) -> None:
        """End of file on stdin, and a moment (from then) to exit on its own, so its last
        stderr is flushed. Called by close() in the owner thread, or once that thread is gone."""
        eof_at = self._eof_at if self._eof_at is not None else self._close_stdin()
        if self._exit_fd is not None and self._proc.returncode is None:
            left_ms = _EXIT_GRACE_MS - (_now() - eof_at) * 1000
            if left_ms > 0:
                waiting = select.poll()
                waiting.register(self._exit_fd, select.POLLIN)
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
            remove_own_folder(self._own_folder)
        for _ in range(_STDERR_PIPE_BYTES // READ_CHUNK + 1):
            if not self._stderr_open or not self._poll_err.poll(0):
                break
            self._drain_stderr()            # what it wrote after its last answer ([PDATA] too)
        for stream in (self._stdin, self._stdout, self._stderr):
            try:
                stream.close()
            except OSError:
                pass
        with self._tick_lock:
            self._cpu.close()
            for name in ("_statm_fd", "_exit_fd"):
                fd = getattr(self, name)
                if fd is not None:
                    setattr(self, name, None)
                    try:
                        os.close(fd)
                    except OSError:
                        pass

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _start(argv: list[str], name: str, cwd: str | None, environment: dict[str, str],
           sandboxed: bool, marker: bytes, stdout: int
           ) -> tuple[StartedBot, cgroup.BotCgroup | cgroup.CgroupMove | None]:
    """Start the bot inside a cgroup of its own where one can be made (see ``spawn``), or
    moved in just after it started where it cannot be started inside (or ``_ENTER_AT_START``
    is off: the benchmark's older way); the cgroup, or the move under way, or None."""
    group = cgroup.new_bot_cgroup()
    try:
        started = start_bot(argv, name, cwd, environment, sandboxed,
                            group.procs if group is not None and _ENTER_AT_START else None,
                            stdout)
    except BaseException:
        if group is not None:
            group.remove()
        raise
    if group is None or started.in_cgroup:
        return started, group
    return started, cgroup.CgroupMove(started.process.pid, marker, into=group)


def _thread_alive(ident: int) -> bool:
    return any(thread.ident == ident for thread in threading.enumerate())


def _pipes(process: subprocess.Popen[bytes] | StartedChild, stdout_fd: int | None
           ) -> tuple[IO[bytes], IO[bytes], IO[bytes]]:
    """The bot's stdin, stdout and stderr: ``spawn`` opens the pipes (Popen types them optional),
    ``stdout_fd`` is the reading end of the stdout we gave, if we gave one."""
    stdout = process.stdout if stdout_fd is None else open(stdout_fd, "rb", buffering=0)
    if process.stdin is None or stdout is None or process.stderr is None:
        raise AssertionError("a bot is started with three pipes")
    return process.stdin, stdout, process.stderr


def close_all() -> None:
    """End every bot process still open in this harness (on interruption and at exit)."""
    with _live_lock:
        bots = list(_live)
    for bot in bots:
        bot.end_input()
    for bot in bots:
        bot.close()

