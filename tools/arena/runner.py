"""The engine under ``match``, ``league`` and ``sweep``: paired game jobs run in parallel.

A job is one game: a pair id, the bots in seat order and a seed derived from the run's base seed
and the pair id, so both games of a pair (seats swapped) play the same seed. Jobs run on an
executor (tools.arena.executor: ``--jobs`` threads here, or a ``--cluster``); every finished game
comes back to this process. Every finished game is appended to the
results file as one whole JSON line, written with a single ``write`` and flushed at once, keyed
by (pair id, seats): running the same command again skips every game already there, so the final
count is exact even after a SIGKILL (a truncated last line is dropped). Ctrl-C or SIGTERM stops
the run: no new game starts, games in flight are cut (their bots killed, their results
discarded), and the caller prints what finished.
"""
from __future__ import annotations

import dataclasses
import errno
import fcntl
import hashlib
import itertools
import json
import os
import signal
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from referee.api import BotArenaError, Game, TimeControl, UsageError
from referee.match import MatchResult, PlayerSpec, play_match
from tools.arena.botspec import command_of, for_game

if TYPE_CHECKING:
    from tools.arena.executor import GameExecutor


@dataclass(frozen=True, slots=True)
class GameJob:
    """One game to play: pair ``pair`` of its matchup, bots named in seat order."""

    pair: int
    seats: tuple[str, ...]
    seed: int

    @property
    def key(self) -> tuple[int, tuple[str, ...]]:
        return self.pair, self.seats


def derive_seed(base_seed: int, pair: int) -> int:
    """The game seed of pair ``pair``: deterministic, the same for every matchup of the run."""
    digest = hashlib.sha256(f"botarena:{base_seed}:{pair}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def paired_jobs(first: str, second: str, pairs: int, base_seed: int,
                start: int = 0) -> list[GameJob]:
    """``pairs`` pairs of games between two bots: each seed twice, seats swapped."""
    jobs = []
    for pair in range(start, start + pairs):
        seed = derive_seed(base_seed, pair)
        jobs.append(GameJob(pair, (first, second), seed))
        jobs.append(GameJob(pair, (second, first), seed))
    return jobs


def interleave(schedules: Sequence[Sequence[GameJob]]) -> list[GameJob]:
    """Round-robin over several matchups pair by pair, so every matchup advances together."""
    jobs: list[GameJob] = []
    for step in itertools.zip_longest(*[[schedule[i:i + 2] for i in range(0, len(schedule), 2)]
                                        for schedule in schedules]):
        for chunk in step:
            if chunk:
                jobs.extend(chunk)
    return jobs


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def worker_count(requested: int | None) -> int:
    """--jobs, defaulting to the number of cores and capped there: one game keeps one core busy
    (its bots answer in turn), and more games than cores would make bots time out at random."""
    cores = usable_cores()
    if requested is None:
        return cores
    if requested < 1:
        raise UsageError(f"--jobs {requested}: must be at least 1")
    if requested > cores:
        print(f"botarena: --jobs {requested} is more than the {cores} core(s) here; using {cores} "
              "so that bots are not starved of CPU and time out", file=sys.stderr)
        return cores
    return requested


# -- the results file ---------------------------------------------------------------------------

@dataclass(frozen=True)
class RunIdentity:
    """What every game of a run shares; a results file from another run is refused."""

    game: str
    options: dict
    time_control: TimeControl
    bots: tuple[str, ...]
    base_seed: int | None

    def stamp(self) -> dict:
        return {"base_seed": self.base_seed,
                "time_control": dataclasses.asdict(self.time_control)}


class ResultsFile:
    """The append-only JSON-lines file of a run: one line per finished game."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._fd: int | None = None

    def load(self, identity: RunIdentity) -> tuple[list[dict], int | None]:
        """The records already there, after checking they belong to this run; the base seed
        they were played with. Raises UsageError (file untouched) when they do not belong."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return [], identity.base_seed
        except OSError as error:
            raise UsageError(f"cannot read results file {str(self.path)!r}: {error.strerror}") \
                from None
        lines = data.split(b"\n")
        tail = lines.pop()                 # b"" when the file ends with a newline
        self._keep_bytes = len(data) - len(tail)
        records = []
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                key = record["pair"], tuple(record["seats"])
            except (ValueError, KeyError, TypeError):
                raise UsageError(f"{self.path}:{number} is not a botarena results line; give "
                                 "another --out file") from None
            records.append(record)
        return records, self._check(records, identity)

    def _check(self, records: list[dict], identity: RunIdentity) -> int | None:
        base_seed = identity.base_seed
        normal_options = json.loads(json.dumps(identity.options))
        clock = dataclasses.asdict(identity.time_control)
        where = f"results file {str(self.path)!r}"
        for record in records:
            if record.get("game") != identity.game:
                raise UsageError(f"{where} holds {record.get('game')} games, not {identity.game}; "
                                 "give another --out file")
            strangers = [name for name in record["seats"] if name not in identity.bots]
            if strangers:
                raise UsageError(f"{where} holds games of other bots ({strangers[0]!r}); give "
                                 "another --out file or the same bots")
            if record.get("options") != normal_options:
                raise UsageError(f"{where} was played with options {record.get('options')}, not "
                                 f"{normal_options}; give another --out file or the same --option")
            if record.get("time_control") != clock:
                raise UsageError(f"{where} was played with time control {record.get('time_control')},"
                                 f" not {clock}; give another --out file or the same limits")
            if base_seed is None:
                base_seed = record.get("base_seed")
            elif record.get("base_seed") != base_seed:
                raise UsageError(f"{where} was played with --seed {record.get('base_seed')}, not "
                                 f"{base_seed}; drop --seed to resume it, or give another --out")
        return base_seed

    def open(self) -> None:
        """Open for appending, after dropping a truncated last line (a SIGKILL mid-write)."""
        try:
            if self.path.is_dir():
                raise IsADirectoryError(errno.EISDIR, "is a directory")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o644)
        except OSError as error:
            raise UsageError(f"results file {str(self.path)!r} cannot be written: "
                             f"{error.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise UsageError(f"results file {str(self.path)!r} is in use by another botarena "
                             "run") from None
        keep = getattr(self, "_keep_bytes", None)
        if keep is not None and os.fstat(fd).st_size > keep:
            os.ftruncate(fd, keep)
            print(f"botarena: dropped a truncated last line of {self.path} "
                  "(a game cut off mid-write)", file=sys.stderr)
        os.lseek(fd, 0, os.SEEK_END)
        self._fd = fd

    def append(self, record: dict) -> None:
        line = (json.dumps(record, separators=(",", ":")) + "\n").encode()
        view = memoryview(line)
        while view:                       # one write for a line; loop only on a short write
            view = view[os.write(self._fd, view):]

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


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
    memory_mb: int | None
    players: dict[str, PlayerSpec]

    def seat_players(self, job: GameJob) -> list[PlayerSpec]:
        """The bots of ``job`` in seat order, built-in ones seeded from the game seed and seat."""
        return [for_game(self.players[name], job.seed, seat) for seat, name in enumerate(job.seats)]

    def commands(self, job: GameJob) -> list[str]:
        return [command_of(spec) for spec in self.seat_players(job)]

    def play(self, job: GameJob) -> MatchResult:
        return play_match(self.game, self.seat_players(job), seed=job.seed,
                          options=self.options, time_control=self.time_control,
                          memory_mb=self.memory_mb, record=False)


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
            if halt.is_set():
                outcome.interrupted = True
                # games that ended before the signal are real results; the rest are cut off
                try:
                    for job, result in executor.finished(0):
                        outcome.played += 1
                        on_result(job, result)
                except BotArenaError:
                    pass                  # a bot that failed to start as the signal came
        finally:
            executor.cancel()
    return outcome
