"""The only code that starts and talks to a bot process.

A bot runs from an argv list (never a shell) in a session of its own. The harness
writes a turn's input lines, then reads one answer line against a deadline that
starts when the input was flushed and stops at the answer's newline. stdout is
read by the calling thread with ``poll``; stderr is drained by a thread of its
own so that a bot that floods it never blocks. ``close()`` ends the whole
process tree and is idempotent.
"""
from __future__ import annotations

import errno
import os
import select
import signal
import subprocess
import threading
import time
import weakref
from dataclasses import dataclass

import psutil

from referee.api import Fault, UsageError

MAX_LINE_CHARS = 4096           # longest answer line accepted (a game may set less)
STDERR_TAIL_BYTES = 4096        # stderr kept per turn (the tail)
DEFAULT_MEMORY_MB = 768         # as on CodinGame
_READ_CHUNK = 65536
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

_live: "weakref.WeakSet[BotProcess]" = weakref.WeakSet()


class BotFault(Exception):
    """A bot misbehaved: the match loop records it as a fault of that bot."""

    def __init__(self, kind: Fault, detail: str):
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


class BotStartError(UsageError):
    """A bot command cannot be started at all (missing file, no run bit, unknown program)."""


@dataclass(frozen=True, slots=True)
class Answer:
    line: str
    latency_ms: float
    cpu_ms: float | None


class BotProcess:
    """One running bot. Use as a context manager or call ``close()``."""

    def __init__(self, argv: list[str], *, name: str = "", cwd: str | None = None,
                 env: dict[str, str] | None = None, memory_mb: int | None = DEFAULT_MEMORY_MB,
                 max_line_chars: int = MAX_LINE_CHARS, stderr_tail_bytes: int = STDERR_TAIL_BYTES):
        self.argv = list(argv)
        self.name = name or " ".join(argv)
        self.max_line_chars = max_line_chars
        self.memory_mb = memory_mb
        self._stderr_cap = stderr_tail_bytes
        self._buffer = bytearray()
        self._closed = False
        self._stderr_lock = threading.Lock()
        self._stderr_tail = bytearray()
        self.stderr_total_bytes = 0
        self.pdata: dict[str, str] = {}
        self._cpu_last = 0.0
        try:
            self._proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                bufsize=0, cwd=cwd, env=env, start_new_session=True, close_fds=True)
        except FileNotFoundError:
            raise BotStartError(f"cannot start bot {self.name!r}: {argv[0]!r} not found "
                                "(check the path, or give a built-in bot's name)") from None
        except PermissionError:
            raise BotStartError(f"cannot start bot {self.name!r}: {argv[0]!r} is not executable "
                                f"(chmod +x {argv[0]}, or run it through its interpreter)") from None
        except OSError as error:
            raise BotStartError(f"cannot start bot {self.name!r}: {error.strerror} "
                                f"({argv[0]!r})") from None
        _live.add(self)
        self.pid = self._proc.pid
        self._apply_memory_limit()
        self._stdin_fd = self._proc.stdin.fileno()
        self._stdout_fd = self._proc.stdout.fileno()
        os.set_blocking(self._stdin_fd, False)
        os.set_blocking(self._stdout_fd, False)
        self._poll_out = select.poll()
        self._poll_out.register(self._stdout_fd, select.POLLIN)
        self._poll_in = select.poll()
        self._poll_in.register(self._stdin_fd, select.POLLOUT)
        self._stat_fd = self._open_stat()
        self._drain = threading.Thread(target=self._drain_stderr, name=f"stderr-{self.pid}", daemon=True)
        self._drain.start()

    # -- set-up ----------------------------------------------------------------
    def _apply_memory_limit(self) -> None:
        if not self.memory_mb:
            return
        limit = self.memory_mb * 1024 * 1024
        try:
            psutil.Process(self.pid).rlimit(psutil.RLIMIT_AS, (limit, limit))
        except (psutil.Error, AttributeError, ValueError, OSError):
            pass                            # the bot already exited, or no rlimit here

    def _open_stat(self) -> int | None:
        try:
            return os.open(f"/proc/{self.pid}/stat", os.O_RDONLY)
        except OSError:
            return None

    def _cpu_seconds(self) -> float | None:
        if self._stat_fd is None:
            return None
        try:
            raw = os.pread(self._stat_fd, 1024, 0)
        except OSError:
            return None
        fields = raw[raw.rfind(b")") + 2:].split()
        return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS   # utime + stime

    # -- stderr ----------------------------------------------------------------
    def _drain_stderr(self) -> None:
        fd = self._proc.stderr.fileno()
        carry = b""
        while True:
            try:
                chunk = os.read(fd, _READ_CHUNK)
            except OSError:
                return
            if not chunk:
                return
            with self._stderr_lock:
                self.stderr_total_bytes += len(chunk)
                self._stderr_tail += chunk
                if len(self._stderr_tail) > self._stderr_cap:
                    del self._stderr_tail[:-self._stderr_cap]
            text = carry + chunk
            cut = text.rfind(b"\n")
            complete, carry = (text[:cut], text[cut + 1:]) if cut >= 0 else (b"", text)
            carry = carry[-1024:]
            if b"[PDATA]" in complete:
                self._parse_pdata(complete)

    def _parse_pdata(self, block: bytes) -> None:
        for raw in block.split(b"\n"):
            start = raw.find(b"[PDATA]")
            if start < 0:
                continue
            key, sep, value = raw[start + 7:].decode("utf-8", "replace").partition("=")
            if sep and key.strip():
                self.pdata[key.strip()] = value.strip()

    def take_stderr(self) -> str:
        """The stderr tail written since the last call (decoded leniently)."""
        with self._stderr_lock:
            tail = bytes(self._stderr_tail)
            self._stderr_tail.clear()
        return tail.decode("utf-8", "replace")

    # -- the turn --------------------------------------------------------------
    def send(self, lines: list[str], timeout_s: float) -> float:
        """Write a turn's lines; return the perf_counter time the last byte was written."""
        self._check_no_unrequested_output()
        data = ("\n".join(lines) + "\n").encode()
        deadline = time.perf_counter() + timeout_s
        view = memoryview(data)
        while view:
            try:
                written = os.write(self._stdin_fd, view)
                view = view[written:]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, ConnectionResetError):
                raise BotFault(Fault.CRASH, self._exit_detail("stopped reading its input")) from None
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise BotFault(Fault.TIMEOUT, "did not read its input in time (stdin pipe full)")
            self._poll_in.poll(remaining * 1000)
        return time.perf_counter()

    def _check_no_unrequested_output(self) -> None:
        if self._buffer or self._poll_out.poll(0):
            self._fill_once()
            if self._buffer:
                extra = bytes(self._buffer[:60]).decode("utf-8", "replace")
                raise BotFault(Fault.BAD_OUTPUT, f"wrote output when none was expected: {extra!r}")

    def _fill_once(self) -> bool:
        """Read what stdout has now; False on end of file."""
        try:
            chunk = os.read(self._stdout_fd, _READ_CHUNK)
        except BlockingIOError:
            return True
        except OSError:
            return False
        if not chunk:
            return False
        self._buffer += chunk
        return True

    def read_line(self, started: float, timeout_s: float) -> Answer:
        """The next answer line, due ``timeout_s`` after ``started`` (a perf_counter time)."""
        deadline = started + timeout_s
        buffer = self._buffer
        while True:
            newline = buffer.find(b"\n")
            if newline >= 0:
                finished = time.perf_counter()
                break
            if len(buffer) > self.max_line_chars:
                raise BotFault(Fault.BAD_OUTPUT, f"answer line longer than {self.max_line_chars} "
                                                 "characters")
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                partial = f" (partial line {bytes(buffer[:40]).decode('utf-8', 'replace')!r})" \
                    if buffer else ""
                raise BotFault(Fault.TIMEOUT, f"no answer within {timeout_s * 1000:.0f} ms{partial}")
            if self._poll_out.poll(max(remaining * 1000, 0.01)) and not self._fill_once():
                raise BotFault(Fault.CRASH, self._exit_detail("closed its stdout"))
        raw = bytes(buffer[:newline])
        del buffer[:newline + 1]
        latency_ms = (finished - started) * 1000
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if len(raw) > self.max_line_chars:
            raise BotFault(Fault.BAD_OUTPUT, f"answer line longer than {self.max_line_chars} characters")
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BotFault(Fault.BAD_OUTPUT, f"answer is not UTF-8: {raw[:40]!r}") from None
        if buffer:
            extra = bytes(buffer[:60]).decode("utf-8", "replace")
            raise BotFault(Fault.BAD_OUTPUT, f"answered more than one line (extra: {extra!r})")
        cpu_ms = None
        cpu = self._cpu_seconds()
        if cpu is not None:
            cpu_ms, self._cpu_last = (cpu - self._cpu_last) * 1000, cpu
        return Answer(line, latency_ms, cpu_ms)

    def _exit_detail(self, alive_text: str) -> str:
        try:
            code = self._proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            return alive_text
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            detail = f"killed by {name}"
        else:
            detail = f"exited with code {code}"
        self._drain.join(timeout=0.2)
        last = self._last_stderr_line()
        if "MemoryError" in last and self.memory_mb:
            return f"memory limit ({self.memory_mb} MB) exceeded: {detail}"
        return f"{detail}: {last}" if last else detail

    def _last_stderr_line(self) -> str:
        with self._stderr_lock:
            text = bytes(self._stderr_tail).decode("utf-8", "replace")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        return lines[-1][:200] if lines else ""

    # -- the end ---------------------------------------------------------------
    def close(self) -> None:
        """End the bot and every process it started. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        _live.discard(self)
        kill_tree(self.pid)
        try:
            self._proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self._proc.stdin, self._proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self._drain.join(timeout=1)
        try:
            self._proc.stderr.close()
        except OSError:
            pass
        if self._stat_fd is not None:
            os.close(self._stat_fd)
            self._stat_fd = None

    def __enter__(self) -> "BotProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def kill_tree(pid: int) -> None:
    """SIGKILL ``pid``, its process group and every descendant psutil can still see."""
    victims: list[psutil.Process] = []
    try:
        root = psutil.Process(pid)
        victims = root.children(recursive=True)
        victims.append(root)
    except psutil.Error:
        pass
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError as error:
        if error.errno not in (errno.ESRCH, errno.EPERM):
            raise
    for victim in victims:
        try:
            victim.kill()
        except psutil.Error:
            pass


def close_all() -> None:
    """End every bot process still open in this harness (on interruption)."""
    for bot in list(_live):
        bot.close()
