"""Twenty-one's referee in CodinGame's SDK protocol, the one a contest's Java referee speaks
through com.codingame.gameengine.core.RefereeMain, written in plain Python: botarena drives it
exactly as it drives CodinGame's own (game.toml; docs/codingame-referees.md walks through it).

Both ways, a message is a header line ``[[COMMAND] n]`` and n lines. botarena sends INIT (the
player count, then ``key=value`` lines: ``seed`` and the game file's [parameters]); then, for
each frame, GET_GAME_INFO, which the referee answers with VIEW, INFOS, SUMMARY (what happened
in the previous frame), NEXT_PLAYER_INPUT (the lines for the player to run) and
NEXT_PLAYER_INFO (that player, the lines it answers, its time limit in ms); botarena runs the bot
and answers SET_PLAYER_OUTPUT (its lines) or SET_PLAYER_TIMEOUT. After the last frame come
UINPUT, METADATA and SCORES, unasked, and the referee exits.
"""
from __future__ import annotations

import json
import re
import sys

from rules import TwentyOne

HEADER = re.compile(r"\[\[(\w+)\] ?(\d+)\]")
FIRST_TURN_MS = 1000            # a bot's first answer, its start-up included
TURN_MS = 100


def send(command: str, lines: list[str] | None = None) -> None:
    lines = lines or []
    sys.stdout.write("".join(f"{line}\n" for line in [f"[[{command}] {len(lines)}]", *lines]))
    sys.stdout.flush()


def receive(*expected: str) -> tuple[str, list[str]]:
    header = sys.stdin.readline().rstrip("\n")
    match = HEADER.fullmatch(header)
    if not match or match.group(1) not in expected:
        raise SystemExit(f"twenty_one referee: expected {' or '.join(expected)}, got {header!r}")
    return match.group(1), [sys.stdin.readline().rstrip("\n") for _ in range(int(match.group(2)))]


def main() -> None:
    _, init = receive("INIT")
    players = int(init[0])
    parameters = dict(line.split("=", 1) for line in init[1:])
    if players != 2:
        raise SystemExit(f"twenty_one referee: a game of 2 players, not {players}")
    game = TwentyOne(int(parameters["seed"]), int(parameters.get("target", 21)))
    started = [False, False]
    frame, summary = 0, []
    while not game.over:
        seat = game.to_play
        receive("GET_GAME_INFO")
        send("VIEW", [f"KEY_FRAME {frame}", json.dumps({"total": game.total, "target": game.target})])
        send("INFOS")
        if summary:
            send("SUMMARY", summary)
        lines = game.turn_lines(seat) if started[seat] else game.init_lines(seat) + game.turn_lines(seat)
        send("NEXT_PLAYER_INPUT", lines)
        send("NEXT_PLAYER_INFO", [str(seat), "1", str(TURN_MS if started[seat] else FIRST_TURN_MS)])
        started[seat] = True
        command, answer = receive("SET_PLAYER_OUTPUT", "SET_PLAYER_TIMEOUT")
        if command == "SET_PLAYER_TIMEOUT":
            game.fault(seat)
            summary = [f"player {seat} timed out"]
        else:
            summary = [game.play(seat, answer[0])]
        frame += 1
    send("VIEW", [f"KEY_FRAME {frame}", json.dumps({"total": game.total, "target": game.target})])
    send("INFOS")
    send("SUMMARY", summary)
    send("UINPUT", [f"{key}={value}" for key, value in parameters.items()])
    send("METADATA", [json.dumps({"total": game.total, "target": game.target})])
    send("SCORES", [f"{seat} {score}" for seat, score in enumerate(game.scores())])


if __name__ == "__main__":
    main()
