"""A bot's CPU time and run-queue wait per answer, from ``/proc`` (Linux; None elsewhere)."""
from __future__ import annotations

import os

_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


class CpuClock:
    """Reads the CPU time a process used and the time it waited for a CPU, since the last lap.

    ``/proc/PID/schedstat`` is exact (ns) and cheap but covers the main thread;
    ``/proc/PID/stat`` covers every thread in clock ticks and costs a few
    microseconds, so it is read only when asked (the main thread looked idle
    while the bot was busy answering); the larger total is kept.
    """

    __slots__ = ("_schedstat_fd", "_stat_fd", "_cpu_last", "_wait_last", "_threads")

    def __init__(self, pid: int):
        self._schedstat_fd = _open(f"/proc/{pid}/schedstat")
        self._stat_fd = _open(f"/proc/{pid}/stat")
        self._cpu_last = self._wait_last = self._threads = 0.0

    def totals(self, all_threads: bool = True) -> tuple[float | None, float | None]:
        """(CPU seconds, seconds waiting for a CPU) since the process started; None if unknown."""
        cpu = wait = None
        if self._schedstat_fd is not None:
            try:
                fields = os.pread(self._schedstat_fd, 64, 0).split(None, 2)
                cpu, wait = int(fields[0]) * 1e-9, int(fields[1]) * 1e-9
            except (OSError, IndexError, ValueError):
                pass
        if all_threads and self._stat_fd is not None:
            try:
                raw = os.pread(self._stat_fd, 1024, 0)
                fields = raw[raw.rfind(b")") + 2:].split(None, 14)
                self._threads = (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS  # utime + stime
            except (OSError, IndexError, ValueError):
                pass
        if self._stat_fd is not None and (cpu is None or self._threads > cpu + 2 / _CLOCK_TICKS):
            cpu = self._threads
        return cpu, wait

    def since_lap(self) -> tuple[float | None, float | None]:
        """(CPU ms, wait ms) since the last lap, without starting a new one."""
        cpu, wait = self.totals()
        return (None if cpu is None else (cpu - self._cpu_last) * 1000,
                None if wait is None else (wait - self._wait_last) * 1000)

    def lap(self, wall_ms: float) -> tuple[float | None, float | None]:
        """(CPU ms, wait ms) since the last lap, which took ``wall_ms``; starts a new lap."""
        cpu, wait = self.totals(all_threads=False)
        if cpu is not None and wall_ms - (cpu - self._cpu_last) * 1000 > 1.0:
            cpu, wait = self.totals(all_threads=True)     # other threads may have worked
        cpu_ms = wait_ms = None
        if cpu is not None:
            cpu_ms, self._cpu_last = (cpu - self._cpu_last) * 1000, cpu
        if wait is not None:
            wait_ms, self._wait_last = (wait - self._wait_last) * 1000, wait
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
