"""The SDK's JSON game log (what CodinGame's viewer and the SDK's GameRunner write), from a replay.

The log is one object, as the SDK's GameRunner serializes its game result with Gson (absent
values left out): per frame the referee's VIEW and summary (its SUMMARY, or INFOS' empty body),
each player's output (null when it was not asked or timed out) and stderr, the referee's own
output and stderr (empty here: botarena keeps a referee's stderr only for a referee error), the
tooltips with their frame, the scores, the game parameters (UINPUT) and the metadata; agents
name the players. It is built from a replay of an SDK game, whose steps keep the referee's
frames (``notes.frames``), so ``play --sdk-log`` and a replay give the same log.
"""
from __future__ import annotations

import json
from pathlib import Path

from referee.api import UsageError


def write_sdk_log(path: str | Path, replay: dict) -> None:
    """The SDK game log of ``replay`` into ``path`` (one JSON object)."""
    Path(path).write_text(json.dumps(to_sdk_log(replay)) + "\n")


def _body(lines: list[str] | None) -> str:
    """A message's body as the SDK's runner keeps it: its lines, each ended by a newline."""
    return "".join(line + "\n" for line in lines or [])


def to_sdk_log(replay: dict) -> dict:
    """The SDK game log of ``replay`` (an SDK game's); UsageError when it has no frames."""
    players = len(replay["players"])
    keys = [str(seat) for seat in range(players)]
    log: dict = {"errors": {"referee": [], **{key: [None] for key in keys}},
                 "outputs": {"referee": [], **{key: [None] for key in keys}},
                 "summaries": [], "views": [], "scores": {}, "uinput": [], "tooltips": [],
                 "ids": {key: seat for seat, key in enumerate(keys)},
                 "agents": [{"index": seat, "name": player["bot"], "agentId": seat}
                            for seat, player in enumerate(replay["players"])]}
    frames = 0
    for step in replay["turns"]:
        notes = step.get("notes") or {}
        answers = {entry["seat"]: entry for entry in step.get("seats", [])}
        for frame in notes.get("frames", []):
            frames += 1
            _add_frame(log, frame, answers, keys)
    if not frames:
        raise UsageError("this replay has no SDK frames (an SDK game's replay keeps them: "
                         "play it with a game file of protocol \"codingame\")")
    return log


def _add_frame(log: dict, frame: dict, answers: dict, keys: list[str]) -> None:
    index = frame["frame"]
    log["views"].append(_body(frame.get("view")))
    log["summaries"].append(_body(frame.get("summary")))
    log["outputs"]["referee"].append("")
    log["errors"]["referee"].append(None)
    for text, seat in frame.get("tooltips", []):
        log["tooltips"].append({"turn": index, "text": text, "event": seat})
    if "scores" in frame:                         # the last frame: no player asked
        log["scores"] = {key: _number(score) for key, score in zip(keys, frame["scores"])}
        if frame.get("uinput") is not None:
            log["uinput"].append(_body(frame["uinput"]))
        if frame.get("metadata") is not None:
            log["metadata"] = frame["metadata"]
        return
    seat = frame.get("player", 0)
    answer = answers.get(seat) if frame.get("expected", 1) else None
    for key in keys:
        played = key == str(seat)
        if not played:
            output, error = None, None
        elif not frame.get("expected", 1):        # a frame with no player executed
            output, error = "", None
        else:
            output = None if answer is None or answer.get("output") is None \
                else answer["output"] + "\n"
            error = (answer or {}).get("stderr") or None
        log["outputs"][key].append(output)
        log["errors"][key].append(error)


def _number(score: float):
    return int(score) if float(score).is_integer() else score
