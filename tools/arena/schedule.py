"""The games of a run, generated as they are needed: memory does not grow with ``-n``.

A schedule iterates over its game jobs (again each time), knows how many there are and
whether a (pair, seats) key is one of them (a results file's game belongs to the run), all
without building a list: ``match -n 100000000`` starts its first game at once.
"""
from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from tools.arena.seeds import SeedList

MAX_GAMES = 10**9               # a billion games: years at the fastest rate measured

SeedSource = int | SeedList     # where a run's game seeds come from: a base seed, or --seeds' list
JobKey = tuple[int, tuple[str, ...]]    # (pair, seats): a game of the run, as results files key it


@dataclass(frozen=True, slots=True)
class GameJob:
    """One game to play: pair ``pair`` of its matchup, bots named in seat order."""

    pair: int
    seats: tuple[str, ...]
    seed: int

    @property
    def key(self) -> JobKey:
        return self.pair, self.seats


def derive_seed(base_seed: SeedSource, pair: int) -> int:
    """The game seed of pair ``pair``: deterministic, the same for every matchup of the run;
    with ``--seeds``, the list's seed for that pair."""
    if not isinstance(base_seed, int):
        return base_seed.seed(pair)
    digest = hashlib.sha256(f"botarena:{base_seed}:{pair}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


class Schedule(Protocol):
    def __iter__(self) -> Iterator[GameJob]: ...
    def __len__(self) -> int: ...
    def __contains__(self, key: JobKey) -> bool: ...


@dataclass(frozen=True)
class PairedJobs:
    """``pairs`` pairs of games between two bots from pair ``start``: each seed twice, seats
    swapped."""

    first: str
    second: str
    pairs: int
    base_seed: SeedSource
    start: int = 0

    def __iter__(self) -> Iterator[GameJob]:
        for pair in range(self.start, self.start + self.pairs):
            seed = derive_seed(self.base_seed, pair)
            yield GameJob(pair, (self.first, self.second), seed)
            yield GameJob(pair, (self.second, self.first), seed)

    def __len__(self) -> int:
        return 2 * self.pairs

    def __contains__(self, key: JobKey) -> bool:
        pair, seats = key
        return self.start <= pair < self.start + self.pairs and \
            seats in ((self.first, self.second), (self.second, self.first))


@dataclass(frozen=True)
class Interleaved:
    """Several matchups round-robin, one pair (two games) of each in turn, so every matchup
    advances together (``chunk``: games of one matchup in a row, a seed group's)."""

    schedules: tuple[Schedule, ...]
    chunk: int = 2

    def __iter__(self) -> Iterator[GameJob]:
        sources = [iter(schedule) for schedule in self.schedules]
        size = self.chunk
        while sources:
            still = []
            for source in sources:
                chunk = list(itertools.islice(source, size))
                yield from chunk
                if len(chunk) == size:
                    still.append(source)
            sources = still

    def __len__(self) -> int:
        return sum(len(schedule) for schedule in self.schedules)

    def __contains__(self, key: JobKey) -> bool:
        return any(key in schedule for schedule in self.schedules)


@dataclass(frozen=True)
class SoloJobs:
    """Each bot alone on seeds 0..seeds-1, seed by seed (so comparisons come in steadily)."""

    names: tuple[str, ...]
    seeds: int
    base_seed: SeedSource

    def __iter__(self) -> Iterator[GameJob]:
        for pair in range(self.seeds):
            seed = derive_seed(self.base_seed, pair)
            for name in self.names:
                yield GameJob(pair, (name,), seed)

    def __len__(self) -> int:
        return self.seeds * len(self.names)

    def __contains__(self, key: JobKey) -> bool:
        pair, seats = key
        return 0 <= pair < self.seeds and len(seats) == 1 and seats[0] in self.names


def paired_jobs(first: str, second: str, pairs: int, base_seed: SeedSource, start: int = 0) -> PairedJobs:
    return PairedJobs(first, second, pairs, base_seed, start)


def interleave(schedules: Sequence[Schedule], chunk: int = 2) -> Interleaved:
    return Interleaved(tuple(schedules), chunk)


def solo_jobs(names: Sequence[str], seeds: int, base_seed: SeedSource) -> SoloJobs:
    return SoloJobs(tuple(names), seeds, base_seed)
