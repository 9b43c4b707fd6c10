"""A replay -> the data of its viewer page: one step per turn, each with the frame the game's own
rules compute (``referee/games/<game>/frame.py``), the seats' answers, latencies against their
budgets, [PDATA] figures and stderr, and the faults.

Replay files are untrusted: their shape is checked here (a UsageError quoting what is wrong),
nothing in them is run, and a replay the rules do not reproduce (another version of the game)
is shown without a board from the first turn where they disagree, with a note saying why.
"""
from __future__ import annotations

import importlib
import math
from types import ModuleType
from typing import Any

from referee.api import Game, InvalidAction, TimeControl, UsageError
from referee.games import load_game
from referee.harness.bot_stderr import StderrLog
from referee.match import REPLAY_STDERR_CHARS

_CUT_LINE_CHARS = 64            # room for the harness's own "[... N bytes cut]" line


def page_data(replay: dict, source: str) -> dict:
    """The JSON the viewer page embeds for one replay (already read by ``read_replay``)."""
    _check_shape(replay, source)
    if replay.get("game_file") is not None:
        return _external_page(replay, source)
    game = load_game(replay["game"])
    if not isinstance(game, Game):
        raise UsageError(f"replay {source!r}: 'game' names a game file ({replay['game']!r}); a "
                         "replay names its game file in 'game_file'")
    options = _options(game, replay, source)
    clock = _time_control(replay, source)
    players = replay["players"]
    low, high = game.seats
    if not low <= len(players) <= high:
        raise UsageError(f"replay {source!r} has {len(players)} players; {game.name} takes "
                         f"{low if low == high else f'{low} to {high}'}")
    drawing = _frame_module(game.name)
    steps, problem = _steps(game, drawing, replay, options, clock)
    if drawing is None:
        problem = f"this botarena has no drawing for {game.name}: answers only"
    return {"source": source, "game": game.name, "seed": replay["seed"], "options": options,
            "drawing": getattr(drawing, "DRAWING", None), "time_control": replay["time_control"],
            "players": [{"bot": str(player.get("bot", "?"))} for player in players],
            "result": replay["result"], "steps": steps, "problem": problem}


def _external_page(replay: dict, source: str) -> dict:
    """A game of an external referee (a game file): no rules here to draw a board with, so each
    step shows the answers and the referee's own words (its summaries and tooltips). The game
    file is not read: the replay holds everything shown."""
    clock = _time_control(replay, source)
    steps: list[dict] = [{"turn": None, "frame": None, "seats": [], "text": "(start)"}]
    faults = _faults(replay["result"])
    answered: dict[int, int] = {}
    for record in replay["turns"]:
        frames = (record.get("notes") or {}).get("frames") or []
        limit = frames[-1].get("limit_ms") if frames and isinstance(frames[-1], dict) else None
        seats = []
        for seat_turn in record["seats"]:
            view = _seat_view(seat_turn, clock, answered)
            if isinstance(limit, int):
                view["budget_ms"] = limit           # the SDK referee's own limit for this step
            seats.append(view)
            answered[seat_turn["seat"]] = answered.get(seat_turn["seat"], 0) + 1
        steps.append({"turn": record["turn"], "seats": seats, "frame": None,
                      "text": referee_text(record.get("notes")),
                      "faults": [fault for fault in faults if fault["turn"] == record["turn"]]})
    return {"source": source, "game": str(replay["game"]), "seed": replay["seed"],
            "options": replay.get("options", {}), "drawing": None,
            "time_control": replay["time_control"],
            "players": [{"bot": str(player.get("bot", "?"))} for player in replay["players"]],
            "result": replay["result"], "steps": steps,
            "problem": "an external referee's game (game file): answers and the referee's "
                       "summaries, no board"}


def referee_text(notes: Any) -> str:
    """What an external referee said in a step: its summaries and tooltips, as text."""
    if not isinstance(notes, dict):
        return ""
    lines = []
    for frame in notes.get("frames") or []:
        if not isinstance(frame, dict):
            continue
        lines += [str(line) for line in frame.get("summary") or []]
        lines += [f"tooltip (seat {seat}): {text}" for text, seat in
                  (item for item in frame.get("tooltips") or [] if isinstance(item, list)
                   and len(item) == 2)]
    lines += [str(line) for line in notes.get("errors") or []]
    return "\n".join(lines)


def _check_shape(replay: dict, source: str) -> None:
    """What the page shows beyond the fields ``read_replay`` checks: stderr text and timings."""
    for turn in replay["turns"]:
        for seat_turn in turn["seats"]:
            stderr, latency = seat_turn.get("stderr", ""), seat_turn.get("latency_ms")
            cpu = seat_turn.get("cpu_ms")
            if not isinstance(stderr, str) or not all(
                    value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)
                                      and math.isfinite(value)) for value in (latency, cpu)):
                raise UsageError(f"replay {source!r} is malformed: turn {turn['turn']} seat "
                                 f"{seat_turn['seat']}: stderr must be text, latency_ms and cpu_ms "
                                 "numbers or null")


def _options(game: Game, replay: dict, source: str) -> dict:
    try:
        return game.parse_options({key: str(value) for key, value in replay.get("options", {}).items()})
    except UsageError as error:
        raise UsageError(f"replay {source!r}: {error}") from None


def _time_control(replay: dict, source: str) -> TimeControl:
    try:
        clock = TimeControl(**replay["time_control"])
        clock.budget_ms(1) + clock.budget_ms(0) + clock.grace_ms
        return clock
    except TypeError:
        raise UsageError(f"replay {source!r} is malformed: time_control "
                         f"{replay['time_control']!r}") from None


def _frame_module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"referee.games.{name}.frame")
    except ModuleNotFoundError as error:
        if error.name != f"referee.games.{name}.frame":
            raise
        return None


def _steps(game: Game, drawing: ModuleType | None, replay: dict, options: dict,
           clock: TimeControl) -> tuple[list[dict], str | None]:
    """Step 0 is the start; step k shows the position after turn record k-1, with its answers."""
    state = game.new_state(replay["seed"], options)
    steps: list[dict[str, Any]] = [{"turn": None, "frame": drawing.frame(state) if drawing else None,
                                    "seats": []}]
    faults = _faults(replay["result"])
    answered: dict[int, int] = {}
    problem = None
    for record in replay["turns"]:
        seats = [_seat_view(seat_turn, clock, answered) for seat_turn in record["seats"]]
        step = {"turn": record["turn"], "seats": seats, "frame": None,
                "faults": [fault for fault in faults if fault["turn"] == record["turn"]]}
        steps.append(step)
        if problem is None:
            problem = _advance(game, drawing, state, record, step, answered)
            if problem is None:
                state = step.pop("state")
        for seat_turn in record["seats"]:
            answered[seat_turn["seat"]] = answered.get(seat_turn["seat"], 0) + 1
    return steps, problem


def _advance(game: Game, drawing: ModuleType | None, state, record: dict, step: dict,
             answered: dict[int, int]) -> str | None:
    """Play one turn record through the rules into ``step`` (its frame, and the new state under
    "state"); the reason when the rules do not reproduce the record."""
    turn = record["turn"]
    if state.is_over() or turn != state.turn:
        return (f"turn {turn}: this botarena's {game.name} rules are at turn {state.turn}"
                f"{' (game over)' if state.is_over() else ''}: a replay of another version of "
                "the game? The board is not drawn from here on")
    if [seat_turn["seat"] for seat_turn in record["seats"]] != \
            list(state.acting_seats())[:len(record["seats"])]:
        return f"turn {turn}: not the seats this botarena's rules ask; the board is not drawn from here on"
    actions: dict[int, Any] = {}
    for seat_turn in record["seats"]:
        seat = seat_turn["seat"]
        expected = game.turn_lines(state, seat)
        if answered.get(seat, 0) == 0:
            expected = game.init_lines(state, seat) + expected
        if expected != seat_turn["input"]:
            return (f"turn {turn}: seat {seat}'s recorded input is not what this botarena's "
                    f"{game.name} rules send (a replay of another version of the game?); "
                    "the board is not drawn from here on")
        if seat_turn["output"] is None:
            continue
        try:
            actions[seat] = game.parse_action(state, seat, seat_turn["output"])
        except InvalidAction:
            pass                                      # the bad_output fault of this turn
    after = state
    if len(actions) == len(state.acting_seats()):
        after = state.clone()
        after.apply([actions[seat] for seat in state.acting_seats()])
    step["state"] = after
    if drawing is not None:
        step["frame"] = drawing.frame(after, state, actions)
    return None


def _seat_view(seat_turn: dict, clock: TimeControl, answered: dict[int, int]) -> dict:
    seat = seat_turn["seat"]
    stderr = capped_stderr(seat_turn.get("stderr", ""))
    return {"seat": seat, "input": [str(line) for line in seat_turn["input"]],
            "output": seat_turn["output"], "latency_ms": seat_turn["latency_ms"],
            "cpu_ms": seat_turn.get("cpu_ms"), "budget_ms": clock.budget_ms(answered.get(seat, 0)),
            "stderr": stderr, "pdata": turn_pdata(stderr)}


def capped_stderr(stderr: str) -> str:
    """A turn's stderr as the harness keeps it in a replay: its last REPLAY_STDERR_CHARS
    characters, after a line saying how much was cut. A replay from elsewhere may hold any
    amount (50 MB made a 48.8 MB page); one of ours is within the cap plus that line already."""
    if len(stderr) <= REPLAY_STDERR_CHARS + _CUT_LINE_CHARS:
        return stderr
    cut = len(stderr) - REPLAY_STDERR_CHARS
    return f"[... {cut} characters cut by botarena view]\n{stderr[cut:]}"


def turn_pdata(stderr: str) -> dict[str, Any]:
    """The ``[PDATA] key = value`` figures of one turn's stderr, parsed as the harness does;
    numbers as numbers (the chart draws them), other values as text."""
    log = StderrLog(cap=1)
    log.absorb(stderr.encode("utf-8", "replace") + b"\n")
    values: dict[str, Any] = {}
    for key, text in log.pdata.items():
        try:
            number = float(text)
            values[key] = number if number == number and abs(number) != float("inf") else text
        except ValueError:
            values[key] = text
    return values


def _faults(result: dict) -> list[dict]:
    faults = []
    for seat, player in enumerate(result.get("players") or []):
        fault = player.get("fault") if isinstance(player, dict) else None
        if isinstance(fault, dict) and isinstance(fault.get("turn"), int):
            # a game file's fault names the seat's own turn; its step is the referee's frame
            step = fault["frame"] if isinstance(fault.get("frame"), int) else fault["turn"]
            faults.append({"seat": seat, "turn": step, "kind": str(fault.get("kind")),
                           "detail": str(fault.get("detail", ""))})
    return faults


def first_difference(left: dict, right: dict) -> int | None:
    """The first step where two games' answers differ (or one has ended), None if identical."""
    for index, (one, two) in enumerate(zip(left["steps"], right["steps"])):
        if [seat["output"] for seat in one["seats"]] != [seat["output"] for seat in two["seats"]]:
            return index
    if len(left["steps"]) != len(right["steps"]):
        return min(len(left["steps"]), len(right["steps"]))
    return None
