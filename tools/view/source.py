"""Where a replay to view comes from: a replay file, or a results line (``FILE.jsonl:LINE``) of a
run played with ``--replays DIR``, whose ``replay`` field names that game's replay file."""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from referee.api import UsageError
from referee.replay import read_replay
from tools.arena.tally import rerun_command

_RESULTS_LINE = re.compile(r"(?P<file>.+):(?P<line>\d+)")


def load_replay(text: str) -> tuple[dict, Path]:
    """The replay named by ``text`` and the path of its file; UsageError saying what is wrong."""
    match = _RESULTS_LINE.fullmatch(text)
    if match and not Path(text).exists():
        path = replay_of_results_line(Path(match["file"]), int(match["line"]))
    else:
        path = Path(text)
    if path.is_dir():
        raise UsageError(f"{str(path)!r} is a directory, not a replay file")
    try:
        return read_replay(path), path
    except UsageError:
        if _is_results_file(path):      # not 'is not JSON: Extra data: line 2 column 1'
            raise UsageError(f"{str(path)!r} is a results file, a game a line: view {path}:LINE "
                             "draws the game on line LINE (its replay, which a run keeps when "
                             "played with --replays DIR)") from None
        raise


def _is_results_file(path: Path) -> bool:
    """Whether ``path``'s first line is one game's results record (a replay is one JSON document
    over many lines); only a regular file is opened (a FIFO would block)."""
    if not path.is_file():
        return False
    try:
        with path.open("rb") as handle:
            first = handle.readline(1 << 20)
        record = json.loads(first)
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return False
    return isinstance(record, dict) and "players" in record and "format" not in record


def replay_of_results_line(results: Path, number: int) -> Path:
    """The replay file kept for the game on line ``number`` (1-based) of a results file."""
    try:
        with results.open("rb") as handle:
            raw = next((line for index, line in enumerate(handle, 1) if index == number), None)
        if raw is None:
            raise UsageError(f"results file {str(results)!r} has no line {number}")
    except OSError as error:
        raise UsageError(f"cannot read results file {str(results)!r}: {error.strerror}") from None
    try:
        record = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise UsageError(f"{results}:{number} is not a botarena results line") from None
    replay = record.get("replay") if isinstance(record, dict) else None
    if not isinstance(replay, str):
        again = _play_again(record, results.parent) if isinstance(record, dict) else None
        raise UsageError(f"{results}:{number} has no replay (a match, league or sweep keeps one "
                         "per game with --replays DIR)" + (
                             f"; play that game again with one: {again}" if again else ""))
    return results.parent / replay


def _play_again(record: dict, folder: Path) -> str | None:
    """The ``botarena play`` command for the game of a results line, with the commands its
    seats ran (their seeds included), or None when the line has not got them. A path that
    exists from the results file's folder only (a ladder's bots/NAME/bot.py) is given from here."""
    commands = record.get("commands")
    if not isinstance(commands, list) or not all(isinstance(command, str) for command in commands) \
            or not isinstance(record.get("seed"), int):
        return None
    seats = []
    for command in commands:
        try:
            words = shlex.split(command)
        except ValueError:
            return None
        seats.append(shlex.join(str(folder / word) if not Path(word).exists()
                                and (folder / word).exists() else word for word in words))
    try:
        return rerun_command(record, seats, replay="game.json")
    except (KeyError, TypeError, AttributeError):
        return None
