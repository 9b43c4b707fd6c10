"""Replays: a match result <-> versioned JSON, read back with bounded memory and checked shape.

A replay is shared (bug reports, the viewer), so reading one trusts nothing in it: only a regular
file under a size cap is read (``/dev/zero`` or a FIFO is refused before any byte), and every
field the harness uses is checked for its type before anything runs. Checking the recorded game
against the rules is ``referee.replay_check``.
"""
from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from referee.api import TimeControl, TurnRecord, UsageError
from referee.match import MatchResult, PlayerSpec

FORMAT = "botarena-replay"
VERSION = 1
MAX_REPLAY_BYTES = 64 << 20       # a long game's replay is a few MB; past this it is not one
SEED_RANGE = (-(1 << 63), (1 << 63) - 1)    # a Java long: the widest seed a game takes


def to_replay(result: MatchResult, players: list[PlayerSpec], time_control: TimeControl) -> dict[str, Any]:
    return {
        "format": FORMAT, "version": VERSION,
        "game": result.game, "seed": result.seed, "options": result.options,
        "time_control": asdict(time_control),
        "players": [{"bot": spec.name, "argv": list(spec.argv)} for spec in players],
        "result": result.to_json(),
        "turns": [_turn_json(record) for record in result.records],
    }


def _turn_json(record: TurnRecord) -> dict[str, Any]:
    data: dict[str, Any] = {"turn": record.turn, "seats": [asdict(seat) for seat in record.seats]}
    if record.notes is not None:        # only a referee that gives notes (none of ours) adds them
        data["notes"] = record.notes
    return data


def write_replay(path: str | Path, replay: dict[str, Any]) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(replay, indent=1) + "\n")
    temporary.replace(path)


def read_replay(path: str | Path) -> dict[str, Any]:
    """The replay in ``path``, its shape checked (``check_shape``); UsageError (one line) if not."""
    where = repr(str(path))
    replay = _parse_json(_read_bounded(Path(path), where), where)
    if not isinstance(replay, dict) or replay.get("format") != FORMAT:
        raise UsageError(f"{where} is not a botarena replay (no \"format\": \"{FORMAT}\")")
    if replay.get("version") != VERSION:
        raise UsageError(f"replay {where} has version {replay.get('version')!r}; "
                         f"this botarena reads version {VERSION}")
    check_shape(replay, where)
    return replay


def _read_bounded(path: Path, where: str) -> str:
    """The text of a regular file of at most MAX_REPLAY_BYTES (a device such as /dev/zero would
    be read forever, a FIFO would block the open)."""
    if path.is_dir():
        raise UsageError(f"replay {where} is a directory; give a replay file")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with open(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise UsageError(f"replay {where} is not a regular file")
            os.set_blocking(fd, True)
            data = handle.read(MAX_REPLAY_BYTES + 1)
    except FileNotFoundError:
        raise UsageError(f"no replay file {where}") from None
    except OSError as error:
        raise UsageError(f"replay {where} cannot be read: {error.strerror or error}") from None
    if len(data) > MAX_REPLAY_BYTES:
        raise UsageError(f"replay {where} is larger than {MAX_REPLAY_BYTES >> 20} MB: not a "
                         "botarena replay")
    try:
        return data.decode()
    except UnicodeDecodeError as error:
        raise UsageError(f"replay {where} is not JSON: {error}") from None


def _parse_json(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(f"replay {where} is not JSON: {error}") from None
    except RecursionError:
        raise UsageError(f"replay {where} is not JSON: nested too deeply") from None


# -- shape --------------------------------------------------------------------------------------

_Need = Callable[[bool, str, str], None]    # check_shape's need(ok, field, expected)


def check_shape(replay: dict[str, Any], where: str) -> None:
    """Every field the harness reads has its type: UsageError naming the first that has not.

    Values (the game's options, the time control's range, the game's name) are checked by the
    command that uses them, with the command line's own limits.
    """
    def need(ok: bool, field: str, expected: str) -> None:
        if not ok:
            raise UsageError(f"replay {where}: {field} must be {expected}")
    for key in ("game", "players", "turns", "seed", "result", "time_control"):
        need(key in replay, f"{key!r}", "present (the file is not a whole replay)")
    need(isinstance(replay["game"], str), "'game'", "a game name")
    need(replay.get("game_file") is None or isinstance(replay["game_file"], str), "'game_file'",
         "the path of a game file")
    need(_is_int(replay["seed"]) and SEED_RANGE[0] <= replay["seed"] <= SEED_RANGE[1], "'seed'",
         "an integer that fits in 64 bits")
    need(isinstance(replay.get("options", {}), dict), "'options'", "an object")
    need(isinstance(replay["time_control"], dict), "'time_control'", "an object")
    players = replay["players"]
    need(isinstance(players, list) and len(players) > 0, "'players'", "a non-empty list")
    for seat, player in enumerate(players):
        field = f"players[{seat}]"
        need(isinstance(player, dict), field, "an object")
        need(isinstance(player.get("bot"), str), f"{field}.bot", "a bot name")
        argv = player.get("argv")
        need(isinstance(argv, list) and len(argv) > 0 and all(isinstance(word, str) for word in argv),
             f"{field}.argv", "a non-empty list of strings")
    need(isinstance(replay["turns"], list), "'turns'", "a list")
    for index, turn in enumerate(replay["turns"]):
        _check_turn(turn, f"turns[{index}]", len(players), need)
    _check_result(replay["result"], len(players), need)


def _check_turn(turn: Any, field: str, seats: int, need: _Need) -> None:
    need(isinstance(turn, dict), field, "an object")
    need(_is_int(turn.get("turn")), f"{field}.turn", "an integer")
    need(isinstance(turn.get("seats"), list), f"{field}.seats", "a list")
    for index, entry in enumerate(turn["seats"]):
        name = f"{field}.seats[{index}]"
        need(isinstance(entry, dict), name, "an object")
        need(_is_int(entry.get("seat")) and 0 <= entry["seat"] < seats, f"{name}.seat",
             f"a seat number below {seats}")
        lines = entry.get("input")
        need(isinstance(lines, list) and all(isinstance(line, str) for line in lines),
             f"{name}.input", "a list of strings")
        need(entry.get("output") is None or isinstance(entry["output"], str), f"{name}.output",
             "a string or null")


def _check_result(result: Any, seats: int, need: _Need) -> None:
    need(isinstance(result, dict), "'result'", "an object")
    need(isinstance(result.get("reason"), str), "result.reason", "a string")
    need(_is_int(result.get("turns")), "result.turns", "an integer")
    need(result.get("winner") is None or _is_int(result["winner"]), "result.winner",
         "a seat number or null")
    players = result.get("players")
    need(isinstance(players, list) and len(players) == seats, "result.players",
         f"a list of {seats} (one per player)")
    for seat, player in enumerate(players):
        field = f"result.players[{seat}]"
        need(isinstance(player, dict), field, "an object")
        need(_is_number(player.get("score")), f"{field}.score", "a number")
        need(_is_int(player.get("rank")), f"{field}.rank", "an integer")
        fault = player.get("fault")
        need(fault is None or (isinstance(fault, dict) and isinstance(fault.get("kind"), str)
                               and _is_int(fault.get("turn"))), f"{field}.fault",
             "null or an object with a kind and a turn")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)

