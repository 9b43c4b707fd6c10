"""``--sandbox``: each bot under bubblewrap (``bwrap``, Debian's ``bubblewrap``), no home-made jail.

A sandboxed bot has its own PID namespace, in which it is PID 1 (``--as-pid-1``):
it sees no other process in ``/proc``, and every process it starts dies with it.
It has no network (an empty network namespace), its own IPC and host name, a new
session (no terminal to inject keystrokes into), a read-only view of the whole
filesystem except its own working folder (a fresh temporary folder, removed
when the bot ends, or the ``cwd`` given; also its ``TMPDIR``), and it is killed
if its bwrap or the harness dies (``--die-with-parent``). Bot paths relative to
the harness's folder are made absolute, since the bot runs in its own folder.

``--die-with-parent`` is a parent-death signal, which fires when the *thread*
that started bwrap ends; sandboxed bots are therefore started from one
long-lived thread of this module, not from the game threads that come and go.
"""
from __future__ import annotations

import json
import os
import queue
import select
import shutil
import subprocess
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from referee.api import UsageError

INSTALL_HINT = "install it with: apt-get install bubblewrap (Debian/Ubuntu; dnf/pacman: bubblewrap)"
_NAMESPACES = ("--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
               "--unshare-cgroup-try")
_checked: str | None = None
_T = TypeVar("_T")


def bwrap_program() -> str | None:
    return shutil.which("bwrap")


def check_available() -> str:
    """The bwrap program, after one trial run here; UsageError (one line) when it is missing
    or cannot create its namespaces on this machine."""
    global _checked
    if _checked:
        return _checked
    program = bwrap_program()
    if program is None:
        raise UsageError("--sandbox needs bubblewrap (bwrap), which is not installed: "
                         + INSTALL_HINT)
    trial = subprocess.run([program, *_NAMESPACES, "--ro-bind", "/", "/", "--", "true"],
                           capture_output=True, text=True)
    if trial.returncode != 0:
        reason = (trial.stderr.strip().splitlines() or [f"exit status {trial.returncode}"])[-1]
        raise UsageError(f"--sandbox: bwrap cannot run here ({reason}); it needs unprivileged user "
                         "namespaces (sysctl kernel.unprivileged_userns_clone=1) or root")
    _checked = program
    return program


def sandboxed_argv(argv: list[str], folder: str, info_fd: int | None = None,
                   chdir: str | None = None) -> list[str]:
    """bwrap's command line running ``argv`` in ``chdir`` (default: ``folder``, the one folder it
    may write), writing its JSON info to ``info_fd`` where one is given."""
    program = check_available()
    words = [os.path.abspath(word) if not word.startswith("-") and os.sep in word
             and os.path.exists(word) else word for word in argv]
    info = ["--info-fd", str(info_fd)] if info_fd is not None else []
    return [program, *_NAMESPACES, "--die-with-parent", "--new-session", "--as-pid-1",
            "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
            "--bind", folder, folder, "--chdir", chdir or folder, "--setenv", "TMPDIR", folder,
            *info, "--", *words]


def read_child_pid(info_read_fd: int, timeout_s: float = 10.0) -> int | None:
    """The sandboxed bot's pid (in our namespace) from bwrap's ``--info-fd`` JSON; None if bwrap
    failed before starting it."""
    data = b""
    waiting = select.poll()
    waiting.register(info_read_fd, select.POLLIN)
    while waiting.poll(timeout_s * 1000):
        chunk = os.read(info_read_fd, 4096)
        if not chunk:
            break
        data += chunk
        try:
            return int(json.loads(data)["child-pid"])
        except (ValueError, KeyError, TypeError):
            continue
    return None


_Call = tuple[Callable[[], Any], list[Any], threading.Event]   # (call, its outcome, done)


class _Spawner:
    """One long-lived daemon thread that runs the calls given to :meth:`run` (bwrap's
    parent-death signal is tied to it, and it lives as long as the harness)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._calls: queue.SimpleQueue[_Call] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def run(self, call: Callable[[], _T]) -> _T:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name="botarena-spawner",
                                                daemon=True)
                self._thread.start()
        done = threading.Event()
        outcome: list[Any] = []
        self._calls.put((call, outcome, done))
        done.wait()
        result: _T | BaseException = outcome[0]
        if isinstance(result, BaseException):
            raise result
        return result

    def _serve(self) -> None:
        while True:
            call, outcome, done = self._calls.get()
            try:
                outcome.append(call())
            except BaseException as error:      # handed to the caller's thread
                outcome.append(error)
            done.set()


spawner = _Spawner()
