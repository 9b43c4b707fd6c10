"""The SDK's JSON game log (what CodinGame's viewer and the SDK's GameRunner write), from a replay.

The log is one object, as the SDK's GameRunner serializes its game result with Gson (absent
values left out), field by field as the SDK's own runner writes it for the same game:

- per frame the referee's VIEW and summary (its SUMMARY, or INFOS' empty body), each message
  body its lines, each ended by a newline (METADATA too);
- each player's output (null when it was not asked or timed out; ``""`` in a frame with no
  player executed) and stderr, after a first entry for the start (null);
- the referee's own output and stderr: a string a frame (``""``: botarena keeps a referee's
  stderr only for a referee error, which is the log's ``failCause``);
- the tooltips with their frame, the scores, the game parameters (UINPUT) and the metadata;
- ``agents``: "Player N" and CodinGame's default avatar of seat N, as the runner names players
  given without a nickname (botarena's viewer shows the bots' names; they are in the replay).

It is built from a replay of an SDK game, whose steps keep the referee's frames
(``notes.frames``), so ``play --sdk-log`` and a replay give the same log.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from referee.api import UsageError

# the SDK runner's avatars for players 0-7 (GameRunner: a player without one gets these)
AVATAR_IDS = ("16085734516701", "16085846089817", "16085713250612", "16085756802960",
              "16085746254929", "16085763837151", "16085720641630", "16085834521247")
AVATAR_URL = "https://static.codingame.com/servlet/fileservlet?id={}&format=viewer_avatar"


def write_sdk_log(path: str | Path, replay: dict[str, Any]) -> None:
    """The SDK game log of ``replay`` into ``path`` (one JSON object)."""
    Path(path).write_text(json.dumps(to_sdk_log(replay)) + "\n")


def _body(lines: list[str] | None) -> str:
    """A message's body as the SDK's runner keeps it: its lines, each ended by a newline."""
    return "".join(line + "\n" for line in lines or [])


def to_sdk_log(replay: dict[str, Any]) -> dict[str, Any]:
    """The SDK game log of ``replay`` (an SDK game's); UsageError when it has no frames."""
    players = len(replay["players"])
    keys = [str(seat) for seat in range(players)]
    log: dict[str, Any] = {"errors": {"referee": [], **{key: [None] for key in keys}},
                 "outputs": {"referee": [], **{key: [None] for key in keys}},
                 "summaries": [], "views": [], "scores": {}, "uinput": [], "tooltips": [],
                 "ids": {key: seat for seat, key in enumerate(keys)},
                 "agents": [{"index": seat, "name": f"Player {seat}",
                             "avatar": AVATAR_URL.format(AVATAR_IDS[seat % len(AVATAR_IDS)]),
                             "agentId": seat} for seat in range(players)]}
    frames = 0
    for step in replay["turns"]:
        notes = step.get("notes") or {}
        answers = {entry["seat"]: entry for entry in step.get("seats", [])}
        for frame in notes.get("frames", []):
            frames += 1
            _add_frame(log, frame, answers, keys)
    failure = replay["result"].get("referee_error")
    if not frames and failure is None:
        raise UsageError("this replay has no SDK frames (an SDK game's replay keeps them: "
                         "play it with a game file of protocol \"codingame\")")
    if failure is not None:
        # the referee's FAIL (its exit, its garbage): the runner logs the round it failed in as
        # a null view, with the referee's stderr, and the failure as failCause
        log["views"].append(None)
        log["errors"]["referee"].append("")
        log["failCause"] = failure if failure.endswith("\n") else failure + "\n"
    return log


def _add_frame(log: dict[str, Any], frame: dict[str, Any], answers: dict[str, Any], keys: list[str]) -> None:
    index = frame["frame"]
    log["views"].append(_body(frame.get("view")))
    log["summaries"].append(_body(frame.get("summary")))
    log["outputs"]["referee"].append("")
    log["errors"]["referee"].append("")
    for text, seat in frame.get("tooltips", []):
        log["tooltips"].append({"turn": index, "text": text, "event": seat})
    if "scores" in frame:                         # the last frame: no player asked
        log["scores"] = {key: _number(score) for key, score in zip(keys, frame["scores"])}
        if frame.get("uinput") is not None:
            log["uinput"].append(_body(frame["uinput"]))
        if frame.get("metadata") is not None:
            log["metadata"] = _body(frame["metadata"].split("\n")) if frame["metadata"] else ""
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


def _number(score: float) -> int | float:
    return int(score) if float(score).is_integer() else score
