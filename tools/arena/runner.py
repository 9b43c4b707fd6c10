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

import os
import signal
import sys
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from referee.api import BotArenaError, Fault, Game, TimeControl, UsageError
from referee.match import MatchResult, PlayerSpec, play_match
from referee.harness.process import BotStartError
from tools.arena.botspec import command_of, for_game
from tools.arena.results import RunIdentity
from tools.arena.settings import BotLimits
# the jobs live in tools.arena.schedule (generated lazily); re-exported for the runner's callers
from tools.arena.schedule import GameJob, derive_seed, interleave, paired_jobs  # noqa: F401

if TYPE_CHECKING:
    from tools.arena.executor import GameExecutor


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


MAX_JOBS = 256         # games at once on one machine: each runs its bots and a thread
_warned_jobs: set[int] = set()


def worker_count(requested: int | None) -> int:
    """--jobs, defaulting to the number of cores: one game keeps about one core busy (its bots
    answer in turn). More is allowed, with a warning: bots that sleep or wait on a remote engine
    leave the cores idle, but bots that compute would be starved of CPU and time out."""
    cores = usable_cores()
    if requested is None:
        return cores
    if not 1 <= requested <= MAX_JOBS:
        raise UsageError(f"--jobs {requested}: must be from 1 to {MAX_JOBS}")
    if requested > cores and requested not in _warned_jobs:
        _warned_jobs.add(requested)         # (set-up and the executor both ask: say it once)
        print(f"botarena: warning: --jobs {requested} is more than the {cores} core(s) here; "
              "bots that compute may be starved of CPU and time out (fine for bots that sleep "
              "or wait on a remote engine)", file=sys.stderr)
    return requested


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

@dataclass(frozen=True)
class Arena:
    """Everything a game job needs besides its seats and seed."""

    game: Game
    options: dict
    time_control: TimeControl
    limits: BotLimits                     # what each bot starts with: memory, sandbox...
    players: dict[str, PlayerSpec]
    record: bool = False                  # keep each game's turns (for its replay file)

    def __post_init__(self):
        # the files each bot starts from, as found at set-up: one gone during the run is a
        # set-up error that stops it, not a crash to count against the bot game after game
        object.__setattr__(self, "_program_files",
                           {name: program_files(spec) for name, spec in self.players.items()})

    def check_programs(self, names: Iterable[str]) -> None:
        """BotStartError naming the first bot of ``names`` whose program file is gone."""
        for name in names:
            for path in self._program_files.get(name, ()):
                if not os.path.isfile(path):
                    raise BotStartError(f"cannot start bot {name!r}: its file {path!r} is gone "
                                        "(deleted or moved during the run)")

    def seat_players(self, job: GameJob) -> list[PlayerSpec]:
        """The bots of ``job`` in seat order, built-in ones seeded from the game seed and seat."""
        return [for_game(self.players[name], job.seed, seat) for seat, name in enumerate(job.seats)]

    def commands(self, job: GameJob) -> list[str]:
        return [command_of(spec) for spec in self.seat_players(job)]

    def play(self, job: GameJob, on_turn: Callable[[int], None] | None = None,
             on_turns_done: Callable[[], None] | None = None,
             on_bots_started: Callable[[], None] | None = None) -> MatchResult:
        """The game's result; BotStartError (nothing recorded) when a bot cannot start.
        ``on_turns_done``, ``on_bots_started``: see ``play_match``."""
        self.check_programs(job.seats)
        result = play_match(self.game, self.seat_players(job), seed=job.seed,
                            options=self.options, time_control=self.time_control,
                            record=self.record, **self.limits.to_kwargs(),
                            on_turn=on_turn, on_turns_done=on_turns_done,
                            on_bots_started=on_bots_started)
        if any(player.fault is not None and player.fault.kind is Fault.CRASH
               and not player.latencies_ms for player in result.players):
            self.check_programs(job.seats)      # its file may have gone as the game started
        return result


def program_files(spec: PlayerSpec) -> tuple[str, ...]:
    """The files a bot is started from: its program and the script its interpreter runs."""
    argv = spec.argv
    words = [argv[0]] if os.sep in argv[0] else []
    if len(argv) > 1 and not argv[1].startswith("-"):
        words.append(argv[1])
    return tuple(word for word in words if os.path.isfile(word))


@dataclass
class RunOutcome:
    played: int = 0
    interrupted: bool = False
    stopped: bool = False                 # on_record asked to stop (an SPRT decision)


class _StopSignals:
    """While running, Ctrl-C, SIGTERM and SIGHUP set a flag the scheduler polls, instead of raising
    wherever the main thread happens to be (half-written bookkeeping)."""

    def __init__(self):
        self.event = threading.Event()
        self._previous: dict[int, object] = {}

    def __enter__(self) -> "_StopSignals":
        if threading.current_thread() is threading.main_thread():
            for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                self._previous[number] = signal.signal(number, self._handle)
        return self

    def _handle(self, signum, frame) -> None:
        self.event.set()

    def __exit__(self, *exc) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)


def run_jobs(executor: "GameExecutor", jobs: Iterable[GameJob], *,
             on_result: Callable[[GameJob, MatchResult], bool],
             poll_s: float = 0.2) -> RunOutcome:
    """Play ``jobs`` on ``executor`` (threads here, or a cluster), keeping it full; ``on_result``
    runs in this thread for each finished game, in completion order, and returns True to stop
    scheduling. Games in flight then still finish here; a cluster, where many games wait in
    line, drops them instead (``executor.stop_drops_queued``)."""
    outcome = RunOutcome()
    pending = iter(jobs)
    with _StopSignals() as signals:
        halt = signals.event
        try:
            while True:
                while not outcome.stopped and not halt.is_set() \
                        and executor.in_flight() < executor.capacity():
                    job = next(pending, None)
                    if job is None:
                        break
                    executor.submit(job)
                if halt.is_set() or not executor.in_flight():
                    break
                for job, result in executor.finished(poll_s):
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
