"""What plays one game job (an :class:`Arena`: the game, its settings and the bots by name) and
how many play at once on this machine. A leaf of tools.arena: the runner, the executors (local
threads or a Dask cluster's workers) and the tuners all build on it, and it imports none of them.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from referee.api import Fault, Game, TimeControl, UsageError
from referee.external.game import ExternalGame
from referee.harness.process import BotStartError
from referee.match import MatchResult, PlayerSpec, play_match
from tools.arena.botspec import command_of, for_game
from tools.arena.schedule import GameJob
from tools.arena.settings import BotLimits


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


@dataclass(frozen=True)
class Arena:
    """Everything a game job needs besides its seats and seed."""

    game: Game | ExternalGame
    options: dict
    time_control: TimeControl
    limits: BotLimits                     # what each bot starts with: memory, sandbox...
    players: Mapping[str, PlayerSpec]
    record: bool = False                  # keep each game's turns (for its replay file)
    _program_files: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
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
