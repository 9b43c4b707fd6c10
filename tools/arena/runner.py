"""The engine under ``match``, ``league`` and ``sweep``: paired game jobs run in parallel.

A job is one game: a pair id, the bots in seat order and a seed derived from the run's base seed
and the pair id, so both games of a pair (seats swapped) play the same seed. Jobs run on an
executor (tools.arena.executor: ``--jobs`` threads here, or a ``--cluster``); every finished game
comes back to this process. Every finished game is appended to the
results file as one whole JSON line, written with a single ``write`` and flushed at once, keyed
by (pair id, seats): running the same command again skips every game already there, so the final
count is exact even after a SIGKILL (see ``tools.arena.results``). Ctrl-C or SIGTERM stops
the run: no new game starts, games in flight are cut (their bots killed, their results
discarded), and the caller prints what finished.
"""
from __future__ import annotations

import collections
import signal
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import FrameType
from typing import Any

from referee.api import BotArenaError
from referee.match import MatchResult
from tools.arena.executor import GameExecutor
from tools.arena.results import RunIdentity

# the jobs live in tools.arena.schedule (generated lazily); re-exported for the runner's callers
from tools.arena.schedule import GameJob, derive_seed, interleave, paired_jobs  # noqa: F401

# -- the results file ---------------------------------------------------------------------------

def to_record(result: MatchResult, job: GameJob, identity: RunIdentity,
              commands: Sequence[str] = ()) -> dict:
    """The ``play --json`` object plus the pair id, seats, bot commands (with the seeds the
    harness gave), run stamp and raw latencies."""
    record = result.to_json()
    record.update(pair=job.pair, seats=list(job.seats), **identity.stamp())
    if commands:
        record["commands"] = list(commands)
    record["latencies_ms"] = [[round(value, 2) for value in player.latencies_ms]
                              for player in result.players]
    return record


# -- running ----------------------------------------------------------------------------------

# a game whose timing is uncertain (an answer read past its deadline by an overloaded harness,
# and when it was written cannot be told: see referee.harness.arrival) is played again on its
# seed up to this many times; if still uncertain, it is handed on marked so, and kept apart
TIMING_REPLAYS = 2


@dataclass
class RunOutcome:
    played: int = 0
    interrupted: bool = False
    stopped: bool = False                 # on_record asked to stop (an SPRT decision)
    replayed: int = 0                     # games played again for uncertain timing


_Handler = Callable[[int, FrameType | None], Any] | int | None      # what signal.signal takes


class _StopSignals:
    """While running, Ctrl-C, SIGTERM and SIGHUP set a flag the scheduler polls, instead of raising
    wherever the main thread happens to be (half-written bookkeeping)."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self._previous: dict[int, _Handler] = {}

    def __enter__(self) -> _StopSignals:
        if threading.current_thread() is threading.main_thread():
            for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                self._previous[number] = signal.signal(number, self._handle)
        return self

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.event.set()

    def __exit__(self, *exc) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)


def run_jobs(executor: GameExecutor, jobs: Iterable[GameJob], *,
             on_result: Callable[[GameJob, MatchResult], bool],
             poll_s: float = 0.2) -> RunOutcome:
    """Play ``jobs`` on ``executor`` (threads here, or a cluster), keeping it full; ``on_result``
    runs in this thread for each finished game, in completion order, and returns True to stop
    scheduling. Games in flight then still finish here; a cluster, where many games wait in
    line, drops them instead (``executor.stop_drops_queued``)."""
    outcome = RunOutcome()
    pending = iter(jobs)
    again: collections.deque[GameJob] = collections.deque()    # uncertain: to play again
    replays: collections.Counter[tuple] = collections.Counter()
    with _StopSignals() as signals:
        halt = signals.event
        try:
            while True:
                while not outcome.stopped and not halt.is_set() \
                        and executor.in_flight() < executor.capacity():
                    job = again.popleft() if again else next(pending, None)
                    if job is None:
                        break
                    executor.submit(job)
                if halt.is_set() or not executor.in_flight():
                    break
                for job, result in executor.finished(poll_s):
                    if result.timing_uncertain and replays[job.key] < TIMING_REPLAYS \
                            and not outcome.stopped:
                        replays[job.key] += 1
                        outcome.replayed += 1
                        again.append(job)
                        continue
                    outcome.played += 1
                    if on_result(job, result) and not outcome.stopped:
                        outcome.stopped = True
                        if getattr(executor, "stop_drops_queued", False):
                            executor.cancel()
                        else:
                            executor.drop_waiting()
            if halt.is_set():
                outcome.interrupted = True
                # games that ended before the signal are real results; the rest are cut off,
                # and so is a failure as the signal came (Ctrl-C also reaches local workers):
                # a resumed run plays those games again
                try:
                    for job, result in executor.finished(0):
                        if result.referee_error is None:
                            outcome.played += 1
                            on_result(job, result)
                except BotArenaError:
                    pass                  # a bot that failed to start as the signal came
        finally:
            executor.cancel()
    return outcome
