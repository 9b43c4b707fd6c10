"""A cgroup v2 per bot, where one can be created (Linux, root or a delegated subtree).

Every process a bot starts stays in the bot's cgroup whatever it does (``setsid``,
a double fork, an empty environment: the escapes that defeat a process-group or
environment search), and writing ``cgroup.kill`` ends them all at once. The
cgroups of a run live in ``<own cgroup>/botarena.<pid>/bot.<n>``; the run folder
is removed at exit (by :mod:`referee.harness.guardian` if this process is killed).

The bot's cgroup is made before the bot starts (:func:`new_bot_cgroup`), and the bot
is in it from its first instruction: :mod:`referee.harness.spawn` starts it through a shell
that writes its own pid into the cgroup and then execs the bot (or, with
``BOTARENA_CLONE_INTO_CGROUP=1``, has it created there by ``clone3(CLONE_INTO_CGROUP)``,
:mod:`referee.harness.cgroup_starter`), so there is no moment when the bot, or anything it
forks, runs outside. That write moves a process between cgroups, which makes the kernel
wait for an RCU grace period when no move happened in the last few tens of milliseconds
(8-28 ms measured on an idle 2-core VM, 10-16 ms under load, ~0.2 ms right after another
move; none where the cgroup2 mount has ``favordynmods``, :func:`favors_dynamic_moves`): the
bot's start-up waits for it, and a game's bots, started together, share one (``botarena
bench spawn`` prints what a game pays).
A process created into its cgroup does not move and waits for none.

The older way, kept for the programs the shell cannot start exactly as ``exec`` does
(see ``spawn``) and for the benchmark: the bot is moved in after it started, by a
thread of its own (:class:`CgroupMove`). A bot that forks before the move leaves that
child, and all it forks later, in our own cgroup: the move then finds the processes
started since the bot (pids after its own, up to the kernel's last pid) that carry its
marker or are its children, moves them in too, and marks the cgroup ``early`` so that
the end of the game also runs the process-group and marker search of
:mod:`referee.harness.process_tree`. Not caught there: a child that double-forked and
exec'd with an empty environment before the move.

Where no cgroup can be created (no cgroup2 mount, no permission, not Linux), or
``BOTARENA_NO_CGROUP`` is set in the environment, :func:`run_folder` returns None once
and for all, and those searches are the only means.
"""
from __future__ import annotations

import errno
import os
import select
import threading
import time

_lock = threading.Lock()
_run_folder: str | None = None
_unavailable = False
_serial = 0
_FEW_PIDS = 64          # started between a bot and its move: looked up one by one up to this many


def _cgroup2_mount_fields() -> tuple[str, str] | None:
    """The cgroup2 mount's point and its super options (mountinfo(5)), or None."""
    try:
        with open("/proc/self/mountinfo") as handle:
            for line in handle:
                fields = line.split()
                dash = fields.index("-")
                if fields[dash + 1] == "cgroup2":
                    return fields[4], fields[dash + 3]
    except (OSError, ValueError, IndexError):
        pass
    return None


def _cgroup2_mount() -> str | None:
    found = _cgroup2_mount_fields()
    return found[0] if found else None


def favors_dynamic_moves() -> bool | None:
    """Whether the cgroup2 mount has ``favordynmods`` (moves wait for no grace period, forks
    and exits cost a little more); None where there is no cgroup2 mount. An administrator turns
    it on with ``mount -o remount,favordynmods MOUNT_POINT`` (kernel 6.0 or later)."""
    found = _cgroup2_mount_fields()
    return "favordynmods" in found[1].split(",") if found else None


def _own_cgroup() -> str | None:
    try:
        with open("/proc/self/cgroup") as handle:
            for line in handle:
                if line.startswith("0::"):
                    return line[3:].strip()
    except OSError:
        pass
    return None


def run_folder() -> str | None:
    """This process's ``botarena.<pid>`` cgroup (created once), or None where none can be."""
    global _run_folder, _unavailable
    with _lock:
        if _run_folder is None and not _unavailable:
            if os.environ.get("BOTARENA_NO_CGROUP"):
                _unavailable = True         # opted out: the process search only
                return None
            mount, own = _cgroup2_mount(), _own_cgroup()
            parent = f"{mount}{own.rstrip('/')}" if mount and own else None
            try:
                if parent is None or not os.access(f"{parent}/cgroup.procs", os.W_OK):
                    # (a bot moves itself out of our cgroup: that needs its cgroup.procs)
                    raise FileNotFoundError(f"{parent}/cgroup.procs")
                folder = f"{parent}/botarena.{os.getpid()}"
                _remove_stale_folders(parent)
                os.mkdir(folder)
                _run_folder = folder
            except FileExistsError:
                _run_folder = folder            # left by an earlier process with our pid
            except OSError:
                _unavailable = True
        return _run_folder


def _remove_stale_folders(parent: str) -> None:
    """Remove the run folders of botarena processes that are gone (a guardian killed with them)."""
    for name in os.listdir(parent):
        owner = name.partition(".")[2]
        if not name.startswith("botarena.") or not owner.isdigit():
            continue
        try:
            os.kill(int(owner), 0)
            continue                            # still running
        except ProcessLookupError:
            pass
        except OSError:
            continue
        _remove_folder(f"{parent}/{name}")


class BotCgroup:
    """The cgroup one bot runs in: :meth:`kill` ends every process in it. ``early``: the bot
    had started processes before it was moved in (see the module's docstring)."""

    def __init__(self, path: str, early: bool = False):
        self.path = path
        self.early = early

    @property
    def procs(self) -> str:
        """The file a pid is written to, to move that process in."""
        return f"{self.path}/cgroup.procs"

    def pids(self) -> list[int]:
        try:
            with open(f"{self.path}/cgroup.procs") as handle:
                return [int(word) for word in handle.read().split()]
        except (OSError, ValueError):
            return []

    def kill(self) -> None:
        """SIGKILL every process in the cgroup (a kernel without cgroup.kill: one by one)."""
        try:
            with open(f"{self.path}/cgroup.kill", "w") as handle:
                handle.write("1")
            return
        except OSError:
            pass
        for _ in range(5):
            pids = self.pids()
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, 9)
                except OSError:
                    pass

    def wait_empty(self, timeout_s: float = 1.0) -> bool:
        """Wait until no process is left in the cgroup (zombies do not count)."""
        try:
            fd = os.open(f"{self.path}/cgroup.events", os.O_RDONLY)
        except OSError:
            return True
        try:
            poller = select.poll()
            poller.register(fd, select.POLLPRI)   # the kernel signals a change of cgroup.events
            deadline = time.monotonic() + timeout_s
            while b"populated 0" not in os.pread(fd, 256, 0):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                poller.poll(min(remaining, 0.05) * 1000)
            return True
        except OSError:                         # removed meanwhile (by the bot's own close())
            return True
        finally:
            os.close(fd)

    def remove(self) -> None:
        """Kill what is left, then delete the cgroup (once empty)."""
        for _ in range(3):
            try:
                os.rmdir(self.path)
                return
            except FileNotFoundError:
                return
            except OSError as error:
                if error.errno != errno.EBUSY:
                    return
            self.kill()
            self.wait_empty()


def new_bot_cgroup() -> BotCgroup | None:
    """A new, empty cgroup for one bot; None where cgroups cannot be used here."""
    global _serial
    folder = run_folder()
    if folder is None:
        return None
    with _lock:
        _serial += 1
        path = f"{folder}/bot.{_serial}"
    try:
        os.mkdir(path)
    except OSError:
        _unavailable_now()
        return None
    return BotCgroup(path)


def bot_cgroup(pid: int, marker: bytes = b"", into: BotCgroup | None = None) -> BotCgroup | None:
    """Move ``pid``, already running, into ``into`` (default: a new cgroup), with what it started
    before the move (found by ``marker``, the ``NAME=value`` its environment carries); None
    where cgroups cannot be used here."""
    group = into or new_bot_cgroup()
    if group is None:
        return None
    try:
        with open(group.procs, "w") as handle:
            handle.write(str(pid))
    except OSError as error:
        try:
            os.rmdir(group.path)
        except OSError:
            pass
        if error.errno != errno.ESRCH:          # not "the bot already exited": no permission
            _unavailable_now()
        return None
    early = _started_before_the_move(pid, marker)
    for child in early:
        _move(group.path, child)
    group.early = bool(early)
    return group


class CgroupMove:
    """:func:`bot_cgroup` in a thread of its own, for a bot already running (the older way, see
    the module's docstring): the game's thread goes on while the kernel's grace period passes.
    :meth:`result` waits for the move."""

    def __init__(self, pid: int, marker: bytes = b"", into: BotCgroup | None = None):
        self._cgroup: BotCgroup | None = None
        self._thread = threading.Thread(target=self._move, args=(pid, marker, into), daemon=True,
                                        name=f"botarena-cgroup-{pid}")
        self._thread.start()

    def _move(self, pid: int, marker: bytes, into: BotCgroup | None) -> None:
        try:
            self._cgroup = bot_cgroup(pid, marker, into)
        except Exception:                   # never lost: the bot then ends by the tree search
            self._cgroup = None

    def result(self) -> BotCgroup | None:
        self._thread.join()
        return self._cgroup


def _last_pid() -> int | None:
    try:
        with open("/proc/sys/kernel/ns_last_pid") as handle:
            return int(handle.read())
    except (OSError, ValueError):
        return None                             # not Linux >= 3.3: early children not looked for


def _started_before_the_move(pid: int, marker: bytes) -> list[int]:
    """Live processes with a pid after ``pid`` up to the last one the kernel gave (pids are
    handed out in increasing order, wrapping at pid_max) that are ``pid``'s children or carry
    ``marker``: what the bot started before it was moved. Nothing to read in the usual case,
    where no process at all was started between the bot and the move."""
    last = _last_pid()
    if last is None or last == pid:
        return []
    if pid < last <= pid + _FEW_PIDS:             # a few: try each (no listing of /proc)
        candidates = [str(number) for number in range(pid + 1, last + 1)]
    else:                                         # many, or the numbers wrapped at pid_max
        def after_the_bot(number: int) -> bool:
            return pid < number <= last if last > pid else number > pid or number <= last
        candidates = [name for name in os.listdir("/proc")
                      if name.isdigit() and after_the_bot(int(name))]
    found = []
    for name in candidates:
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                fields = handle.read().rpartition(b")")[2].split()
            if fields[0] == b"Z":
                continue
            if int(fields[1]) != pid:
                with open(f"/proc/{name}/environ", "rb") as handle:
                    if not marker or marker + b"\0" not in handle.read():
                        continue
        except (OSError, IndexError, ValueError):
            continue
        found.append(int(name))
    return found


def _move(path: str, pid: int) -> None:
    try:
        with open(f"{path}/cgroup.procs", "w") as handle:
            handle.write(str(pid))
    except OSError:
        pass                                    # exited meanwhile


def _unavailable_now() -> None:
    global _unavailable
    _unavailable = True


def remove_run_folder() -> None:
    """At exit: delete the run's cgroup folder (its bot cgroups are gone by then)."""
    if _run_folder is not None:
        _remove_folder(_run_folder)


def _remove_folder(folder: str) -> None:
    try:
        for name in os.listdir(folder):
            if name.startswith("bot."):
                BotCgroup(f"{folder}/{name}").remove()
        os.rmdir(folder)
    except OSError:
        pass
