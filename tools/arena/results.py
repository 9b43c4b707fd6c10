"""The results file of a run: one JSON line per finished game, appended under a lock.

The file is opened and locked (``flock``) before it is read, and stays locked until the run
ends: a second run on the same file waits for the first to finish, then reads everything the
first one wrote (so no game is lost or played twice). Lines are appended with ``O_APPEND``, one
``write`` each. The only bytes ever removed are an unterminated last line that starts like a
record (a writer killed mid-write), read and removed under the lock. Every line read is capped
(``MAX_LINE_BYTES``), and only a regular file whose first line is a botarena record is taken:
a device, a FIFO or someone's notes are refused before the first game.
"""
from __future__ import annotations

import dataclasses
import json
import math
import os
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.api import MAX_SCORE, TimeControl, UsageError

MAX_LINE_BYTES = 4 << 20          # a game's line is a few KB; past this the file is not ours
_RECORD_START = b'{"game":'       # how every line we write begins (see to_record)
_CHUNK = 1 << 16

Key = tuple[int, tuple[str, ...]]


@dataclass(frozen=True)
class RunIdentity:
    """What every game of a run shares; a results file from another run is refused."""

    game: str
    options: dict
    time_control: TimeControl
    bots: tuple[str, ...] | None          # None: any bots (a tuning run makes up its own)
    base_seed: int | None
    seed_list: str | None = None          # the digest of --seeds' list (None: derived seeds)

    def stamp(self) -> dict:
        stamp: dict[str, Any] = {"base_seed": self.base_seed,
                 "time_control": dataclasses.asdict(self.time_control)}
        if self.seed_list is not None:
            stamp["seed_list"] = self.seed_list
        return stamp


def record_key(record: dict) -> Key:
    return record["pair"], tuple(record["seats"])


class ResultsFile:
    """The append-only JSON-lines file of a run. ``open`` locks, checks and indexes it;
    ``records`` reads the games again; ``append`` adds one; ``close`` unlocks."""

    def __init__(self, path: str | Path):
        self._fd: int | None = None
        if not str(path):
            raise UsageError("--out '': give a file name")
        self.path = Path(path)
        self.recorded: dict[Key, int] = {}    # every game in the file -> its result's fingerprint
        self._indexed_bytes = 0
        self._repeats: set[int] = set()       # line numbers of games recorded a second time

    @property
    def _descriptor(self) -> int:
        """The open file's descriptor (ValueError when not open)."""
        if self._fd is None:
            raise ValueError(f"{self.where} is not open")
        return self._fd

    @property
    def where(self) -> str:
        return f"results file {str(self.path)!r}"

    def open(self, identity: RunIdentity) -> int | None:
        """Lock the file (waiting for another run that holds it), check that every line is a
        game of this run and return the base seed they were played with. Raises UsageError,
        the file untouched, when it is not a results file of this run."""
        self._fd = self._open_locked()
        try:
            return self._index(identity)
        except BaseException:
            self.close()
            raise

    def _open_locked(self) -> int:
        existing = _stat_or_none(self.path)
        if existing is not None:
            self._check_regular(existing.st_mode)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # O_NONBLOCK: a FIFO swapped in after the check must not hang the open
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_NONBLOCK
                         | os.O_CLOEXEC, 0o644)
        except OSError as error:
            raise UsageError(f"{self.where} cannot be written: {error.strerror}") from None
        try:
            self._check_regular(os.fstat(fd).st_mode)
            os.set_blocking(fd, True)
            _lock(fd, self.path)
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _check_regular(self, mode: int) -> None:
        if stat.S_ISDIR(mode):
            raise UsageError(f"{self.where} is a directory; give a file name")
        if not stat.S_ISREG(mode):
            raise UsageError(f"{self.where} is not a regular file (a device, FIFO or socket); "
                             "give a file name")

    def _index(self, identity: RunIdentity) -> int | None:
        """One pass over the file: check each line, note each game's key (and repeats)."""
        base_seed = identity.base_seed
        checker = _IdentityCheck(identity, self.where)
        repeats = []
        for number, line in self._complete_lines():
            record = self._parse(number, line)
            if record is None:
                continue
            base_seed = checker.check(record, base_seed)
            key, fingerprint = record_key(record), _fingerprint(record)
            if key in self.recorded:
                self._repeats.add(number)
                if self.recorded[key] != fingerprint:
                    repeats.append(f"line {number} (pair {key[0]}, seats {', '.join(key[1])})")
            else:
                self.recorded[key] = fingerprint
        self._indexed_bytes = os.fstat(self._descriptor).st_size
        if repeats:
            print(f"botarena: {self.where}: {len(repeats)} game(s) recorded again with a different "
                  f"result, at {'; '.join(repeats[:3])}{' ...' if len(repeats) > 3 else ''}; the "
                  "first record of each game is the one counted", file=sys.stderr)
        return base_seed

    def _parse(self, number: int, line: bytes) -> dict | None:
        if not line.strip():
            return None
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            record = None
        problem = "not JSON" if record is None else record_problem(record)
        if problem is not None:
            raise UsageError(f"{self.where}: line {number} is not a botarena results line "
                             f"({problem}); give another --out file") from None
        return record

    def _complete_lines(self, end: int | None = None) -> Iterator[tuple[int, bytes]]:
        """(line number, line) of every newline-terminated line (before byte ``end``); an
        unterminated last line that starts like a record (a writer killed mid-write) is
        dropped, anything else refused."""
        offset, number, buffer = 0, 0, b""
        while True:
            chunk = os.pread(self._descriptor, _CHUNK if end is None else min(_CHUNK, end - offset),
                             offset)
            if not chunk:
                break
            offset += len(chunk)
            if b"\n" not in chunk:
                buffer += chunk
            else:
                *lines, rest = (buffer + chunk).split(b"\n")
                for line in lines:
                    number += 1
                    if len(line) > MAX_LINE_BYTES:
                        self._too_long(number)
                    yield number, line
                buffer = rest
            if len(buffer) > MAX_LINE_BYTES:
                self._too_long(number + 1)
        if buffer:
            self._drop_cut_line(number + 1, buffer, offset)

    def _too_long(self, number: int) -> None:
        raise UsageError(f"{self.where}: line {number} is longer than {MAX_LINE_BYTES >> 20} MB: "
                         "not a botarena results line; give another --out file")

    def _drop_cut_line(self, number: int, tail: bytes, size: int) -> None:
        if not (tail.startswith(_RECORD_START) or _RECORD_START.startswith(tail)):
            raise UsageError(f"{self.where}: line {number} is not a botarena results line (and "
                             "not one cut off mid-write); give another --out file")
        if os.fstat(self._descriptor).st_size == size:    # we hold the lock: nobody added to it
            os.ftruncate(self._descriptor, size - len(tail))
            print(f"botarena: dropped a truncated last line of {self.path} (a game cut off "
                  "mid-write); it will be played again", file=sys.stderr)

    def records(self) -> Iterator[dict]:
        """The games the file held when opened (those in ``recorded``), each once (its first
        record), in file order."""
        for number, line in self._complete_lines(self._indexed_bytes):
            if line.strip() and number not in self._repeats:
                yield json.loads(line)

    def append(self, record: dict) -> None:
        line = (json.dumps(record, separators=(",", ":")) + "\n").encode()
        view, fd = memoryview(line), self._descriptor
        while view:                       # one write for a line; loop only on a short write
            view = view[os.write(fd, view):]

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    __del__ = close


def _stat_or_none(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise UsageError(f"results file {str(path)!r} cannot be read: {error.strerror}") from None


def _lock(fd: int, path: Path) -> None:
    """Take the file's lock; when another run holds it, say so and wait for it."""
    import fcntl
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return
    except BlockingIOError:
        pass
    print(f"botarena: results file {str(path)!r} is in use by another botarena run; waiting for "
          "it to finish (Ctrl-C to stop)", file=sys.stderr, flush=True)
    fcntl.flock(fd, fcntl.LOCK_EX)


def _fingerprint(record: dict) -> int:
    """What makes two records of one game the same result."""
    return hash(json.dumps([record.get("seed"), record.get("turns"), record.get("reason"),
                            [[player.get("rank"), player.get("score"), player.get("fault")]
                             for player in record["players"]]], sort_keys=True, default=str))


# -- what a record must hold ------------------------------------------------------------------

def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# A game's score or an answer's latency past this is no result of ours: the summary squares
# them (a score's variance), and 1e300 squared overflowed after the missing games were played.
# A referee's scores are checked against the same bound where they enter (MAX_SCORE).
MAX_MAGNITUDE = MAX_SCORE


def _is_number(value) -> bool:
    """A finite int or float within +-MAX_MAGNITUDE (not a bool; NaN and Infinity, which
    json.loads reads, are refused)."""
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value) \
        and abs(value) <= MAX_MAGNITUDE


def record_problem(record) -> str | None:
    """What is wrong with ``record`` as a game record (None when it can be counted): every
    field the tallies read, with the type they read it as."""
    if not isinstance(record, dict):
        return "not a JSON object"
    if not isinstance(record.get("game"), str):
        return "no game"
    if not _is_int(record.get("pair")) or record["pair"] < 0:
        return "pair is not a number"
    if not _is_int(record.get("seed")):
        return "seed is not a number"
    seats = record.get("seats")
    # (a bot may hold several seats of a game of more players: see tools.arena.multiplayer)
    if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats):
        return "seats is not a list of bot names"
    players = record.get("players")
    if not isinstance(players, list) or len(players) != len(seats):
        return "players is not a list with one entry per seat"
    for player in players:
        problem = _player_problem(player)
        if problem:
            return problem
    latencies = record.get("latencies_ms")
    if latencies is not None and not (
            isinstance(latencies, list) and len(latencies) == len(seats)
            and all(isinstance(row, list) and all(_is_number(v) and v >= 0 for v in row)
                    for row in latencies)):
        return f"latencies_ms is not a list of numbers from 0 to {MAX_MAGNITUDE:.0e} per seat"
    if record.get("base_seed") is not None and not _is_int(record["base_seed"]):
        return "base_seed is not a number"
    if not isinstance(record.get("referee_error"), (str, type(None))):
        return "referee_error is not text"
    if not isinstance(record.get("options", {}), dict):
        return "options is not an object"
    return None


def _player_problem(player) -> str | None:
    if not isinstance(player, dict):
        return "a player is not an object"
    if not _is_int(player.get("rank")):
        return "a player's rank is not a whole number"
    if not _is_number(player.get("score")):
        return f"a player's score is not a finite number of size at most {MAX_MAGNITUDE:.0e}"
    fault = player.get("fault")
    if fault is not None and not (isinstance(fault, dict) and isinstance(fault.get("kind"), str)
                                  and _is_int(fault.get("turn"))
                                  and isinstance(fault.get("detail"), str)):
        return "a player's fault is not a kind, turn and detail"
    return None


def _names(bots) -> str:
    return " vs ".join(repr(name) for name in bots)


class _IdentityCheck:
    """Refuses records of another game, other bots, options, time control or base seed."""

    def __init__(self, identity: RunIdentity, where: str):
        self.identity, self.where = identity, where
        self.options = json.loads(json.dumps(identity.options))
        self.clock = dataclasses.asdict(identity.time_control)

    def check(self, record: dict, base_seed: int | None) -> int | None:
        identity, where = self.identity, self.where
        if record["game"] != identity.game:
            raise UsageError(f"{where} holds {record['game']} games, not {identity.game}; "
                             "give another --out file")
        if identity.bots is not None and any(name not in identity.bots
                                             for name in record["seats"]):
            raise UsageError(f"{where} holds games of {_names(record['seats'])}, not of the bots "
                             f"asked for ({_names(identity.bots)}); give another --out file or "
                             "the same bots")
        if record.get("options") != self.options:
            raise UsageError(f"{where} was played with options {record.get('options')}, not "
                             f"{self.options}; give another --out file or the same --option")
        if record.get("time_control") != self.clock:
            raise UsageError(f"{where} was played with time control {record.get('time_control')},"
                             f" not {self.clock}; give another --out file or the same limits")
        if record.get("seed_list") != identity.seed_list:
            played = "with the --seeds list " + record["seed_list"] if record.get("seed_list") \
                else "without --seeds"
            raise UsageError(f"{where} was played {played}, not "
                             f"{'with this --seeds list' if identity.seed_list else 'without'}; "
                             "give another --out file or the same seeds")
        if base_seed is None:
            return record.get("base_seed")
        if record.get("base_seed") != base_seed:
            raise UsageError(f"{where} was played with --seed {record.get('base_seed')}, not "
                             f"{base_seed}; drop --seed to resume it, or give another --out")
        return base_seed
