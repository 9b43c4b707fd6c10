"""Check a replay against the rules without starting any bot.

The recorded answers are played through the game's rules, as the match loop plays live ones,
and everything the harness recorded is recomputed and compared: each turn's number and acting
seats, each input block, each fault (kind, turn, seat: an answer the rules refuse is a
bad_output fault; a missing answer must have a fault recorded at that turn: a timeout, a crash,
or output the harness refused before the rules saw it), then the result's
scores, ranks, winner, end reason and turn count. The first difference is reported.
"""
from __future__ import annotations

import traceback
from dataclasses import dataclass
from typing import Any, NoReturn

from referee.api import Fault, FaultRecord, Game, InvalidAction, TurnOrder
from referee.result import settle
from referee.rules_referee import fault_scores


@dataclass(frozen=True)
class Difference:
    """Where a replay and the rules first disagree (``turn``/``seat`` None: the whole game)."""

    turn: int | None
    seat: int | None
    field: str
    recorded: Any
    recomputed: Any

    def __str__(self) -> str:
        where = "".join(f"{label} {value} " for label, value in (("turn", self.turn),
                                                                 ("seat", self.seat))
                        if value is not None) or "result "
        return (f"{where}{self.field}: recorded {_shown(self.recorded)}, "
                f"recomputed {_shown(self.recomputed)}")


class _Disagree(Exception):
    def __init__(self, difference: Difference):
        super().__init__(str(difference))
        self.difference = difference


def verify_replay(game: Game, replay: dict[str, Any], options: dict[str, Any]) -> Difference | None:
    """The first difference between ``replay`` (shape already checked, see
    ``referee.replay.check_shape``) and the rules of ``game`` with ``options``; None if it agrees."""
    check = _Check(game, replay, options)
    try:
        check.run()
    except _Disagree as disagree:
        return disagree.difference
    except Exception as error:          # the game's code failed on these answers
        if "referee_error" in replay["result"]:
            return None                 # ...as it did when the game was played
        text = "".join(traceback.format_exception_only(error)).strip()
        return Difference(check.turn, None, "rules", "no error", f"the rules raised {text}")
    return None


class _Check:
    def __init__(self, game: Game, replay: dict[str, Any], options: dict[str, Any]):
        self.game, self.replay = game, replay
        self.count = len(replay["players"])
        self.recorded_faults = [_recorded_fault(player["fault"])
                                for player in replay["result"]["players"]]
        self.faults: list[FaultRecord | None] = [None] * self.count
        self.answered = [0] * self.count
        self.turn: int | None = None
        self.state = game.new_state(replay["seed"], options)

    def run(self) -> None:
        state = self.state
        for turn in self.replay["turns"]:
            if any(self.faults) or state.is_over():
                ended = "by a fault" if any(self.faults) else "by the rules"
                raise _Disagree(Difference(turn["turn"], None, "turn", "played",
                                           f"none (the game ended at turn {state.turn} {ended})"))
            self.turn = state.turn
            _expect(turn["turn"] == state.turn, turn["turn"], None, "turn number", turn["turn"],
                    state.turn)
            actions = self._play_turn(turn["seats"])
            if not any(self.faults):
                state.apply(actions)
        self.turn = None
        if not any(self.faults) and not state.is_over():
            raise _Disagree(Difference(state.turn, None, "turn", "none (the replay ends here)",
                                       "the game goes on"))
        self._compare_result()

    def _play_turn(self, entries: list[dict[str, Any]]) -> list[Any]:
        state, turn = self.state, self.state.turn
        acting = list(state.acting_seats())
        actions = []
        for index, entry in enumerate(entries):
            expected = acting[index] if index < len(acting) else "no further seat"
            _expect(entry["seat"] == expected, turn, entry["seat"], "acting seat", entry["seat"],
                    expected)
            action = self._play_seat(entry)
            if self.faults[entry["seat"]] is None:
                actions.append(action)
            elif self.game.turn_order is not TurnOrder.SIMULTANEOUS and index + 1 < len(entries):
                _expect(False, turn, entries[index + 1]["seat"], "answer", "played",
                        "none (the game ended on the previous seat's fault)")
        if len(entries) < len(acting) and not any(self.faults):
            _expect(False, turn, acting[len(entries)], "answer", "none", "expected")
        return actions

    def _play_seat(self, entry: dict[str, Any]) -> Any:
        game, state, seat, turn = self.game, self.state, entry["seat"], self.state.turn
        expected = game.turn_lines(state, seat)
        if self.answered[seat] == 0:
            expected = game.init_lines(state, seat) + expected
        _compare_lines(entry["input"], expected, turn, seat)
        recorded = self.recorded_faults[seat]
        recorded_here = recorded if recorded is not None and recorded[1] == turn else None
        action = None
        if entry["output"] is None:
            kind = recorded_here[0] if recorded_here and isinstance(recorded_here[0], Fault) else None
            if kind is None:
                _differ(turn, seat, "fault", _fault_text(recorded_here), "a fault (no answer is recorded)")
            self.faults[seat] = FaultRecord(kind, turn, "")
        else:
            self.answered[seat] += 1
            try:
                action = game.parse_action(state, seat, entry["output"])
            except InvalidAction as invalid:
                self.faults[seat] = FaultRecord(Fault.BAD_OUTPUT, turn, str(invalid))
            mine = self.faults[seat]
            _expect(_fault_key(mine) == recorded_here, turn, seat, "fault",
                    _fault_text(recorded_here),
                    f"{_fault_text(_fault_key(mine))} (answer {entry['output']!r}"
                    + (f": {mine.detail})" if mine else ")"))
        return action

    def _compare_result(self) -> None:
        result = self.replay["result"]
        raw = [float(score) for score in self.state.scores()]
        faulted = {seat for seat, fault in enumerate(self.faults) if fault is not None}
        scores = list(fault_scores(raw, faulted))
        if faulted and [player["score"] for player in result["players"]] == raw:
            scores = raw        # written before a faulted seat scored -1: its rules' score kept
        ranks, reason, winner = settle(scores, self.faults, self.state.end_reason)
        for seat in range(len(result["players"])):
            fault = _fault_key(self.faults[seat])
            _expect(self.recorded_faults[seat] == fault, None, seat, "fault",
                    _fault_text(self.recorded_faults[seat]), _fault_text(fault))
        for field, recomputed in (("score", scores), ("rank", ranks)):
            for seat, player in enumerate(result["players"]):
                _expect(player[field] == recomputed[seat], None, seat, field, player[field],
                        recomputed[seat])
        for field, value in (("winner", winner), ("reason", reason), ("turns", self.state.turn)):
            _expect(result[field] == value, None, None, field, result[field], value)


def _expect(ok: bool, turn: int | None, seat: int | None, field: str, recorded: Any,
            recomputed: Any) -> None:
    if not ok:
        _differ(turn, seat, field, recorded, recomputed)


def _differ(turn: int | None, seat: int | None, field: str, recorded: Any, recomputed: Any) -> NoReturn:
    raise _Disagree(Difference(turn, seat, field, recorded, recomputed))


def _compare_lines(recorded: list[str], expected: list[str], turn: int, seat: int) -> None:
    for number, (old, new) in enumerate(zip(recorded, expected)):
        _expect(old == new, turn, seat, f"input line {number}", repr(old), repr(new))
    _expect(len(recorded) == len(expected), turn, seat, "input length",
            f"{len(recorded)} lines", f"{len(expected)} lines")


def _recorded_fault(fault: dict[str, Any] | None) -> tuple[Fault | str, int] | None:
    if fault is None:
        return None
    try:
        return Fault(fault["kind"]), fault["turn"]
    except ValueError:
        return fault["kind"], fault["turn"]          # an unknown kind: never equal to ours


def _fault_key(fault: FaultRecord | None) -> tuple[Fault, int] | None:
    return None if fault is None else (fault.kind, fault.turn)


def _fault_text(fault: tuple[Fault | str, int] | None) -> str:
    if fault is None:
        return "no fault"
    kind, turn = fault
    return f"{kind.value if isinstance(kind, Fault) else repr(kind)} at turn {turn}"


def _shown(value: Any) -> str:
    """Descriptions as they are; values (numbers, None, a replay's text that is not printable: a
    terminal must not draw its escape sequences) as Python writes them."""
    return value if isinstance(value, str) and value.isprintable() else repr(value)
