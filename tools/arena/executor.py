"""Where games are played: the seam between a producer of game jobs and the machines.

A producer (``run_jobs`` for match, league and sweep; a tuner) submits jobs one at a time and
collects finished games; an executor plays them. Two executors share this interface:
``LocalExecutor`` (threads of this process, the default) and ``tools.arena.cluster.DaskExecutor``
(tasks on a Dask cluster; Dask is imported only there). Results always come back to the
producer's thread, which alone writes the results file.

    with open_executor(arena, jobs=2) as executor:     # or cluster="local:2" / "tcp://host:8786"
        executor.submit(job)
        for job, result in executor.finished(timeout=0.2): ...
"""
from __future__ import annotations

import os
import shlex
import sys
import threading
from collections.abc import Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Protocol

from referee.api import MatchCancelled, UsageError
from referee.harness.process import close_all
from referee.match import MatchResult
from tools.arena.arena import Arena, worker_count
from tools.arena.schedule import GameJob


class GameExecutor(Protocol):
    """Plays submitted game jobs somewhere and hands back finished games."""

    description: str          # for the status line: "jobs 2", "cluster tcp://... (4 threads)"

    def capacity(self) -> int:
        """How many games to keep submitted so that no core idles (may change: workers come
        and go)."""

    def in_flight(self) -> int:
        """Games submitted and not yet handed back by ``finished``."""

    def submit(self, job: GameJob) -> None:
        """Start (or queue) one game."""

    def finished(self, timeout: float) -> list[tuple[GameJob, MatchResult]]:
        """Wait up to ``timeout`` seconds for a game to end; every game ended since the last
        call, in submission order. Each submitted job comes back once, or never if cancelled."""

    def drop_waiting(self) -> None:
        """Games submitted but not started never start; running ones finish (a stop decided
        by the results so far, without ``stop_drops_queued``)."""

    def cancel(self) -> None:
        """Drop every game not handed back yet: queued ones never start, running ones are cut
        (their bots killed) and their results discarded. Returns when they are gone."""

    def close(self) -> None:
        """Cancel what is left and release threads, connections and any cluster started here."""


class _Dropped(MatchCancelled):
    """A game that waited for its turn to play was dropped (the run stopped)."""


class LocalExecutor:
    """Games on threads of this process (a game mostly waits on its bots' pipes).

    ``workers`` games play at once. One more waits in line: it plays as soon as a game has
    its last answer, while the ended game's bots exit and are cleaned up (~10 ms for a
    Python bot). With a core to spare (``workers`` below the core count: every playing game
    has at most one bot thinking at a time), the game in line starts its bots while it waits,
    so their start-up (~20 ms for a Python bot) overlaps the games being played instead of
    following them; with every core busy it starts them when its turn comes, so that no
    start-up takes CPU from a bot on the clock.
    """

    def __init__(self, arena: Arena, workers: int, cores: int | None = None):
        self.arena = arena
        self.workers = workers
        self.description = f"jobs {workers}"
        self.start_early = workers < (cores or os.cpu_count() or 1)
        self._pool = ThreadPoolExecutor(max_workers=workers + 1, thread_name_prefix="game")
        self._playing = threading.Semaphore(workers)
        self._running: dict[Future, GameJob] = {}
        self._cancelled = threading.Event()
        self._dropping = threading.Event()

    def capacity(self) -> int:
        return self.workers + 1

    def in_flight(self) -> int:
        return len(self._running)

    def submit(self, job: GameJob) -> None:
        self._running[self._pool.submit(self._play, job)] = job

    def drop_waiting(self) -> None:
        """Games not started yet never start (the run stopped: an SPRT decision)."""
        self._dropping.set()

    def _stopped(self) -> bool:
        return self._cancelled.is_set() or self._dropping.is_set()

    def _play(self, job: GameJob) -> MatchResult | None:
        playing = threading.Event()
        released = threading.Lock()             # taken by the first of the two releases

        def take_turn() -> None:
            self._playing.acquire()
            playing.set()
            if self._stopped():
                raise _Dropped("dropped")

        def release() -> None:
            if playing.is_set() and released.acquire(blocking=False):
                self._playing.release()

        try:
            if self._stopped():
                return None
            if not self.start_early:
                take_turn()
            return self.arena.play(job, on_turns_done=release,
                                   on_bots_started=take_turn if self.start_early else None)
        except _Dropped:
            return None
        finally:
            release()

    def finished(self, timeout: float) -> list[tuple[GameJob, MatchResult]]:
        if not self._running:
            return []
        done, _ = wait(self._running, timeout=timeout, return_when=FIRST_COMPLETED)
        order = list(self._running)
        games = []
        for future in sorted(done, key=order.index):
            job = self._running.pop(future)
            result = future.result()          # a set-up error (bot cannot start) raises here
            if result is not None:
                games.append((job, result))
        return games

    def cancel(self) -> None:
        """Kill the bots of every game still in flight until those games return (a game may
        start its bots just after a kill, so kill again), then drop their results."""
        self._cancelled.set()
        while any(not future.done() for future in self._running):
            close_all()
            wait(self._running, timeout=0.05)
        self._running.clear()
        close_all()
        self._cancelled.clear()
        self._dropping.clear()              # (a producer may run more jobs on this executor)

    def close(self) -> None:
        self.cancel()
        self._pool.shutdown(wait=True)

    def __enter__(self) -> LocalExecutor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# the pip of the Python botarena runs in (a bare 'pip' is often another Python's)
CLUSTER_HINT = f"{shlex.quote(sys.executable)} -m pip install distributed"


def open_executor(arena: Arena, *, jobs: int | None = None, cluster: str | None = None,
                  bot_texts: Mapping[str, str] | None = None,
                  workdir: str | None = None) -> GameExecutor:
    """Threads here (``jobs``, default: one per core), or a Dask cluster: ``cluster`` is a
    scheduler address or ``local[:N]``; workers resolve ``bot_texts`` (name -> command as the
    user wrote it) themselves, relative paths against ``workdir``. Each task carries the
    commands of its own seats, so a producer that makes up bots as it goes (a tuner) passes a
    mapping that answers for any name (``__missing__``). UsageError when it cannot."""
    if cluster is None:
        return LocalExecutor(arena, worker_count(jobs))
    if jobs is not None:
        raise UsageError("--jobs is for games on this machine; on a --cluster each worker plays "
                         "as many games at once as its --nthreads")
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise UsageError(f"--cluster needs Dask's distributed package: {CLUSTER_HINT}") from None
    from tools.arena.cluster import DaskExecutor
    return DaskExecutor.open(arena, cluster, bot_texts if bot_texts is not None else {}, workdir)
