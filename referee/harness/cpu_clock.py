"""A bot's CPU time and run-queue wait per answer, from ``/proc`` and its cgroup (Linux; None
elsewhere)."""
from __future__ import annotations

import os


class CpuClock:
    """Reads the CPU time a bot used and the time it waited for a CPU, since the last lap.

    ``/proc/PID/schedstat`` is exact (ns) and cheap, but covers the main thread only: right
    for most bots. A bot seen running several threads (its main thread idle while it was busy
    answering, as a JVM's is) is read whole from then on: from its cgroup where it has one
    (``cpu.stat``'s usage of every process and thread in it, and ``cpu.pressure``'s time during
    which some task of it waited for a CPU, both in microseconds), else by adding up every
    thread's ``/proc/PID/task/TID/schedstat``. A bot that times out before any lap, with
    several threads, is read whole too (both sources count from the bot's start). One source
    per lap boundary keeps every lap's difference consistent.
    """

    __slots__ = ("_pid", "_cgroup", "_schedstat_fd", "_stat_fd", "_cpu_last", "_wait_last",
                 "_all_threads", "_laps")

    def __init__(self, pid: int, cgroup: str | None = None):
        self._pid = pid
        self._cgroup = cgroup               # the bot's cgroup folder, if it has one
        self._schedstat_fd = _open(f"/proc/{pid}/schedstat")
        self._stat_fd = _open(f"/proc/{pid}/stat")
        self._cpu_last = self._wait_last = 0.0
        self._all_threads = self._schedstat_fd is None
        self._laps = 0

    def _schedstat(self) -> tuple[float | None, float | None]:
        if self._schedstat_fd is None:
            return None, None
        try:
            fields = os.pread(self._schedstat_fd, 64, 0).split(None, 2)
            return int(fields[0]) * 1e-9, int(fields[1]) * 1e-9
        except (OSError, IndexError, ValueError):
            return None, None

    def _threads(self) -> int:
        """How many threads the bot's process runs (1 if unknown)."""
        if self._stat_fd is None:
            return 1
        try:
            raw = os.pread(self._stat_fd, 1024, 0)
            return int(raw[raw.rfind(b")") + 2:].split(None, 18)[17])
        except (OSError, IndexError, ValueError):
            return 1

    def _whole(self) -> tuple[float | None, float | None]:
        """(CPU seconds, wait seconds) of the whole bot: its cgroup, or all its threads."""
        if self._cgroup is not None:
            cpu = _field(f"{self._cgroup}/cpu.stat", b"usage_usec ")
            if cpu is not None:
                wait = _field(f"{self._cgroup}/cpu.pressure", b"total=", b"some ")
                return cpu * 1e-6, None if wait is None else wait * 1e-6
        cpu_total = wait_total = 0.0
        try:
            threads = os.listdir(f"/proc/{self._pid}/task")
        except OSError:
            return None, None
        for thread in threads:
            try:
                with open(f"/proc/{self._pid}/task/{thread}/schedstat", "rb") as handle:
                    fields = handle.read().split(None, 2)
                cpu_total += int(fields[0]) * 1e-9
                wait_total += int(fields[1]) * 1e-9
            except (OSError, IndexError, ValueError):
                continue                # (a thread that ended: its time is lost)
        return cpu_total, wait_total

    def runnable(self) -> bool:
        """Whether the process is running or waiting for a CPU right now (state R).

        A wait still in progress is not yet counted in schedstat: this tells it."""
        if self._stat_fd is None:
            return False
        try:
            raw = os.pread(self._stat_fd, 1024, 0)
        except OSError:
            return False
        return raw[raw.rfind(b")") + 2:raw.rfind(b")") + 3] == b"R"

    def _totals(self) -> tuple[float | None, float | None]:
        return self._whole() if self._all_threads else self._schedstat()

    def since_lap(self) -> tuple[float | None, float | None]:
        """(CPU ms, wait ms) since the last lap, without starting a new one."""
        if not self._all_threads and not self._laps and self._threads() > 1:
            self._all_threads = True            # no lap yet: the whole bot since its start
        cpu, wait = self._totals()
        return (None if cpu is None else (cpu - self._cpu_last) * 1000,
                None if wait is None else (wait - self._wait_last) * 1000)

    def lap(self, wall_ms: float) -> tuple[float | None, float | None]:
        """(CPU ms, wait ms) since the last lap, which took ``wall_ms``; starts a new lap."""
        self._laps += 1
        cpu, wait = self._totals()
        cpu_ms = wait_ms = None
        if cpu is not None:
            cpu_ms, self._cpu_last = (cpu - self._cpu_last) * 1000, cpu
        if wait is not None:
            wait_ms, self._wait_last = (wait - self._wait_last) * 1000, wait
        if not self._all_threads and cpu_ms is not None and wall_ms - cpu_ms > 1.0 \
                and self._threads() > 1:        # idle main thread: other threads working?
            whole_cpu, whole_wait = self._whole()
            if whole_cpu is not None:
                self._all_threads = True
                self._cpu_last, self._wait_last = whole_cpu, whole_wait or 0.0
        return cpu_ms, wait_ms

    def close(self) -> None:
        for name in ("_schedstat_fd", "_stat_fd"):
            fd = getattr(self, name)
            if fd is not None:
                setattr(self, name, None)
                os.close(fd)


def _open(path: str) -> int | None:
    try:
        return os.open(path, os.O_RDONLY)
    except OSError:
        return None


def _field(path: str, key: bytes, line_start: bytes = b"") -> int | None:
    """The integer after ``key`` on the first line of ``path`` that starts with ``line_start``
    (None if the file or the field is not there)."""
    try:
        with open(path, "rb") as handle:
            text = handle.read()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith(line_start) and key in line:
            try:
                return int(line.split(key, 1)[1].split()[0])
            except (IndexError, ValueError):
                return None
    return None
