"""When an answer arrived, told by the kernel: a bot's stdout is a FIFO, whose time of last
change the kernel stamps at each write.

The harness reads an answer when it gets the CPU. On an overloaded machine that can be long
after the bot wrote it, so the time the harness found an answer says nothing of whether it came
in time. The kernel does: every write into a FIFO stamps the FIFO's inode (its mtime), whoever
reads it and whenever. An anonymous pipe's inode is not stamped (Linux 6.x), so the bot's stdout
is a named FIFO, made in a private folder (mode 0700, named to the guardian so that nothing is
left if botarena is killed) and unlinked at once: only its two open ends remain.

A stamp is the kernel's coarse clock, which lags real time by about a tick (4 ms at HZ=250;
up to 7.3 ms was measured at load 28 on a 2-core VM, whose ticks come late; filesystems with
multigrain timestamps are sometimes exact), so the write happened in ``[stamp, stamp + window]``:
an answer whose stamp is past its deadline surely came late, one whose window closes before the
deadline came in time, and one whose window holds the deadline cannot be told apart
(``Arrival.UNCERTAIN``), nor one on a pipe with no stamp.

The kernel stamps a write after its data is in the FIFO and its reader is woken, so a reader may
find the answer before its stamp: the harness clears the stamp (to 0) when it sends a turn's
input, and a stamp still clear when an answer is judged is waited for a moment, then called
unknown (never the previous answer's stamp taken for this one's).
"""
from __future__ import annotations

import enum
import os
import secrets
import shutil
import tempfile
import threading
import time

from referee.harness import guardian

_CLOCK_REALTIME_COARSE = 5          # Linux's clock id (the time module names it on few builds)
_SHARED_MEMORY = "/dev/shm"         # a tmpfs: FIFOs there cost no disk


def _coarse_tick_s() -> float:
    try:
        return time.clock_getres(_CLOCK_REALTIME_COARSE)
    except (AttributeError, OSError):
        return 0.01                 # (not Linux: no stamped FIFOs anyway)


# the write happened at most this long after its stamp: three ticks of the coarse clock (a
# tick can be handled late: up to 1.8 ticks was seen under load), and a millisecond for the clocks
WINDOW_S = 3 * _coarse_tick_s() + 0.001
_CLEARED_NS = 0                     # the stamp as the harness clears it (see clear)
_PENDING_WAIT_S = 0.002             # how long a cleared stamp is waited for


class Arrival(enum.Enum):
    IN_TIME = "in time"
    LATE = "late"
    UNCERTAIN = "uncertain"


_lock = threading.Lock()
_folder: str | None = None
_unavailable = False


def _make_folder() -> str | None:
    """The private folder the FIFOs are made in (once per process), or None where none can be."""
    global _folder, _unavailable
    with _lock:
        if _folder is None and not _unavailable:
            parent = _SHARED_MEMORY if os.access(_SHARED_MEMORY, os.W_OK | os.X_OK) \
                else tempfile.gettempdir()
            path = os.path.join(parent, f"{guardian.FOLDER_PREFIX}fifo-{secrets.token_hex(6)}")
            guardian.watch_folder(path)     # told first, made second: nothing is left behind
            try:
                os.mkdir(path, 0o700)
                _folder = path
            except OSError:
                guardian.forget_folder(path)
                _unavailable = True
        return _folder


def stamped_pipe() -> tuple[int, int] | None:
    """A FIFO's reading end (non-blocking) and writing end (blocking, for the bot), both
    close-on-exec, its name already gone; None where no FIFO can be made (then use a pipe)."""
    folder = _make_folder()
    if folder is None:
        return None
    path = os.path.join(folder, secrets.token_hex(8))
    try:
        os.mkfifo(path, 0o600)
    except OSError:
        return None
    try:
        reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            writer = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
        except OSError:
            os.close(reader)
            return None
    except OSError:
        return None
    finally:
        os.unlink(path)
    return reader, writer


def remove_folder() -> None:
    """At exit: the FIFOs' folder (empty: each FIFO was unlinked when it was opened)."""
    global _folder
    with _lock:
        if _folder is not None:
            shutil.rmtree(_folder, ignore_errors=True)
            guardian.forget_folder(_folder)
            _folder = None


def _perf_minus_real() -> float:
    """perf_counter's time minus the real-time clock's, in seconds (the pair read closest)."""
    best_gap, offset = float("inf"), 0.0
    for _ in range(3):
        before = time.perf_counter_ns()
        real = time.time_ns()
        after = time.perf_counter_ns()
        if after - before < best_gap:
            best_gap, offset = after - before, ((before + after) / 2 - real) / 1e9
    return offset


def clear(stdout_fd: int) -> None:
    """Clear the FIFO's stamp: the next write sets it (called before a turn's input goes out)."""
    try:
        os.utime(stdout_fd, ns=(_CLEARED_NS, _CLEARED_NS))
    except OSError:
        pass                        # then a stamp may be an older write's: judged as unknown


def written_at(stdout_fd: int) -> float | None:
    """The perf_counter time of the last write into the FIFO ``stdout_fd`` since it was cleared
    (its stamp: the write happened up to ``WINDOW_S`` later), or None when there is none yet
    (waited for a moment: see the module) or it cannot be read."""
    waited_until = time.perf_counter() + _PENDING_WAIT_S
    try:
        while (stamp_ns := os.fstat(stdout_fd).st_mtime_ns) == _CLEARED_NS:
            if time.perf_counter() > waited_until:
                return None
            os.sched_yield()
    except OSError:
        return None
    return stamp_ns / 1e9 + _perf_minus_real()


def judge(stamp: float | None, deadline: float) -> Arrival:
    """Whether a write stamped ``stamp`` (see ``written_at``) came by ``deadline``."""
    if stamp is None:
        return Arrival.UNCERTAIN
    if stamp > deadline:
        return Arrival.LATE
    return Arrival.IN_TIME if stamp + WINDOW_S <= deadline else Arrival.UNCERTAIN
