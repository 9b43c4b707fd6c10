"""What ``match``, ``league`` and ``sweep`` share: a run's settings checked, its bots, the
results file and resume, the progress bar, and playing a list of game jobs."""
from __future__ import annotations

import contextlib
import dataclasses
import os
import random
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from referee.api import UsageError
from referee.external.game import replay_fields
from referee.harness.process import BotStartError
from referee.match import MatchResult
from referee.replay import to_replay, write_replay
from tools.arena.arena import Arena, worker_count
from tools.arena.botspec import resolve_bot
from tools.arena.executor import GameExecutor, open_executor
from tools.arena.multiplayer import players_per_game
from tools.arena.progress import open_progress
from tools.arena.results import ResultsFile, RunIdentity, record_key
from tools.arena.runner import TIMING_REPLAYS, RunOutcome, run_jobs, to_record
from tools.arena.schedule import MAX_GAMES, GameJob, Schedule
from tools.arena.settings import Settings
from tools.arena.setup import game_setup


def pair_count(games: int) -> int:
    if not 1 <= games <= MAX_GAMES:
        raise UsageError(f"-n {games}: must be from 1 to {MAX_GAMES:,}")
    return (games + 1) // 2


def every_seed_count(settings: Settings, games: int | None) -> int | None:
    """With ``games`` None, the number of seeds in ``settings.seeds``, each played in every
    seating; None when a number of games is given; UsageError when neither is."""
    if games is not None:
        return None
    if settings.seeds is None:
        raise UsageError("games=None plays every seed of a seed list: give Settings(seeds=...) "
                         "or a number of games")
    return len(settings.seeds)


def distinct_names(bot_texts: Sequence[str]) -> tuple[str, ...]:
    """The bots' names: their text, with " #2", " #3"... on repeats (self-play is a fair test)."""
    names = []
    for text in bot_texts:
        name, copy = text, 1
        while name in names:
            copy += 1
            name = f"{text} #{copy}"
        names.append(name)
    return tuple(names)


def replay_name(job: GameJob) -> str:
    """``pair00012-greedy-vs-random_--seed_3.json``: the pair id, then the bots in seat order."""
    names = [re.sub(r"[^A-Za-z0-9.=+-]+", "_", name).strip("_")[:60] for name in job.seats]
    return f"pair{job.pair:05d}-{'-vs-'.join(names)}.json"


def _replays_folder(text: str | None) -> Path | None:
    """The --replays folder, created and checked writable before any game is played."""
    if text is None:
        return None
    folder = Path(text)
    probe = folder / f".botarena-{os.getpid()}.check"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe.open("w").close()
        probe.unlink()
    except OSError as error:
        raise UsageError(f"--replays {text!r} cannot be written: {error.strerror}") from None
    return folder


class Tournament:
    """Bots of one game, a results file and a base seed: plays jobs and feeds finished games."""

    def __init__(self, settings: Settings, bot_texts: Sequence[str], command: str):
        self.game, self.options, self.clock = game_setup(settings)
        low, high = self.game.seats
        self.solo = (low, high) == (1, 1)     # compared seed by seed: see tools.arena.solo
        # games of more players: lineups rotated through the seats, see tools.arena.multiplayer
        self.players = 1 if self.solo else players_per_game(self.game.seats)
        if self.players > 2 and command not in ("match", "league"):
            raise UsageError(f"{command} plays two-player games; {self.game.name} is a game "
                             f"for {low if low == high else f'{low} to {high}'} players (match "
                             "and league play it)")
        self.bots = distinct_names(bot_texts)
        self.bot_texts = dict(zip(self.bots, bot_texts))
        self.cluster, self.workdir = settings.cluster, settings.workdir
        self.jobs: int | None
        if self.cluster is None:
            self.jobs = worker_count(settings.jobs)
            self.executor_description = f"jobs {self.jobs}"
        else:
            self.jobs = settings.jobs         # refused with a cluster, when the cluster opens
            self.executor_description = f"cluster {self.cluster}"
        # on a cluster the workers resolve the commands; here only what needs no file is checked
        players = {name: dataclasses.replace(
                       resolve_bot(self.game.name, text, check_files=self.cluster is None,
                                   workdir=self.workdir, sandboxed=settings.limits.sandboxed),
                       name=name)
                   for name, text in self.bot_texts.items()}
        self.replays = _replays_folder(settings.replays)
        self.arena = Arena(self.game, self.options, self.clock, settings.limits, players,
                           record=self.replays is not None)
        self._executor: GameExecutor | None = None
        self.quiet = settings.quiet
        self.command = command
        self.seed_list = settings.seeds
        digest = self.seed_list.digest if self.seed_list is not None else None
        identity = RunIdentity(self.game.name, self.options, self.clock, self.bots, settings.seed,
                               digest)
        self.results = ResultsFile(settings.results) if settings.results is not None else None
        base_seed = settings.seed
        if self.results is not None:
            base_seed = self.results.open(identity)      # locked until the run ends
        self.base_seed = base_seed if base_seed is not None else random.randrange(2**31)
        self.identity = RunIdentity(self.game.name, self.options, self.clock, self.bots,
                                    self.base_seed, digest)
        # what the jobs' seeds come from: the --seeds list, or the base seed
        self.game_seeds = self.seed_list if self.seed_list is not None else self.base_seed
        self.planned = 0
        self.finished = 0
        self.seed_groups: int | None = None   # seed indices the jobs use (told by the caller)
        self.uncertain = 0              # games of uncertain timing, kept apart (see run_jobs)
        self.replayed = 0               # games played again for that

    def play(self, jobs: Schedule, on_record: Callable[[dict], bool],
             progress_text: Callable[[], str] = lambda: "", *,
             stop_before: Callable[[], bool] = lambda: False) -> RunOutcome:
        """Feed the records of ``jobs`` already in the results file to ``on_record``, then play
        the rest; ``on_record`` returns True to stop early. ``stop_before`` is asked once the
        old records are in (an SPRT already decided plays nothing). The results file stays
        open and locked across calls, until ``close`` (or the end of the process)."""
        finished = 0
        results = self.results
        recorded = results.recorded if results is not None else {}
        if results is not None and recorded:
            for record in results.records():
                if record_key(record) in jobs:
                    finished += 1
                    self.uncertain += bool(record.get("timing_uncertain"))
                    on_record(record)
        self.planned, self.finished = len(jobs), finished
        # lazily: a run of 10**8 games never holds its list of jobs
        pending = (job for job in jobs if job.key not in recorded)
        if finished == self.planned or stop_before():
            return RunOutcome()
        progress = open_progress(self.planned, finished, f"{self.command} {self.game.name}",
                                 quiet=self.quiet)
        def on_result(job: GameJob, result) -> bool:
            record = to_record(result, job, self.identity, self.arena.commands(job))
            if self.replays is not None:
                record["replay"] = self._keep_replay(self.replays, job, result)
            if self.results is not None:
                self.results.append(record)
            self.finished += 1
            self.uncertain += result.timing_uncertain
            stop = on_record(record)
            if progress is not None:
                progress.update(self.finished, progress_text())
            return stop
        try:
            with self.session() as executor:
                outcome = run_jobs(executor, pending, on_result=on_result)
                self.replayed += outcome.replayed
                return outcome
        except BotStartError as error:       # set-up, not a game: stop, keep what was played
            kept = f"; {self.finished} of {self.planned} games finished" + (
                f", kept in {self.results.path}: fix the bot and run the same command again to "
                "resume" if self.results is not None else "")
            raise BotStartError(f"{error}{kept}") from None
        finally:
            if progress is not None:
                progress.close()

    def close(self) -> None:
        """Release the results file (another run waiting for it goes on)."""
        if self.results is not None:
            self.results.close()

    def __enter__(self) -> Tournament:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextlib.contextmanager
    def session(self) -> Iterator[GameExecutor]:
        """The executor games run on (threads, or a Dask client): ``play`` opens one per call;
        a caller playing many batches keeps one open across them with ``with t.session():``."""
        if self._executor is not None:
            yield self._executor
            return
        executor = open_executor(self.arena, jobs=self.jobs, cluster=self.cluster,
                                 bot_texts=self.bot_texts, workdir=self.workdir)
        self._executor, self.executor_description = executor, executor.description
        try:
            yield executor
        finally:
            self._executor = None
            executor.close()

    def _keep_replay(self, folder: Path, job: GameJob, result: MatchResult) -> str:
        """Write the game's replay into ``folder`` (--replays); its path as the results line
        gives it (relative to the results file's folder, where ``view FILE.jsonl:LINE`` looks)."""
        path = folder / replay_name(job)
        write_replay(path, {**to_replay(result, self.arena.seat_players(job), self.clock),
                            **replay_fields(self.game)})
        base = self.results.path.parent if self.results is not None else Path.cwd()
        return os.path.relpath(path, base)

    def status_lines(self, outcome: RunOutcome) -> list[str]:
        """Seed, results file and, after an interruption, how to resume."""
        seeds = f"seeds {self.seed_list.source} ({len(self.seed_list)})" \
            if self.seed_list is not None else f"seed {self.base_seed}"
        lines = [f"{seeds}  {self.executor_description}"
                 + (f"  results {self.results.path}" if self.results else "")]
        used, listed = self.seed_groups, len(self.seed_list) if self.seed_list else 0
        if self.seed_list is not None and used is not None and used < listed:
            lines.append(f"-n caps the run: {used} of the {listed} seeds of "
                         f"{self.seed_list.source} played (without -n, every seed in every "
                         "seating)")
        elif self.seed_list is not None and used is not None and used > listed:
            lines.append(f"-n is more than the seeds: the {listed} seeds of "
                         f"{self.seed_list.source} played again from the first ({used} rounds "
                         "of seatings)")
        if self.uncertain or self.replayed:
            lines.append(f"timing uncertain: {self.uncertain} game(s) kept apart, out of every "
                         f"figure above ({self.replayed} game(s) played again on their seed, up "
                         f"to {TIMING_REPLAYS} times each): an answer was read past its deadline "
                         "by an overloaded botarena, and when it was written could not be told; "
                         "run fewer jobs at once")
        if outcome.interrupted:
            again = "run the same command again to resume" if self.results \
                else "use --out FILE to be able to resume"
            lines.append(f"interrupted: {self.finished} of {self.planned} games finished ({again})")
        return lines
