"""A bot's CPU time and run-queue wait per answer, from ``/proc`` (Linux; None elsewhere)."""
from __future__ import annotations

import os

_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


class CpuClock:
    """Reads the CPU time a process used and the time it waited for a CPU, since the last lap.

    ``/proc/PID/schedstat`` is exact (ns) and cheap, but covers the main thread
    only. When the main thread looked idle while the bot was busy answering,
    ``/proc/PID/stat`` (a few microseconds) tells whether the bot has more threads;
    from then on its CPU time is that of all its threads, in clock ticks. One
    source per lap boundary keeps every lap's difference consistent.
    """

    __slots__ = ("_schedstat_fd", "_stat_fd", "_cpu_last", "_wait_last", "_all_threads")

    def __init__(self, pid: int):
        self._schedstat_fd = _open(f"/proc/{pid}/schedstat")
        self._stat_fd = _open(f"/proc/{pid}/stat")
        self._cpu_last = self._wait_last = 0.0
        self._all_threads = self._schedstat_fd is None

    def _schedstat(self) -> tuple[float | None, float | None]:
        if self._schedstat_fd is None:
            return None, None
        try:
            fields = os.pread(self._schedstat_fd, 64, 0).split(None, 2)
            return int(fields[0]) * 1e-9, int(fields[1]) * 1e-9
        except (OSError, IndexError, ValueError):
            return None, None

    def _stat(self) -> tuple[float | None, int]:
        """(CPU seconds of every thread, number of threads)."""
        if self._stat_fd is None:
            return None, 1
        try:
            raw = os.pread(self._stat_fd, 1024, 0)
            fields = raw[raw.rfind(b")") + 2:].split(None, 18)
            return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS, int(fields[17])
        except (OSError, IndexError, ValueError):
            return None, 1

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
        cpu, wait = self._schedstat()
        if self._all_threads:
            cpu = self._stat()[0]
        return cpu, wait

    def since_lap(self) -> tuple[float | None, float | None]:
        """(CPU ms, wait ms) since the last lap, without starting a new one."""
        cpu, wait = self._totals()
        return (None if cpu is None else (cpu - self._cpu_last) * 1000,
                None if wait is None else (wait - self._wait_last) * 1000)

    def lap(self, wall_ms: float) -> tuple[float | None, float | None]:
        """(CPU ms, wait ms) since the last lap, which took ``wall_ms``; starts a new lap."""
        cpu, wait = self._totals()
        cpu_ms = wait_ms = None
        if cpu is not None:
            cpu_ms, self._cpu_last = (cpu - self._cpu_last) * 1000, cpu
        if wait is not None:
            wait_ms, self._wait_last = (wait - self._wait_last) * 1000, wait
        if not self._all_threads and cpu_ms is not None and wall_ms - cpu_ms > 1.0:
            threads_cpu, threads = self._stat()      # idle main thread: other threads working?
            if threads > 1 and threads_cpu is not None:
                self._all_threads, self._cpu_last = True, threads_cpu
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
