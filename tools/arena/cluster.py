"""Games as tasks on a Dask cluster (``--cluster ADDRESS`` or ``--cluster local[:N]``).

Imported only when ``--cluster`` is given: Dask (``distributed``) is an optional extra. The
client sends each game as one task carrying the bot commands as the user typed them; a worker
resolves them itself (built-in bots by name, relative paths against ``--workdir``) and plays
the game on one of its threads (``dask worker --nthreads``: one game per core). Finished games
come back to the client, which alone writes the results file.

A task that fails (its worker died, a bot is missing on that machine) is played again once on
another worker, then recorded as a referee error naming the worker: no game is dropped, and
a future resolves once, so none is counted twice.
"""
from __future__ import annotations

import asyncio
import dataclasses
import importlib.util
import logging
import signal
import sys
import threading
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass

import dask
import distributed
from distributed import Client, LocalCluster

from referee.api import BotArenaError, Game, MatchCancelled, TimeControl, UsageError
from referee.external.game import ExternalGame
from referee.games import load_game
from referee.match import MatchResult, PlayerResult, PlayerSpec
from tools.arena.arena import Arena, usable_cores
from tools.arena.botspec import resolve_bot
from tools.arena.schedule import GameJob
from tools.arena.settings import BotLimits

CONNECT_TIMEOUT_S = 10
CAPACITY_REFRESH_S = 1.0
QUEUED_PER_THREAD = 2       # games kept submitted per worker thread: none idles between games


@dataclass(frozen=True)
class ArenaSpec:
    """What a worker needs to play a run's games besides the bots, in plain values."""

    game: str
    options: dict
    time_control: TimeControl
    limits: BotLimits
    workdir: str | None


@dataclass(frozen=True)
class WorkerFailure:
    """A game a worker could not play (not a bot's fault: the bot's fault is a game result)."""

    worker: str
    message: str


class _Cancelled(MatchCancelled):
    """The client cancelled this game: stop it and its bots (play_match re-raises this)."""


# -- on a worker --------------------------------------------------------------------------------

_games: dict[str, Game | ExternalGame] = {}
_players: dict[tuple, PlayerSpec] = {}
_cache_lock = threading.Lock()


def _worker_arena(spec: ArenaSpec, bots: tuple[tuple[str, str], ...]) -> Arena:
    """An Arena for ``bots`` (name, command as typed), each command resolved on this machine
    once per worker process: a task names its own bots, so a tuner's new ones need nothing."""
    with _cache_lock:
        if spec.game not in _games:
            _games[spec.game] = load_game(spec.game)
        players = {}
        for name, text in bots:
            key = (spec.game, text, spec.workdir)
            if key not in _players:
                _players[key] = resolve_bot(_games[spec.game].name, text, workdir=spec.workdir,
                                            sandboxed=spec.limits.sandboxed)
            players[name] = dataclasses.replace(_players[key], name=name)
    return Arena(_games[spec.game], spec.options, spec.time_control, spec.limits, players)


def check_bots(spec: ArenaSpec, bots: tuple[tuple[str, str], ...]) -> str | None:
    """Run on every worker before the first game: why its bots cannot start, or None."""
    try:
        _worker_arena(spec, bots)
    except BotArenaError as error:
        return str(error)
    return None


def play_on_worker(spec: ArenaSpec, bots: tuple[tuple[str, str], ...],
                   job: GameJob) -> MatchResult | WorkerFailure:
    """One game, as a Dask task; a failure to play it comes back as a WorkerFailure."""
    worker = distributed.get_worker()
    key = distributed.worker.thread_state.key
    def stop_if_cancelled(turn: int) -> None:
        task = worker.state.tasks.get(key)
        if task is None or task.state in ("cancelled", "released", "forgotten"):
            raise _Cancelled(f"game {job.key} cancelled")
    try:
        arena = _worker_arena(spec, bots)
        stop_if_cancelled(0)
        return arena.play(job, on_turn=stop_if_cancelled)
    except _Cancelled:
        raise
    except BotArenaError as error:
        return WorkerFailure(worker.address, str(error))
    except Exception as error:          # a bug or a broken install on that machine
        return WorkerFailure(worker.address, f"{type(error).__name__}: {error}")


# -- on the client ------------------------------------------------------------------------------

def _local_cluster(text: str) -> LocalCluster:
    """``local`` or ``local:N``: N worker processes of one thread here, on loopback only."""
    count_text = text.partition(":")[2]
    cores = usable_cores()
    try:
        count = int(count_text) if count_text else cores
    except ValueError:
        raise UsageError(f"--cluster {text!r}: write local or local:N (N worker processes)") \
            from None
    if count < 1:
        raise UsageError(f"--cluster {text!r}: N must be at least 1")
    if count > cores:
        print(f"botarena: --cluster {text} is more than the {cores} core(s) here; using "
              f"local:{cores} so that bots are not starved of CPU and time out", file=sys.stderr)
        count = cores
    # a game whose worker died comes back at once (KilledWorker) and is retried once on another
    # worker here, like any failed game (see the module docstring), not again by the scheduler
    dask.config.set({"distributed.scheduler.allowed-failures": 0})
    # the workers inherit an ignored SIGINT: Ctrl-C at a terminal reaches the whole process
    # group, and this process, not its workers, decides what an interruption keeps
    ignoring = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if ignoring else None
    try:
        return LocalCluster(n_workers=count, threads_per_worker=1, processes=True,
                            host="127.0.0.1", dashboard_address="127.0.0.1:0",
                            silence_logs=logging.ERROR)
    finally:
        if ignoring:
            signal.signal(signal.SIGINT, previous)


def _connect(address: str) -> tuple[Client, LocalCluster | None]:
    if address == "local" or address.startswith("local:"):
        cluster = _local_cluster(address)
        return Client(cluster), cluster
    try:
        _handshake(address)
        return Client(address, timeout=CONNECT_TIMEOUT_S), None
    except Exception as error:          # whatever answered there, it is not a Dask scheduler
        raise UsageError(f"--cluster {address}: no Dask scheduler answers there "
                         f"({_reason(error)}); start one with: dask scheduler (see "
                         "docs/cluster.md)") from None


def _handshake(address: str) -> None:
    """Dask's own handshake with ``address``, all of it within CONNECT_TIMEOUT_S.

    Client(timeout=) bounds the TCP connection only: Dask then waits for the peer's handshake
    with no limit (a silent listener held a run until it closed) and reads whatever comes as
    frames (an HTTP server's reply made it hang 11 minutes, or raise MemoryError on a frame
    length read from text). TimeoutError when no handshake comes in time."""
    async def shake() -> None:
        comm = await distributed.comm.connect(address, timeout=CONNECT_TIMEOUT_S)
        comm.abort()

    asyncio.run(asyncio.wait_for(shake(), CONNECT_TIMEOUT_S))


def _reason(error: BaseException) -> str:
    if isinstance(error, TimeoutError):
        return f"no Dask handshake within {CONNECT_TIMEOUT_S} s"
    if isinstance(error, MemoryError):
        return "its reply is not Dask's protocol"
    text = str(error).splitlines()[0] if str(error) else ""
    return text or type(error).__name__


class DaskExecutor:
    """Games as tasks of a Dask client; see tools.arena.executor.GameExecutor."""

    stop_drops_queued = True      # an SPRT decision cancels the games still queued

    def __init__(self, client: Client, cluster: LocalCluster | None, spec: ArenaSpec,
                 bot_texts: Mapping[str, str]):
        self.client, self.cluster, self.spec = client, cluster, spec
        self.bot_texts = bot_texts        # a bot's name -> its command (a tuner's: any name)
        self._futures: dict[distributed.Future, tuple[GameJob, int]] = {}   # job, attempt
        self._capacity, self._capacity_at = 1, -CAPACITY_REFRESH_S
        self.description = f"cluster {client.scheduler.address}"

    @classmethod
    def open(cls, arena: Arena, address: str, bot_texts: Mapping[str, str],
             workdir: str | None) -> DaskExecutor:
        # a game file goes by its path (the workers load it: the same path must hold it there)
        spec = ArenaSpec(getattr(arena.game, "source", arena.game.name), arena.options,
                         arena.time_control, arena.limits, workdir)
        client, cluster = _connect(address)
        executor = cls(client, cluster, spec, bot_texts)
        try:
            executor._announce()
            executor._check_workers()
        except BaseException:
            executor.close()
            raise
        return executor

    def _announce(self) -> None:
        workers = self._workers()
        threads = sum(worker["nthreads"] for worker in workers.values())
        dashboard = self.client.dashboard_link
        if self.cluster is not None and importlib.util.find_spec("bokeh") is None:
            dashboard = "none here (pip install bokeh for it)"      # it runs in this process
        print(f"botarena: cluster {self.client.scheduler.address}: {len(workers)} worker(s), "
              f"{threads} thread(s); dashboard {dashboard}", file=sys.stderr)
        if not workers:
            print("botarena: the cluster has no workers yet; games start when one joins "
                  "(dask worker ADDRESS --nthreads CORES)", file=sys.stderr)

    def _check_workers(self) -> None:
        """Every worker there now resolves the bots, or the run stops before any game."""
        problems = self.client.run(check_bots, self.spec, tuple(self.bot_texts.items()))
        for address, problem in sorted(problems.items()):
            if problem is not None:
                where = f" (--workdir {self.spec.workdir})" if self.spec.workdir else ""
                raise UsageError(f"on worker {address}{where}: {problem}")

    def _workers(self) -> dict:
        return self.client.scheduler_info(n_workers=-1)["workers"]

    def capacity(self) -> int:
        now = time.monotonic()
        if now - self._capacity_at >= CAPACITY_REFRESH_S:
            threads = sum(worker["nthreads"] for worker in self._workers().values())
            self._capacity, self._capacity_at = max(1, QUEUED_PER_THREAD * threads), now
        return self._capacity

    def in_flight(self) -> int:
        return len(self._futures)

    def submit(self, job: GameJob, attempt: int = 0, avoid: str | None = None) -> None:
        others = [address for address in self._workers() if address != avoid] if avoid else None
        bots = tuple((name, self.bot_texts[name]) for name in dict.fromkeys(job.seats))
        future = self.client.submit(play_on_worker, self.spec, bots, job, pure=False,
                                    key=f"botarena-game-{uuid.uuid4().hex}",
                                    workers=others or None, allow_other_workers=bool(others))
        self._futures[future] = (job, attempt)

    def finished(self, timeout: float) -> list[tuple[GameJob, MatchResult]]:
        if not self._futures:
            return []
        try:
            distributed.wait(list(self._futures), timeout=timeout, return_when="FIRST_COMPLETED")
        except TimeoutError:
            return []
        games = []
        for future in [future for future in self._futures if future.done()]:
            job, attempt = self._futures.pop(future)
            outcome = self._outcome(future)
            if isinstance(outcome, MatchResult):
                games.append((job, outcome))
            elif attempt == 0:
                self.submit(job, attempt=1, avoid=outcome.worker)
            else:
                games.append((job, self._failed_game(job, outcome)))
        return games

    def _outcome(self, future: distributed.Future) -> MatchResult | WorkerFailure:
        try:
            return future.result()
        except distributed.KilledWorker as error:
            worker = getattr(error.last_worker, "address", str(error.last_worker))
            return WorkerFailure(worker, f"worker {worker} died while playing it")
        except Exception as error:        # cancelled by the scheduler, lost data, ...
            return WorkerFailure("(unknown worker)", f"{type(error).__name__}: {error}")

    def _failed_game(self, job: GameJob, failure: WorkerFailure) -> MatchResult:
        """The record of a game no worker could play: a referee error, naming the worker."""
        message = f"worker {failure.worker}: {failure.message}"
        if failure.worker in failure.message:
            message = failure.message
        players = [PlayerResult(bot=name, score=0.0, rank=0, fault=None, latencies_ms=[],
                                cpu_ms=[], pdata={}, stderr_bytes=0) for name in job.seats]
        return MatchResult(self.spec.game, job.seed, dict(self.spec.options), 0,
                           "referee error: " + message, None, players, referee_error=message)

    def drop_waiting(self) -> None:
        self.cancel()                   # queued tasks wait on the scheduler: drop them all

    def cancel(self) -> None:
        if self._futures:
            self.client.cancel(list(self._futures), force=True)
            self._futures.clear()

    def close(self) -> None:
        try:
            self.cancel()
        finally:
            self.client.close()
            if self.cluster is not None:
                self.cluster.close()

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
