"""``ladder run``: play the ladder's games, one unit at a time where the scheduler says, until
told to stop (``-n``, ``--for``, Ctrl-C, SIGTERM).

The folder's results file is the truth, as in ``match --out``: each finished game is one line,
written at once; a run starts by reading it, so a run stopped any way (SIGKILL included) loses
only the games it was playing. A unit cut short (one game of a seat-swapped pair recorded, the
other not) is completed first, on its own seed. New units take pair numbers past every one in
the file, so no game is played twice. The bots' file is read again before each new game: a bot
added from another terminal joins at the next one, a removed one plays no new game.
"""
from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass

from referee.api import UsageError
from referee.harness.process import BotStartError
from referee.match import PlayerSpec
from tools.arena.arena import Arena
from tools.arena.botspec import resolve_bot
from tools.arena.executor import open_executor
from tools.arena.multiplayer import pairwise_records, players_per_game, rotations
from tools.arena.progress import progress_seconds
from tools.arena.results import ResultsFile, RunIdentity
from tools.arena.runner import GameJob, RunOutcome, run_jobs, to_record
from tools.arena.schedule import derive_seed
from tools.arena.settings import Settings
from tools.arena.setup import game_setup
from tools.arena.tally import game_score
from tools.ladder.folder import LadderFolder
from tools.ladder.model import Fit, PairTally, fit
from tools.ladder.scheduler import Lineup, Scheduler


class Book:
    """What the scheduler knows of the games played: pairwise tallies, each unit's seatings
    played, the next free pair number."""

    def __init__(self) -> None:
        self.tally = PairTally()
        self.units: dict[int, set[tuple[str, ...]]] = {}
        self.next_pair = 0
        self.games = 0
        self.version = 0                   # changes with every game counted

    def add(self, record: dict) -> None:
        pair, seats = record["pair"], tuple(record["seats"])
        self.units.setdefault(pair, set()).add(seats)
        self.next_pair = max(self.next_pair, pair + 1)
        self.games += 1
        if record.get("referee_error") is not None:
            return                          # no result (as league counts it)
        self.version += 1
        pairs = pairwise_records(record, paired=False) if len(seats) > 2 else [record]
        for game in pairs:
            first, second = game["seats"]
            self.tally.add(first, second, game_score(game, first, second))

    def unfinished(self, active: set[str]) -> Iterator[tuple[int, list[tuple[str, ...]]]]:
        """Units cut short whose bots are all still in the table: pair, seatings left."""
        for pair, played in sorted(self.units.items()):
            lineup = next(iter(played))
            missing = [seating for seating in rotations(lineup) if seating not in played]
            if missing and set(lineup) <= active:
                yield pair, missing


@dataclass
class LadderOutcome:
    played: int
    interrupted: bool
    note: str | None               # why it stopped, when not asked to


class LadderRun:
    """One ``run`` of a ladder folder (hold ``folder.run_lock()`` around ``play``)."""

    def __init__(self, folder: LadderFolder, settings: Settings, *, games: int | None = None,
                 seconds: float | None = None):
        self.folder, self.settings = folder, settings
        self.game, self.options, self.clock = game_setup(settings)
        if self.game.seats == (1, 1):
            raise UsageError(f"{self.game.name} is a single-player game: a ladder ranks bots "
                             "playing each other (league compares single-player bots seed by seed)")
        self.players = players_per_game(self.game.seats)
        config = folder.config()
        self.seeds = settings.seeds if settings.seeds is not None else config.seed
        digest = settings.seeds.digest if settings.seeds is not None else None
        self.identity = RunIdentity(self.game.name, self.options, self.clock, None, config.seed,
                                    digest)
        self.limit_games, self.seconds = games, seconds
        self.workdir = settings.workdir or str(folder.path.resolve())
        self.specs: dict[str, PlayerSpec] = {}
        self.texts: dict[str, str] = {}
        self.active: dict[str, int] = {}          # name -> its place in the history
        self.book = Book()
        self.queue: list[GameJob] = []
        self.in_flight: dict[tuple[int, tuple[str, ...]], Lineup] = {}
        self.issued = self.finished = 0
        self.note: str | None = None
        self._fit: Fit | None = None
        self._fit_version = -1
        self._bots_stamp = -1

    # -- the bots ---------------------------------------------------------------------------
    def _refresh_bots(self) -> None:
        stamp = self.folder.bots_stamp()
        if stamp == self._bots_stamp:
            return
        self._bots_stamp = stamp
        active = self.folder.active()
        for name, bot in active.items():
            if name not in self.specs:
                try:
                    spec = resolve_bot(self.game.name, bot.command,
                                       check_files=self.settings.cluster is None,
                                       workdir=self.workdir)
                except UsageError as error:
                    print(f"botarena: ladder: bot {name!r} left out: {error}", file=sys.stderr)
                    continue
                self.specs[name] = dataclasses.replace(spec, name=name)
                self.texts[name] = bot.command
        self.active = {name: bot.added for name, bot in active.items() if name in self.specs}

    def newest(self) -> str | None:
        return max(self.active, key=lambda name: self.active[name]) if self.active else None

    # -- choosing the games -----------------------------------------------------------------
    def current_fit(self) -> Fit:
        names = sorted(self.active, key=lambda name: self.active[name])
        if self._fit is None or self._fit_version != self.book.version \
                or list(self._fit.names) != names:
            start = None
            if self._fit is not None:
                known = dict(zip(self._fit.names, self._fit.theta))
                start = [known.get(name, 0.0) for name in names]
            self._fit = fit(names, self.book.tally, start)
            self._fit_version = self.book.version
        return self._fit

    def _next_unit(self) -> list[GameJob]:
        active = set(self.active)
        taken = {key[0] for key in self.in_flight}
        for pair, missing in self.book.unfinished(active):
            if pair not in taken:
                seed = derive_seed(self.seeds, pair)
                return [GameJob(pair, seating, seed) for seating in missing]
        if len(active) < 2:
            return []
        scheduler = Scheduler(self.current_fit(), self.book.tally, list(self.active), self.newest())
        scheduler.add_pending(list({key[0]: lineup for key, lineup in self.in_flight.items()}
                                   .values()))
        lineup = scheduler.choose(self.players)
        pair = max(self.book.next_pair, max(taken, default=-1) + 1)
        seed = derive_seed(self.seeds, pair)
        return [GameJob(pair, seating, seed) for seating in rotations(lineup)]

    def jobs(self) -> Iterator[GameJob]:
        """The games to play, chosen one at a time as a worker frees up."""
        deadline = time.monotonic() + self.seconds if self.seconds is not None else None
        while True:
            if self.limit_games is not None and self.issued >= self.limit_games:
                return
            if deadline is not None and time.monotonic() >= deadline:
                return
            self._refresh_bots()
            self.queue = [job for job in self.queue if set(job.seats) <= set(self.active)]
            if not self.queue:
                self.queue = self._next_unit()
                if not self.queue:
                    self.note = ("fewer than two bots in the ladder: add some (botarena ladder "
                                 "FOLDER add NAME BOT)")
                    return
            job = self.queue.pop(0)
            self.in_flight[job.key] = tuple(sorted(set(job.seats))) if self.players == 2 \
                else job.seats
            self.issued += 1
            yield job

    # -- playing ----------------------------------------------------------------------------
    def play(self) -> LadderOutcome:
        results = ResultsFile(self.settings.results or "")
        results.open(self.identity)
        try:
            for record in results.records():
                self.book.add(record)
            self._refresh_bots()
            if len(self.active) < 2:
                raise UsageError(f"ladder {str(self.folder.path)!r} has {len(self.active)} "
                                 "bot(s); a run needs two: botarena ladder FOLDER add NAME BOT")
            return self._play(results)
        finally:
            results.close()

    def _play(self, results: ResultsFile) -> LadderOutcome:
        arena = Arena(self.game, self.options, self.clock, self.settings.limits, self.specs)
        progress = _Progress(self, quiet=self.settings.quiet)

        def on_result(job: GameJob, result) -> bool:
            record = to_record(result, job, self.identity, arena.commands(job))
            results.append(record)
            self.in_flight.pop(job.key, None)
            self.book.add(record)
            self.finished += 1
            progress.update()
            return False

        outcome = RunOutcome()
        try:
            executor = open_executor(arena, jobs=self.settings.jobs, cluster=self.settings.cluster,
                                     bot_texts=self.texts, workdir=self.workdir)
            try:
                outcome = run_jobs(executor, self.jobs(), on_result=on_result)
            finally:
                executor.close()
        except BotStartError as error:
            raise BotStartError(f"{error}; {self.finished} game(s) of this run kept in "
                                f"{results.path}: fix or remove the bot and run again") from None
        return LadderOutcome(self.finished, outcome.interrupted, self.note)


class _Progress:
    """A line on stderr every ``BOTARENA_PROGRESS_SECONDS`` (30) seconds: games, leader."""

    def __init__(self, run: LadderRun, *, quiet: bool):
        self.run, self.quiet = run, quiet
        self.seconds = progress_seconds()
        self.last = time.monotonic()

    def update(self) -> None:
        if self.quiet or time.monotonic() - self.last < self.seconds:
            return
        self.last = time.monotonic()
        run = self.run
        order = run.current_fit().order() if len(run.active) >= 2 else []
        leader = f"  leader {order[0]}" if order else ""
        print(f"botarena: ladder {run.folder.path}: {run.finished} games this run, "
              f"{run.book.games} in all{leader}", file=sys.stderr, flush=True)

