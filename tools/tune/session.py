"""What a tuning run (``botarena tune``) plays its games through: bots made up on the fly from
their command text, one results file for the whole run, resume, progress and Ctrl-C.

A tuner is a producer of game jobs: each step (an SPSA iteration, a racing round, a
verification match) is a list of jobs handed to :func:`tools.arena.runner.run_jobs` on
the run's workers. Every step is a function of the run's settings, its base seed and the
results of the steps before it, so a resumed run replays the games in the results file and
carries on exactly where it stopped, whatever the number of workers.
"""
from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator, Mapping, Sequence

from referee.api import UsageError
from referee.match import PlayerSpec
from tools.arena.arena import Arena
from tools.arena.botspec import resolve_bot
from tools.arena.executor import GameExecutor, open_executor
from tools.arena.progress import ProgressLines, TerminalBar, open_progress
from tools.arena.results import ResultsFile, RunIdentity, record_key
from tools.arena.runner import run_jobs, to_record
from tools.arena.schedule import GameJob
from tools.arena.settings import Settings
from tools.arena.setup import game_setup
from tools.arena.tally import game_score


class TuneInterrupted(Exception):
    """Ctrl-C or SIGTERM during a tuning run (the games finished so far are saved)."""


class BotsByText(Mapping):
    """Bots named by their command text, resolved the first time a game needs them."""

    def __init__(self, game: str, check_files: bool = True, sandboxed: bool = False):
        self.game = game
        self.check_files = check_files
        self.sandboxed = sandboxed
        self._resolved: dict[str, PlayerSpec] = {}

    def __getitem__(self, text: str) -> PlayerSpec:
        if text not in self._resolved:
            self._resolved[text] = resolve_bot(self.game, text, check_args=False,
                                               check_files=self.check_files,
                                               sandboxed=self.sandboxed)
        return self._resolved[text]

    def __iter__(self):
        return iter(self._resolved)

    def __len__(self) -> int:
        return len(self._resolved)


def score_of(record: dict, bot: str, opponent: str) -> float:
    """``bot``'s score (1, 1/2, 0); a game the referee failed, or whose timing is uncertain
    (played again, and still uncertain), counts as a draw: it tells nothing."""
    if record.get("referee_error") is not None or record.get("timing_uncertain"):
        return 0.5
    return game_score(record, bot, opponent)


class TuneSession:
    """The game, the results file and the workers of one tuning run."""

    def __init__(self, settings: Settings, stamp: dict,
                 progress_text: Callable[[], str] = lambda: ""):
        self.game, self.options, self.clock = game_setup(settings)
        if self.game.seats[0] > 2 or self.game.seats[1] < 2:
            raise UsageError(f"tune plays bots one against one; {self.game.name} is not a game "
                             "for two players")
        self.cluster, self.workdir = settings.cluster, settings.workdir
        self.jobs = settings.jobs
        self.arena = Arena(self.game, self.options, self.clock, settings.limits,
                           BotsByText(self.game.name, check_files=self.cluster is None,
                                      sandboxed=settings.limits.sandboxed))
        self._executor: GameExecutor | None = None
        self.executor_description = "no games played now"
        self.seed_list = settings.seeds
        digest = self.seed_list.digest if self.seed_list is not None else None
        self.stamp = {**stamp, "seeds": digest} if digest else stamp
        self.progress_text = progress_text
        self.results = ResultsFile(settings.results) if settings.results else None
        self.saved: dict[tuple, dict] = {}
        self.base_seed = self._open_results(settings.seed, digest)
        self.identity = RunIdentity(self.game.name, self.options, self.clock, None, self.base_seed,
                                    digest)
        # what the games' seeds come from: the --seeds list, or the base seed
        self.game_seeds = self.seed_list if self.seed_list is not None else self.base_seed
        self.quiet = settings.quiet
        self.progress: TerminalBar | ProgressLines | None = None
        self.planned = 0
        self.games = 0                 # finished games, replayed from the file or played now
        self.played = 0                # played by this process

    def _open_results(self, seed: int | None, seed_list: str | None) -> int:
        """The run's base seed: ``seed``, the results file's, or a random one. The results file
        (if any) is locked until the run ends, its games kept to be replayed."""
        if self.results is not None:
            seed = self.results.open(RunIdentity(self.game.name, self.options, self.clock,
                                                 None, seed, seed_list))
            records = list(self.results.records())
            try:
                self._check_stamps(records, self.results.where)
            except UsageError:
                self.results.close()
                raise
            self.saved = {record_key(record): record for record in records}
        return seed if seed is not None else random.randrange(2**31)

    def _check_stamps(self, records: list[dict], where: str) -> None:
        for record in records:
            theirs = (record.get("tune") or {}).get("run")
            if theirs is None:
                raise UsageError(f"{where} holds games that are not from a tuning run; give "
                                 "another --out file")
            if theirs != self.stamp:
                key = next((key for key in self.stamp if theirs.get(key) != self.stamp[key]),
                           "settings")
                raise UsageError(f"{where} is from another tuning run ({key} {theirs.get(key)!r},"
                                 f" not {self.stamp.get(key)!r}); give another --out file or the "
                                 "same settings")

    # -- playing ----------------------------------------------------------------------------
    def play(self, jobs: Sequence[GameJob], tags: Sequence[dict]) -> list[dict]:
        """The records of ``jobs`` in job order: from the results file when there, else played.
        ``tags`` (one per job: phase, step, each seat's parameters) go into each record."""
        records: dict[tuple, dict] = {}
        pending = []
        for job, tag in zip(jobs, tags):
            if job.key in self.saved:
                records[job.key] = self.saved[job.key]
                self._count(1)
            else:
                pending.append((job, tag))
        if pending:
            self._play_pending(pending, records)
        return [records[job.key] for job in jobs]

    def _play_pending(self, pending: list[tuple[GameJob, dict]], records: dict) -> None:
        tag_of = {job.key: tag for job, tag in pending}
        def on_result(job: GameJob, result) -> bool:
            record = to_record(result, job, self.identity, self.arena.commands(job))
            record["tune"] = {"run": self.stamp, **tag_of[job.key]}
            if self.results is not None:
                self.results.append(record)
            records[job.key] = record
            self.played += 1
            self._count(1)
            return False
        try:
            with self.executor() as executor:
                outcome = run_jobs(executor, [job for job, _ in pending], on_result=on_result)
        except KeyboardInterrupt:
            raise TuneInterrupted from None
        if outcome.interrupted or len(records) < len(tag_of):
            raise TuneInterrupted

    @contextlib.contextmanager
    def executor(self) -> Iterator[GameExecutor]:
        """One executor (threads, or a cluster) for every step of the run."""
        if self._executor is None:
            self._executor = open_executor(self.arena, jobs=self.jobs, cluster=self.cluster,
                                           bot_texts=_SameText(), workdir=self.workdir)
            self.executor_description = self._executor.description
        yield self._executor

    # -- progress ---------------------------------------------------------------------------
    def plan(self, games: int) -> None:
        """The run's total games as far as known (racing learns it as points drop)."""
        self.planned = max(games, self.games)
        if self.progress is not None:
            self.progress.set_total(self.planned)

    def _count(self, games: int) -> None:
        self.games += games
        if self.progress is None:
            self.progress = open_progress(self.planned, self.games - games,
                                          f"tune {self.game.name}",
                                          quiet=self.quiet)
        if self.progress is not None:
            self.progress.update(self.games, self.progress_text())

    def close(self) -> None:
        if self.progress is not None:
            self.progress.close()
            self.progress = None
        if self._executor is not None:
            self._executor.close()
            self._executor = None
        if self.results is not None:
            self.results.close()


class _SameText(dict):
    """name -> command for a cluster's workers: a tuning run names each bot by its command."""

    def __missing__(self, name: str) -> str:
        return name
