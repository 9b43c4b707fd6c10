"""Games of more than two players in ``match`` and ``league``: seatings and pairwise results.

A game of N players is played by lineups of N bots (a bot may take several seats), each lineup
rotated through the seats once per seed group, so every bot sits in every seat equally often
and seat advantage cancels. ``match A B`` plays the lineup A, B, B, ...: A once in each seat,
the other seats B. A finished game counts as the pairwise results of its seats (rank against
rank: win, draw or loss) between different bots: what the ratings, the head-to-head tallies
and the per-pair win matrix are built from. In ``match``, the result of A in seat i against B in
seat k and that of A in seat k against B in seat i (the same seed, A's next seat) are a
seat-swapped pair, as in a two-player match.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from tools.arena.schedule import GameJob, SeedSource, derive_seed


def players_per_game(seats: tuple[int, int]) -> int:
    """The player count a match or league plays: two when the game allows it, else its least."""
    low, high = seats
    return 2 if low <= 2 <= high else low


def rotations(lineup: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """The lineup turned through every seat, each distinct seating once."""
    seen: list[tuple[str, ...]] = []
    for shift in range(len(lineup)):
        seating = tuple(lineup[shift:]) + tuple(lineup[:shift])
        if seating not in seen:
            seen.append(seating)
    return tuple(seen)


@dataclass(frozen=True)
class SeatGroups:
    """``groups`` seed groups of one lineup from group ``start``: each seed once per seating."""

    lineup: tuple[str, ...]
    groups: int
    base_seed: SeedSource
    start: int = 0
    _seatings: tuple[tuple[str, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "_seatings", rotations(self.lineup))

    def __iter__(self) -> Iterator[GameJob]:
        for group in range(self.start, self.start + self.groups):
            seed = derive_seed(self.base_seed, group)
            for seating in self._seatings:
                yield GameJob(group, seating, seed)

    def __len__(self) -> int:
        return self.groups * len(self._seatings)

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, tuple) or len(key) != 2:
            return False
        group, seats = key
        return self.start <= group < self.start + self.groups and seats in self._seatings

    @property
    def group_size(self) -> int:
        return len(self._seatings)


def group_count(games: int, lineup: Sequence[str]) -> int:
    """Seed groups for at least ``games`` games of ``lineup`` (whole groups)."""
    size = len(rotations(lineup))
    return (games + size - 1) // size


def match_lineup(first: str, second: str, players: int) -> tuple[str, ...]:
    """``match``: the first bot in one seat, the second in all the others."""
    return (first,) + (second,) * (players - 1)


def league_lineups(names: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """``league``: every set of ``players`` bots; with fewer bots than seats, every bot in each
    lineup and the seats left taken in turn, so each bot takes an extra seat equally often."""
    if len(names) >= players:
        return list(itertools.combinations(names, players))
    extra = players - len(names)
    return [tuple(names) + tuple(names[(start + index) % len(names)] for index in range(extra))
            for start in range(len(names))]


def pairwise_records(record: dict, *, paired: bool) -> list[dict]:
    """The record of an N-player game as two-player records, one per pair of seats held by
    different bots, for the head-to-head tallies. Each seat's own figures (score, fault,
    latencies) are marked counted in its first pair only, so a bot's faults are not counted once
    per opponent. ``paired``: the pairs' keys match seat-swapped partners (see the docstring)."""
    seats, players = record["seats"], record["players"]
    latencies = record.get("latencies_ms") or [[] for _ in seats]
    counted: set[int] = set()
    derived = []
    for first, second in itertools.combinations(range(len(seats)), 2):
        if seats[first] == seats[second]:
            continue
        flags = [first not in counted, second not in counted]
        counted.update((first, second))
        derived.append({
            **{key: value for key, value in record.items()
               if key not in ("seats", "players", "latencies_ms", "pair")},
            "pair": (record["pair"], first, second) if paired else None,
            "seats": [seats[first], seats[second]],
            "seat_numbers": [first, second],
            "players": [players[first], players[second]],
            "latencies_ms": [latencies[first], latencies[second]],
            "counted": flags, "game_seats": list(seats)})
    return derived
