"""``--seeds FILE``: games played on seeds the user chose, one a line (as collected from
CodinGame's replays), instead of seeds derived from a base seed.

A line holds one signed 64-bit integer (CodinGame's seeds are Java longs: big, often negative),
optionally written ``seed=N`` as CodinGame's replay options show it. Blank lines and ``#``
comments (whole lines or after the seed) are skipped. Pair ``k`` of a run plays seed ``k`` of
the list (again from the first when a run has more pairs than the list has seeds). A Python
caller gives the list as ``Settings(game, seeds=SeedList((1, 2, 3), "mine"))``.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from referee.api import UsageError

MAX_SEED = 2**63 - 1              # seeds are Java longs, as CodinGame's referees take them
MIN_SEED = -2**63
_LINE = re.compile(r"(?:seed\s*=\s*)?([+-]?\d+)", re.IGNORECASE)
MAX_SEEDS = 10**6
MAX_FILE_BYTES = 64 << 20         # a million seeds with comments: a few tens of MB


@dataclass(frozen=True, slots=True)
class SeedList:
    """The seeds of a ``--seeds`` file, in order."""

    seeds: tuple[int, ...]
    source: str                  # the file, as given

    def __post_init__(self) -> None:
        """What ``read_seeds`` checks in a file, checked here too (a Python caller's list)."""
        if not isinstance(self.seeds, tuple):
            raise UsageError(f"seeds {self.source!r}: give the seeds as a tuple of integers, "
                             f"not {type(self.seeds).__name__}")
        if not self.seeds:
            raise UsageError(f"seeds {self.source!r} holds no seed")
        if len(self.seeds) > MAX_SEEDS:
            raise UsageError(f"seeds {self.source!r}: more than {MAX_SEEDS:,} seeds")
        for seed in self.seeds:
            if not isinstance(seed, int) or isinstance(seed, bool) \
                    or not MIN_SEED <= seed <= MAX_SEED:
                raise UsageError(f"seeds {self.source!r}: {seed!r} is not a seed (a signed "
                                 f"64-bit integer, {MIN_SEED:,} to {MAX_SEED:,})")

    def seed(self, pair: int) -> int:
        return self.seeds[pair % len(self.seeds)]

    def __len__(self) -> int:
        return len(self.seeds)

    def games(self, solo: bool) -> int:
        """A run's games when not told: each seed in both seat orders (once in a one-player
        game)."""
        return len(self.seeds) * (1 if solo else 2)

    @property
    def digest(self) -> str:
        """What a results file records to refuse games of another list."""
        return hashlib.sha256(" ".join(map(str, self.seeds)).encode()).hexdigest()[:16]


def parse_seed_line(text: str) -> int | None:
    """The seed on one line; None for a blank or comment line; ValueError for anything else."""
    content = text.split("#", 1)[0].strip()
    if not content:
        return None
    found = _LINE.fullmatch(content)
    if found is None:
        raise ValueError("not a whole number")
    seed = int(found.group(1))
    if not MIN_SEED <= seed <= MAX_SEED:
        raise ValueError(f"outside the signed 64-bit range ({MIN_SEED:,} to {MAX_SEED:,})")
    return seed


def read_seeds(path: str) -> SeedList:
    """The seeds of ``path``; UsageError (one line, with the line number) for a bad line, or for
    a file larger than any list of ``MAX_SEEDS`` seeds (``/dev/zero`` is read no further)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
        text = data.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise UsageError(f"--seeds {path!r} cannot be read: {reason}") from None
    if len(data) > MAX_FILE_BYTES:
        raise UsageError(f"--seeds {path!r} is larger than {MAX_FILE_BYTES >> 20} MB: not a seed "
                         f"list (one integer a line, at most {MAX_SEEDS:,} seeds)")
    seeds = []
    for number, line in enumerate(text.splitlines(), 1):
        try:
            seed = parse_seed_line(line)
        except ValueError as error:
            raise UsageError(f"--seeds {path!r}, line {number}: {line.strip()[:60]!r} is not a "
                             f"seed ({error}; one signed 64-bit integer a line, e.g. "
                             "-2634497367583446500 or seed=42)") from None
        if seed is not None:
            seeds.append(seed)
        if len(seeds) > MAX_SEEDS:
            raise UsageError(f"--seeds {path!r}: more than {MAX_SEEDS:,} seeds")
    if not seeds:
        raise UsageError(f"--seeds {path!r} holds no seed (one integer a line; blank lines and "
                         "# comments are skipped)")
    return SeedList(tuple(seeds), path)
