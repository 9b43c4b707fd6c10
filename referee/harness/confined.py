"""Running an untrusted program's helper (a compiler) confined as a bot is: for a whole command
that is run to its end, not played turn by turn.

:func:`run_confined` starts ``argv`` through :mod:`referee.harness.enter`, which enters a cgroup
of its own (:mod:`referee.harness.cgroup`, where one can be made) and sets its memory cap
(``RLIMIT_DATA``, inherited by every process it starts) before it execs the command; in a
session and process group of its own, with the bots' environment marker, watched by the
guardian (:mod:`referee.harness.guardian`), so that a harness killed even by SIGKILL leaves
none of its processes running, nor the writable folder it was given (named to the guardian
by the caller, see :func:`make_watched_folder`). Under ``sandboxed``, the command runs in
bubblewrap as a bot does (:mod:`referee.harness.sandbox`): no network, the whole filesystem
read-only but ``writable``. When it ends, runs out of time, or the caller is interrupted,
everything it started is killed.
"""
from __future__ import annotations

import itertools
import os
import select
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass

from referee.harness import cgroup, guardian, sandbox
from referee.harness.process import process_setup
from referee.harness.process_tree import MARKER_VARIABLE, kill_tree, start_ticks

OUTPUT_BYTES = 1 << 18          # of the command's output kept (the first; the rest is read, dropped)
ENTER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "enter.py")
_serial = itertools.count(1)


@dataclass(frozen=True, slots=True)
class Finished:
    """How a confined command ended: ``status`` None when its time ran out (it was killed)."""

    status: int | None
    output: str                 # its stderr and stdout, as they came


def make_watched_folder(parent: str, prefix: str) -> str:
    """A new private folder (0700) in ``parent``, named to the guardian before it is made: a
    harness killed at any moment leaves nothing behind. Remove it with :func:`remove_folder`."""
    process_setup()                             # the guardian, to be told
    return guardian.make_watched_folder(parent, prefix)


def remove_folder(path: str) -> None:
    """Remove a folder of :func:`make_watched_folder`, or forget it (renamed away)."""
    shutil.rmtree(path, ignore_errors=True)
    guardian.forget_folder(path)


def run_confined(argv: list[str], *, cwd: str, writable: str | None, memory_mb: int | None,
                 timeout_s: float, sandboxed: bool = False) -> Finished:
    """Run ``argv`` in ``cwd`` to its end or for ``timeout_s`` at most, confined (see the
    module's docstring); its ``TMPDIR`` is ``writable`` where one is given (``sandboxed``
    needs one: the only folder it may write). OSError when it cannot start."""
    process_setup()
    group = cgroup.new_bot_cgroup()
    marker = f"{os.getpid()}.run{next(_serial)}"
    environment = dict(os.environ, **{MARKER_VARIABLE: marker})
    if writable is not None:
        environment["TMPDIR"] = writable
    if sandboxed and writable is None:
        raise ValueError("a sandboxed run needs a writable folder")
    command = sandbox.sandboxed_argv(argv, writable, chdir=cwd) \
        if sandboxed and writable is not None else argv
    limit = (memory_mb or 0) * 1024 * 1024
    launcher = [sys.executable, "-I", "-S", ENTER, group.procs if group else "-", str(limit), "--"]
    child = sandbox.spawner.run(lambda: subprocess.Popen(
        [*launcher, *command], cwd=cwd, env=environment, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        close_fds=True))
    guardian.watch(child.pid)
    since = start_ticks(child.pid)
    try:
        assert child.stdout is not None
        output, finished = _read_until(child, child.stdout.fileno(), time.monotonic() + timeout_s)
    finally:
        if group is not None:
            group.kill()
        kill_tree(child.pid, marker, since)
        child.kill()
        child.wait()
        if group is not None:
            group.remove()
        guardian.forget(child.pid)
        if child.stdout is not None:
            child.stdout.close()
    return Finished(child.returncode if finished else None,
                    output.decode("utf-8", "replace"))


def _read_until(child: subprocess.Popen[bytes], fd: int, deadline: float) -> tuple[bytes, bool]:
    """The child's output until it exits (True) or the deadline passes (False)."""
    kept = bytearray()
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    open_ = True
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return bytes(kept), False
        if open_:
            if poller.poll(min(remaining, 0.1) * 1000):
                chunk = os.read(fd, 65536)
                if chunk:
                    kept += chunk[:max(0, OUTPUT_BYTES - len(kept))]
                    continue
                open_ = False                   # every writer closed it: the end is near
        if child.poll() is not None:
            return bytes(kept), True            # (what its leftover children write is dropped)
        if not open_:
            time.sleep(min(remaining, 0.01))
