"""The settings a run of games shares, as one value: the command line builds it once from its
options; a Python caller builds it by hand and calls the arena with it, no command line faked:

    from tools.arena.headtohead import play_head_to_head
    from tools.arena.settings import BotLimits, Settings

    settings = Settings("tictactoe", seed=1, jobs=2, limits=BotLimits(memory_mb=None))
    result = play_head_to_head(settings, "greedy", "random", games=20)
    print(result.summary["elo"])

The arena checks a run's settings (``tools.arena.setup.game_setup``, which calls
``BotLimits.check``) before its first game, with the messages the command line gives.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.api import UsageError
from referee.harness.process import DEFAULT_MEMORY_MB
from referee.harness.sandbox import check_available as check_sandbox
from tools.arena.seeds import SeedList

MAX_MEMORY_MB = 1 << 20         # a TB per bot: beyond it a number is a typo, and overflows rlimits


@dataclass(frozen=True, slots=True)
class BotLimits:
    """What every bot of a run is started with. The fields are ``play_match``'s per-bot keyword
    arguments, passed by name (``to_kwargs``): a new per-bot setting is a field here, a command
    line option (tools/cli/options.py) and the harness code that honours it."""

    memory_mb: int | None = DEFAULT_MEMORY_MB   # memory cap per bot; None or 0: none
    sandboxed: bool = False                     # each bot under bubblewrap (docs/sandbox.md)
    line_buffered: bool = True                  # each bot's stdout line-buffered, as on CodinGame

    def check(self) -> None:
        """UsageError (one line, naming the command line's option) for a limit no bot can get."""
        if self.sandboxed:
            check_sandbox()             # before any game: one line saying how to install bwrap
        if self.memory_mb is not None and not 0 <= self.memory_mb <= MAX_MEMORY_MB:
            raise UsageError(f"--memory-mb {self.memory_mb}: must be from 0 (no cap) to "
                             f"{MAX_MEMORY_MB:,} (a TB)")

    def to_kwargs(self) -> dict[str, Any]:
        """``play_match``'s keyword arguments."""
        return {item.name: getattr(self, item.name) for item in dataclasses.fields(self)}


@dataclass(frozen=True, slots=True)
class Settings:
    """One run's settings: the game, its time control, the bots' limits, where games run and
    where results go. A command's own choices (its bots, the number of games, an SPRT) are the
    arguments of the call that plays them."""

    game: str
    options: Mapping[str, str] = field(default_factory=dict)   # game options, as text
    first_turn_ms: int | None = None        # None: the game's own time control
    turn_ms: int | None = None
    grace_ms: int | None = None
    limits: BotLimits = BotLimits()
    seed: int | None = None                 # base seed; None: random (or the results file's)
    seeds: SeedList | None = None           # play exactly these seeds (--seeds); None: derived
    jobs: int | None = None                 # games at once here; None: one per core
    cluster: str | None = None              # a Dask scheduler's address, or local[:N]
    workdir: str | None = None              # where relative bot paths start (on each worker)
    results: str | None = None              # results file (JSON lines): kept, and resumed from
    replays: str | None = None              # folder for each game's replay
    quiet: bool = False                     # no progress bar

    def __post_init__(self) -> None:
        """``seeds`` given as a list or tuple of integers becomes a SeedList (checked there);
        anything else that is not one is refused, as the command line refuses it."""
        seeds: object = self.seeds
        if isinstance(seeds, (list, tuple)):
            object.__setattr__(self, "seeds", SeedList(tuple(seeds), "seeds"))
        elif seeds is not None and not isinstance(seeds, SeedList):
            raise UsageError(f"seeds={seeds!r}: give a SeedList, or a list of integers")

    def time_changes(self) -> dict[str, int]:
        """The time control settings given, by field name (milliseconds)."""
        return {name: value for name, value in (("first_turn_ms", self.first_turn_ms),
                                                ("turn_ms", self.turn_ms),
                                                ("grace_ms", self.grace_ms))
                if value is not None}
