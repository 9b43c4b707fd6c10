"""Replays: a match result <-> versioned JSON, and checks of a replay against the rules."""
from __future__ import annotations

import json
import os
import stat
from dataclasses import asdict
from pathlib import Path
from typing import Any

from referee.api import Game, InvalidAction, TimeControl, UsageError
from referee.match import MatchResult, PlayerSpec

FORMAT = "botarena-replay"
VERSION = 1
MAX_REPLAY_BYTES = 64 << 20     # a long game's replay is a few MB; past this it is not one


def to_replay(result: MatchResult, players: list[PlayerSpec], time_control: TimeControl) -> dict:
    return {
        "format": FORMAT, "version": VERSION,
        "game": result.game, "seed": result.seed, "options": result.options,
        "time_control": asdict(time_control),
        "players": [{"bot": spec.name, "argv": list(spec.argv)} for spec in players],
        "result": result.to_json(),
        "turns": [{"turn": record.turn, "seats": [asdict(seat) for seat in record.seats]}
                  for record in result.records],
    }


def write_replay(path: str | Path, replay: dict) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(replay, indent=1) + "\n")
    temporary.replace(path)


def read_replay(path: str | Path) -> dict:
    try:
        replay = json.loads(_read_bounded(Path(path)))
    except FileNotFoundError:
        raise UsageError(f"no replay file {str(path)!r}") from None
    except OSError as error:
        raise UsageError(f"replay {str(path)!r} cannot be read: {error.strerror}") from None
    except (ValueError, RecursionError) as error:
        raise UsageError(f"replay {str(path)!r} is not JSON: {error}") from None
    if not isinstance(replay, dict) or replay.get("format") != FORMAT:
        raise UsageError(f"{str(path)!r} is not a botarena replay")
    if replay.get("version") != VERSION:
        raise UsageError(f"replay {str(path)!r} has version {replay.get('version')!r}; "
                         f"this botarena reads version {VERSION}")
    return replay


def _read_bounded(path: Path) -> bytes:
    """The file's bytes: a regular file of at most MAX_REPLAY_BYTES (a device such as
    /dev/zero would be read forever, a FIFO would block the open)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    with open(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UsageError(f"replay {str(path)!r} is not a regular file")
        os.set_blocking(fd, True)
        data = handle.read(MAX_REPLAY_BYTES + 1)
    if len(data) > MAX_REPLAY_BYTES:
        raise UsageError(f"replay {str(path)!r} is larger than {MAX_REPLAY_BYTES >> 20} MB: not a "
                         "botarena replay")
    return data


def verify_replay(game: Game, replay: dict) -> list[str]:
    """Play the recorded answers through the rules; the list of disagreements (empty if none).

    Checks that every recorded input block is what the rules produce for that
    turn and seat, and that the recorded answers lead to the recorded end.
    """
    problems: list[str] = []
    options = replay["options"]
    state = game.new_state(replay["seed"], options, len(replay["players"]))
    answered: dict[int, int] = {}
    for turn in replay["turns"]:
        actions: list[Any] = []
        for seat_turn in turn["seats"]:
            seat = seat_turn["seat"]
            expected = game.turn_lines(state, seat)
            if answered.get(seat, 0) == 0:
                expected = game.init_lines(state, seat) + expected
            if expected != seat_turn["input"]:
                problems.append(f"turn {turn['turn']} seat {seat}: input differs from the rules'")
                return problems
            if seat_turn["output"] is None:
                return problems                          # the game ended on this fault
            answered[seat] = answered.get(seat, 0) + 1
            try:
                actions.append(game.parse_action(state, seat, seat_turn["output"]))
            except InvalidAction:
                return problems                          # recorded as a bad_output fault
        if len(actions) == len(turn["seats"]):
            state.apply(actions)
    if not replay["result"]["reason"].startswith("fault") and state.turn != replay["result"]["turns"]:
        problems.append(f"the rules end at turn {state.turn}, the replay at {replay['result']['turns']}")
    return problems
