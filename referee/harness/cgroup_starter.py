"""A small process that starts bots directly inside their cgroup: ``clone3(CLONE_INTO_CGROUP)``.

A process created into a cgroup by ``clone3`` never moves: the kernel places it there as it is
made, under the read side of the lock that a write to ``cgroup.procs`` takes for writing. That
write, the other way in, waits for an RCU grace period when no move happened in the last few
tens of milliseconds (5-15 ms measured here, see ``botarena bench spawn``), and every game of a
match starts after such a spell. Neither Python (3.11) nor glibc (before 2.39) offers
``CLONE_INTO_CGROUP``, and calling ``clone3`` through ctypes from the harness would run Python
in the child of a large process with threads (the hazards and cost of a fork). So one helper
per harness, this file run as a script (``python -I -S cgroup_starter.py FD``), small and
single-threaded, makes the bots: for each request on its socket (argv, environment, working
folder, the program's path, the cgroup's folder, and the bot's three pipe ends as descriptors)
it calls ``clone3`` with ``CLONE_INTO_CGROUP`` (the child is in the cgroup from its first
instruction), ``CLONE_PARENT`` (the bot is the harness's child, waited for by the harness as if
it had started it); it answers with the pid at once, while the child goes on to its program
(the fewest wake-ups between harness and helper: each one waits for a CPU on a loaded machine).
The child gives its pipes the numbers 0, 1 and 2, leads a session of its own (no controlling
terminal), takes the signal dispositions a bot gets from ``subprocess`` (the terminal's signals
ignored only where the harness ignores them, SIGPIPE and SIGXFSZ to their default), enters the
working folder and execs the program with the environment given; everything else it holds is
close-on-exec. The answer is the bot's pid, or why it did not start.

The helper is not dumpable (bots cannot ptrace it or open its descriptors through ``/proc``),
ignores the terminal's signals, and exits when its socket reaches end of file (the harness
exited or died). Where it cannot work (no ``clone3``, as under some container seccomp profiles;
a kernel before 5.7; a cgroup that cannot be opened) the harness starts the bot through the
shell of :mod:`referee.harness.spawn` instead, which enters the cgroup by writing its pid.

Used with ``BOTARENA_CLONE_INTO_CGROUP=1`` (:mod:`referee.harness.spawn`): whole matches of
instant bots measured slower this way at load 17-27, for a reason not yet found, though each
game's start is faster (``docs/benchmarks.md``).

This file runs as a script and imports nothing from the project.
"""
from __future__ import annotations

import array
import ctypes
import errno
import marshal
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import IO

_SYS_CLONE3 = 435                   # the same number on every architecture since Linux 5.3
_CLONE_PARENT = 0x00008000
_CLONE_INTO_CGROUP = 0x200000000
_PR_SET_DUMPABLE = 4
_MAX_REQUEST_BYTES = 1 << 20
# argv, environment, working folder, the program's path, the cgroup's folder, the signals of
# _TERMINAL_SIGNALS the harness ignores (a bot inherits that, as from subprocess)
Request = tuple[list[str], dict[str, str], str | None, str, str, list[int]]
_TERMINAL_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_RESTORED_SIGNALS = (signal.SIGPIPE, signal.SIGXFSZ)     # subprocess's restore_signals
# Failures that say this kernel (or its seccomp filter) cannot do it at all, for any bot.
UNSUPPORTED = frozenset({errno.ENOSYS, errno.EINVAL, errno.E2BIG, errno.EPERM})


_lock = threading.Lock()
_channel: socket.socket | None = None
_started = False


def available() -> bool:
    """Start the helper once (False where it cannot start, or has stopped working)."""
    global _channel, _started
    with _lock:
        if not _started:
            _started = True
            helper = _start_helper()
            _channel = None if helper is None else helper[0]
        return _channel is not None


def _start_helper() -> tuple[socket.socket, subprocess.Popen[bytes]] | None:
    """The helper process and our end of its socket (None where it cannot start)."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        helper = subprocess.Popen([sys.executable, "-I", "-S", os.path.abspath(__file__),
                                   str(theirs.fileno())], stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  close_fds=True, pass_fds=(theirs.fileno(),), process_group=0)
    except OSError:
        ours.close()
        return None
    finally:
        theirs.close()
    return ours, helper


def turn_off() -> None:
    """Start no more bots through the helper (it ends when its socket closes)."""
    global _channel, _started
    with _lock:
        _started = True
        if _channel is not None:
            _channel.close()
            _channel = None


def start_in_cgroup(argv: list[str], program: str, environment: dict[str, str],
                    cwd: str | None, cgroup_folder: str, stdout: int = subprocess.PIPE
                    ) -> StartedChild | None:
    """Start ``program`` (argv ``argv``) inside ``cgroup_folder`` through the helper, with new
    pipes on stdin and stderr and ``stdout`` (a new pipe, or the writing end of one given, which
    stays the caller's to close): the started child (which exits with status 127 and one line on
    its stderr if the program cannot be executed after all: the caller looked it up); or None
    where the helper could not do it (start it another way)."""
    if not available():
        return None
    ignored = [int(number) for number in _TERMINAL_SIGNALS
               if signal.getsignal(number) == signal.SIG_IGN]
    request = marshal.dumps((argv, environment, cwd, program, cgroup_folder, ignored))
    stdin_read, stdin_write = os.pipe()
    stderr_read, stderr_write = os.pipe()
    stdout_read: int | None = None
    if stdout == subprocess.PIPE:
        stdout_read, stdout_write = os.pipe()
    else:
        stdout_write = stdout
    try:
        answer = _ask(request, (stdin_read, stdout_write, stderr_write))
    finally:
        for fd in (stdin_read, stderr_write) + (() if stdout_read is None else (stdout_write,)):
            os.close(fd)                        # the child's ends: its alone now
    pid, number, stage = answer if answer is not None else (0, 0, "")
    if pid and not number:
        return StartedChild(pid, stdin_write, stdout_read, stderr_read)
    for fd in (stdin_write, stderr_read) + (() if stdout_read is None else (stdout_read,)):
        os.close(fd)
    if stage in ("clone", "request") and number in UNSUPPORTED or answer is None:
        turn_off()
    return None


def _ask(request: bytes, fds: tuple[int, ...]) -> tuple[int, int, str] | None:
    with _lock:
        channel = _channel
        if channel is None:
            return None
        try:
            socket.send_fds(channel, [request], list(fds))
            answer = marshal.loads(channel.recv(256))
        except (OSError, ValueError, EOFError, TypeError):
            return None                         # gone, or a request too large for the socket
    pid, number, stage = answer
    return int(pid), int(number), str(stage)


class StartedChild:
    """A child started by the helper, as much of ``subprocess.Popen`` as the harness uses:
    ``pid``, the pipes it made (unbuffered; ``stdout`` None where one was given), ``poll``,
    ``wait`` and ``returncode``. (The helper made it with ``CLONE_PARENT``: it is this process's
    child.)"""

    def __init__(self, pid: int, stdin_fd: int, stdout_fd: int | None, stderr_fd: int):
        self.pid = pid
        self.returncode: int | None = None
        self.stdin: IO[bytes] = open(stdin_fd, "wb", buffering=0)
        self.stdout: IO[bytes] | None = None if stdout_fd is None else open(stdout_fd, "rb",
                                                                            buffering=0)
        self.stderr: IO[bytes] = open(stderr_fd, "rb", buffering=0)
        self._wait_lock = threading.Lock()

    def poll(self) -> int | None:
        if self.returncode is None and self._wait_lock.acquire(blocking=False):
            try:
                self._reap(os.WNOHANG)
            finally:
                self._wait_lock.release()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """The exit code (negative: the signal), as Popen's; TimeoutExpired after ``timeout``."""
        deadline = None if timeout is None else time.monotonic() + timeout
        delay = 0.0005
        while self.poll() is None:
            if deadline is not None and time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired(str(self.pid), timeout or 0.0)
            left = 0.05 if deadline is None else deadline - time.monotonic()
            time.sleep(max(0.0, min(delay, left, 0.05)))
            delay *= 2
        return self.returncode or 0

    def _reap(self, options: int) -> None:
        try:
            pid, status = os.waitpid(self.pid, options)
        except ChildProcessError:
            self.returncode = 0 if self.returncode is None else self.returncode
            return                              # waited for elsewhere
        if pid == self.pid:
            self.returncode = os.waitstatus_to_exitcode(status)


# -- the helper process -----------------------------------------------------------------------

class _CloneArgs(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint64) for name in (
        "flags", "pidfd", "child_tid", "parent_tid", "exit_signal", "stack", "stack_size", "tls",
        "set_tid", "set_tid_size", "cgroup")]


def _receive(channel: socket.socket) -> tuple[bytes, list[int]]:
    """One request and the descriptors it carries, close-on-exec here (socket.recv_fds drops
    its flags argument)."""
    fds = array.array("i")
    data, ancillary, _flags, _address = channel.recvmsg(
        _MAX_REQUEST_BYTES, socket.CMSG_LEN(3 * fds.itemsize), socket.MSG_CMSG_CLOEXEC)
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[:len(payload) - len(payload) % fds.itemsize])
    return data, list(fds)


def _exec_in_child(request: Request, pipes: list[int]) -> None:
    """In the new process: pipes on 0, 1, 2, a session, the folder, the program; or one line on
    its stderr and exit status 127 where the program cannot be executed. Never returns."""
    argv, environment, folder, program, _cgroup, ignored = request
    try:
        for number in _TERMINAL_SIGNALS + _RESTORED_SIGNALS:   # ours are not the bot's
            signal.signal(number, signal.SIG_IGN if number in ignored else signal.SIG_DFL)
        for target, fd in enumerate(pipes):
            os.dup2(fd, target)                 # the copy on 0-2 is inheritable, the rest closes
        os.setsid()
        if folder is not None:
            os.chdir(folder)
        os.execve(program, argv, environment)
    except OSError as error:
        os.write(2, f"botarena: cannot run {program}: {error.strerror}\n".encode(errors="replace"))
    finally:
        os._exit(127)


def start(clone3: Callable[[object, int], int], request: Request, pipes: list[int]
          ) -> tuple[int, int, str]:
    """(pid, 0, "") of the bot started, or (0, errno, stage) of what failed: stage ``cgroup``
    (the folder could not be opened) or ``clone`` (clone3 refused)."""
    try:
        group = os.open(request[4], os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as error:
        return 0, error.errno or errno.EIO, "cgroup"
    try:
        arguments = _CloneArgs(flags=_CLONE_INTO_CGROUP | _CLONE_PARENT, cgroup=group)
        pid = clone3(ctypes.byref(arguments), ctypes.sizeof(arguments))
        if pid == 0:
            _exec_in_child(request, pipes)
        if pid < 0:
            return 0, ctypes.get_errno() or errno.EIO, "clone"
        return pid, 0, ""
    finally:
        os.close(group)


def main(argv: list[str]) -> None:
    for number in _TERMINAL_SIGNALS + (signal.SIGPIPE,):
        signal.signal(number, signal.SIG_IGN)   # only the end of the socket ends the helper
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
    clone3 = libc.syscall
    clone3.restype = ctypes.c_long
    clone3.argtypes = [ctypes.c_long, ctypes.c_void_p, ctypes.c_size_t]
    channel = socket.socket(fileno=int(argv[1]))
    os.set_inheritable(channel.fileno(), False)

    def call(args: object, size: int) -> int:
        return int(clone3(_SYS_CLONE3, args, size))

    while True:
        try:
            data, pipes = _receive(channel)
        except InterruptedError:
            continue
        except OSError:
            return
        if not data:
            return                              # the harness is gone
        try:
            answer = start(call, marshal.loads(data), pipes)
        except (ValueError, EOFError, TypeError, IndexError):
            answer = (0, errno.EINVAL, "request")
        finally:
            for fd in pipes:
                os.close(fd)
        try:
            channel.send(marshal.dumps(answer))
        except OSError:
            return


if __name__ == "__main__":
    main(sys.argv)
