"""Finding, killing and reaping every process a bot started, from ``/proc`` (stdlib only).

A bot runs in a session and a process group of its own (its pid is their id) and
carries a marker in its environment that its children inherit. Its processes are: its
descendants, the members of its group and of any session it created, and every
process started since the bot that carries its marker, which catches children
that called ``setsid`` and double-forked, wherever they were reparented. The
command line also makes itself a child subreaper (:func:`become_subreaper`), so
such orphans become its children and are reaped by it rather than left to init
(not done for library use: it would also adopt, as zombies, the orphans of
unrelated subprocesses). Off Linux only the process group is killed.
"""
from __future__ import annotations

import ctypes
import errno
import os
import signal
import time
from collections.abc import Iterable

MARKER_VARIABLE = "BOTARENA_BOT"
_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_DUMPABLE = 4
_HAVE_PROC = os.path.isdir("/proc/self")
_subreaper = False


def become_subreaper() -> bool:
    """Make orphaned descendants reparent to this process (Linux); True if it is one."""
    global _subreaper
    if _subreaper:
        return True
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        _subreaper = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        _subreaper = False
    return _subreaper


def set_not_dumpable() -> bool:
    """Make this process non-dumpable (Linux): ``/proc/<pid>/{mem,fd,environ}`` of the harness
    are then closed to its bots (unless they run as root), and nothing can ptrace it."""
    try:
        status: int = ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
        return status == 0
    except (OSError, AttributeError):
        return False


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return b""


def process_table() -> dict[int, tuple[int, int, int, str, int]]:
    """pid -> (parent pid, process group, session, state letter, start time in clock ticks)
    for every visible process."""
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        raw = _read(f"/proc/{name}/stat")
        cut = raw.rfind(b")")
        if cut < 0:
            continue
        fields = raw[cut + 2:].split(None, 20)
        try:
            table[int(name)] = (int(fields[1]), int(fields[2]), int(fields[3]),
                                fields[0].decode("ascii", "replace"), int(fields[19]))
        except (IndexError, ValueError):
            continue
    return table


def _has_marker(pid: int, marker: bytes) -> bool:
    return marker in _read(f"/proc/{pid}/environ")


def start_ticks(pid: int) -> int:
    """When ``pid`` started, in clock ticks since boot (0 if unknown)."""
    raw = _read(f"/proc/{pid}/stat")
    try:
        return int(raw[raw.rfind(b")") + 2:].split(None, 20)[19])
    except (IndexError, ValueError):
        return 0


def bot_processes(root: int, marker: str | None, since: int = 0) -> dict[int, str]:
    """The bot's processes still in the process table (pid -> state letter), ``root`` included.

    Starts from ``root``, its session and the orphans carrying its marker, then
    adds descendants and session mates until nothing changes (the session of a
    daemon catches the zombie it double-forked from).
    """
    table = process_table()
    needle = f"{MARKER_VARIABLE}={marker}\0".encode()
    me = os.getpid()
    own_session = os.getsid(0)
    found = {pid for pid, (ppid, group, session, _, _) in table.items()
             if pid == root or group == root or session == root}
    for pid, (_, _, _, state, started) in table.items():
        # orphans that left the group and session, wherever they were reparented: they
        # started after the bot (``since``) and carry its marker
        if marker and pid not in found and started >= since and state != "Z" and pid != me \
                and _has_marker(pid, needle):
            found.add(pid)
    while True:
        sessions = {table[pid][2] for pid in found if pid in table} - {own_session, 0}
        grown = {pid for pid, (ppid, _, session, _, _) in table.items()
                 if pid not in found and (ppid in found or session in sessions)}
        if not grown:
            break
        found |= grown
    return {pid: table[pid][3] for pid in found if pid in table}


def kill_tree(pid: int, marker: str | None = None, since: int = 0) -> None:
    """SIGKILL ``pid``'s process group and every process of that bot; reap the orphans we adopted.

    Repeats the scan a few times so that processes forked while we were killing
    are caught too. ``pid`` itself is left for its parent to reap.
    """
    signal_group(pid)
    if not _HAVE_PROC:
        return
    seen: set[int] = set()
    for _ in range(5):
        victims = bot_processes(pid, marker, since)
        seen.update(victims)
        alive = [victim for victim, state in victims.items() if state != "Z"]
        if not alive:
            break
        for victim in alive:
            try:
                os.kill(victim, signal.SIGKILL)
            except OSError:
                pass
            signal_group(victim)
    if seen - {pid}:
        reap(seen - {pid}, dying=seen | {pid})


def signal_group(pid: int) -> None:
    """SIGKILL the process group ``pid`` (gone already: nothing)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError as error:
        if error.errno not in (errno.ESRCH, errno.EPERM):
            raise


def _parent(pid: int) -> int:
    raw = _read(f"/proc/{pid}/stat")
    cut = raw.rfind(b")")
    try:
        return int(raw[cut + 2:].split(None, 2)[1])
    except (IndexError, ValueError):
        return -1


def reap(pids: set[int], dying: set[int], timeout_s: float = 1.0) -> None:
    """Collect the exit status of killed processes that are (or are becoming) our children.

    A killed process's children are handed to us (the subreaper) when it dies,
    so a pid whose parent is another dying victim is waited for.
    """
    me = os.getpid()
    deadline = time.monotonic() + timeout_s
    pending = set(pids)
    while pending:
        for pid in list(pending):
            parent = _parent(pid)
            if parent == me:
                try:
                    if os.waitpid(pid, os.WNOHANG)[0]:
                        pending.discard(pid)
                except ChildProcessError:
                    pending.discard(pid)
            elif parent not in dying:
                pending.discard(pid)            # gone, or someone else's to reap
        if not pending or time.monotonic() > deadline:
            return
        time.sleep(0.001)


def descendants(root: int) -> list[int]:
    """``root`` and its descendants, from the cheap ``/proc/PID/task/TID/children`` lists."""
    found, stack = [root], [root]
    while stack:
        pid = stack.pop()
        try:
            threads = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for thread in threads:
            for word in _read(f"/proc/{pid}/task/{thread}/children").split():
                child = int(word)
                if child not in found:
                    found.append(child)
                    stack.append(child)
    return found


def resident_bytes(pids: Iterable[int]) -> int:
    """Sum of the resident memory of ``pids`` (from /proc/PID/statm)."""
    page = os.sysconf("SC_PAGE_SIZE")
    total = 0
    for pid in pids:
        fields = _read(f"/proc/{pid}/statm").split()
        if len(fields) > 1:
            total += int(fields[1]) * page
    return total
