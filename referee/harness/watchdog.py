"""One background thread that watches what the match loop cannot watch while it waits.

Every ``TICK_S`` it calls ``tick(now, full)`` on each watched item: a bot's
memory check (``full`` every ``FULL_EVERY`` ticks, for the costlier scan of the
bot's whole process tree) and each game's wall-time watchdog. It also records
how late it wakes up, a direct measure of how overloaded the machine is (see
:class:`LagRecord`: only what a later question can ask for, so memory stays flat).
"""
from __future__ import annotations

import collections
import ctypes
import threading
import time
from typing import Callable, Protocol

TICK_S = 0.02
FULL_EVERY = 25                 # a full scan every 0.5 s
_LAG_SAMPLES = 4096             # a bound the record never reaches in practice (see LagRecord)


class Watched(Protocol):
    def tick(self, now: float, full: bool) -> None: ...


class LagRecord:
    """Wake-up delays of the monitor thread, answering "the largest since time T".

    Every tick adds one (time, delay) sample, 50 a second for as long as games run. Keeping them
    all (or the last 4,096, ~0.5 MB once full) made the harness grow for the first minutes of
    every run: what a memory-per-game measurement then reads as growth. A sample that a later,
    larger (or equal) one follows can never be the answer to any question asked after it is
    added, so only the samples larger than every later one are kept: the answer for ``since``
    is the first of them at or after it. Random delays keep about log(n) samples; the bound
    only guards against delays that shrink tick after tick (then the oldest, largest go).
    """

    __slots__ = ("_samples", "_lock")

    def __init__(self, bound: int = _LAG_SAMPLES):
        self._samples: collections.deque[tuple[float, float]] = collections.deque(maxlen=bound)
        self._lock = threading.Lock()             # added by the monitor, asked by games

    def add(self, at: float, lag_ms: float) -> None:
        with self._lock:
            samples = self._samples
            while samples and samples[-1][1] <= lag_ms:
                samples.pop()
            samples.append((at, lag_ms))

    def max_since(self, since: float) -> float:
        """The largest delay (ms) of a sample taken at or after ``since`` (0 if none)."""
        with self._lock:
            for at, lag in self._samples:         # decreasing delays: the first one is the max
                if at >= since:
                    return lag
        return 0.0

    def __len__(self) -> int:
        return len(self._samples)


class _Monitor:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: set[Watched] = set()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self.lags = LagRecord()

    def add(self, item: Watched) -> None:
        with self._lock:
            self._items.add(item)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="botarena-monitor", daemon=True)
                self._thread.start()
        self._wake.set()

    def discard(self, item: Watched) -> None:
        with self._lock:
            self._items.discard(item)

    def _run(self) -> None:
        count = 0
        while True:
            with self._lock:
                items = list(self._items)
            if not items:
                self._wake.wait(1.0)
                self._wake.clear()
                continue
            count += 1
            full = count % FULL_EVERY == 0
            now = time.perf_counter()
            for item in items:
                try:
                    item.tick(now, full)
                except Exception:           # a watcher must never kill the monitor
                    pass
            planned = time.perf_counter() + TICK_S
            time.sleep(TICK_S)
            self.lags.add(planned, max(0.0, time.perf_counter() - planned) * 1000)

    def max_lag_ms(self, since: float) -> float:
        """The largest wake-up delay (ms) of this thread after ``since`` (a perf_counter time)."""
        return self.lags.max_since(since)


monitor = _Monitor()


class WatchdogExpired(Exception):
    """Raised inside a game's thread when its watchdog fires (the game was stuck)."""


def _raise_in_thread(thread_id: int, exception: type[BaseException] | None) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id),
                                               ctypes.py_object(exception) if exception else None)


class GameWatchdog:
    """Bounds the time between two ``feed`` calls of one game.

    When it fires it calls ``on_fire`` (which kills the game's bots, so any wait
    on them ends) and raises :class:`WatchdogExpired` in the game's thread, which
    also breaks a referee stuck in a loop of pure Python.
    """

    def __init__(self, on_fire: Callable[[], None]):
        self._on_fire = on_fire
        self._thread_id = threading.get_ident()
        self._lock = threading.Lock()
        self._deadline = float("inf")
        self._done = False
        self.fired_after_s: float | None = None
        self._fed_at = time.perf_counter()
        monitor.add(self)

    def feed(self, allowance_s: float) -> None:
        now = time.perf_counter()
        self._fed_at, self._deadline = now, now + allowance_s

    def tick(self, now: float, full: bool) -> None:
        if now < self._deadline:
            return
        with self._lock:
            if self._done or self.fired_after_s is not None:
                return
            self.fired_after_s = now - self._fed_at
            _raise_in_thread(self._thread_id, WatchdogExpired)
        self._on_fire()

    def disarm(self) -> None:
        """Stop watching; cancels an exception not yet delivered. Call from the game's thread."""
        while True:
            try:
                with self._lock:
                    self._done = True
                    if self.fired_after_s is not None:
                        _raise_in_thread(self._thread_id, None)
                break
            except WatchdogExpired:
                continue
        monitor.discard(self)
