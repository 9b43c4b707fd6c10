"""The match loop's two seams: players in this process (no bot process at all), and a referee
that is not a Game's rules (what an external referee process plugs into)."""
from __future__ import annotations

import psutil
import pytest

from referee.api import (
    Answer,
    BotFault,
    Ending,
    Fault,
    FaultRecord,
    RefereeError,
    RefereeOutcome,
    Request,
    TimeControl,
)
from referee.games import load_game
from referee.harness import process
from referee.match import play_match
from referee.replay import to_replay
from referee.testing import ScriptedPlayer

TICTACTOE = load_game("tictactoe")


def test_scripted_players_play_a_whole_game_with_no_process_started():
    before = {child.pid for child in psutil.Process().children(recursive=True)}
    seen = []

    def first_cell(lines: list[str]) -> str:
        seen.append({child.pid for child in psutil.Process().children(recursive=True)} - before)
        return lines[2]
    result = play_match(TICTACTOE, [ScriptedPlayer(first_cell), ScriptedPlayer(first_cell)], seed=1)
    assert (result.reason, result.turns, result.winner, result.ending) == \
        ("three in a row", 7, 0, Ending.RULES)
    assert seen == [set()] * 7 and len(process._live) == 0
    assert {child.pid for child in psutil.Process().children(recursive=True)} <= before
    assert [seat.input[:2] for record in result.records for seat in record.seats][:2] == \
        [["-1 -1", "9"], ["0 0", "8"]]


def test_a_crash_in_a_scripted_player_is_a_fault_of_its_seat():
    def crash(lines):
        raise BotFault(Fault.CRASH, "exited with code 1")
    result = play_match(TICTACTOE, [ScriptedPlayer(lambda lines: lines[2]), ScriptedPlayer(crash)],
                        seed=1)
    assert (result.reason, result.winner, result.ending) == ("fault: seat 1 crash", 0, Ending.FAULT)
    assert result.players[1].fault == FaultRecord(Fault.CRASH, 1, "exited with code 1")
    assert result.records[1].seats[0].output is None


class CountDown:
    """A game refereed by its own Referee (as an external referee process is): each step asks
    seat ``turn % 2`` for two lines, a number then a word; a seat that faults is asked again
    (the referee goes on); the referee ranks the seats itself and leaves notes per step."""

    name = "countdown"
    time_control = TimeControl(first_turn_ms=500, turn_ms=200, grace_ms=5)

    def __init__(self, steps: int = 4, fail_at: int | None = None):
        self.steps, self.fail_at, self.built = steps, fail_at, []

    def parse_options(self, pairs):
        return {"steps": self.steps}

    def referee(self, options, time_control):
        referee = CountDownReferee(options["steps"], time_control, self.fail_at)
        self.built.append(referee)
        return referee


class CountDownReferee:
    step_slack_s = 0.25

    def __init__(self, steps: int, clock: TimeControl, fail_at: int | None):
        self.steps, self.clock, self.fail_at = steps, clock, fail_at
        self.turn, self.seen, self.closed = 0, [], 0

    def start(self, seed, players):
        self.players, self.turn = players, 0

    def requests(self):
        if self.seen:
            self.turn += 1
        if self.turn == self.fail_at:
            raise RefereeError("the referee said FAIL", "its stderr tail")
        if self.turn >= self.steps:
            return ()
        return [Request(self.turn % 2, [f"left {self.steps - self.turn}"], 2,
                        self.clock.turn_ms, self.clock.grace_ms)]

    def step_notes(self):
        last = self.turn == self.steps
        return {"left": self.steps - self.turn} if self.turn % 2 == 0 or last else {}

    def submit(self, replies):
        self.seen.extend(replies)
        return [(reply.seat, f"{reply.lines[1]!r} is not a word") for reply in replies
                if reply.lines and not reply.lines[1].isalpha()]

    def outcome(self):
        return RefereeOutcome((1.0, 2.0), "counted down", self.turn, ranks=(0, 1))

    def close(self):
        self.closed += 1


def test_a_referee_of_its_own_asks_for_lines_keeps_notes_and_ranks_the_seats():
    game = CountDown(steps=5)
    answers = iter(["3\nfine", Answer("7", 250.0, None, None), "2\n12", "1\n99", "0\ndone"])
    seat0 = ScriptedPlayer(lambda lines: next(answers), following="x")
    seat1 = ScriptedPlayer(lambda lines: next(answers))
    result = play_match(game, [seat0, seat1], seed=1)
    referee = game.built[0]
    assert referee.closed == 1 and seat0.closed and seat1.closed
    # seat 1's first answer is late (250 ms > 200 + 5): a timeout, and the referee goes on;
    # seat 0's second answer is refused (a number, not a word), and so is seat 1's next one:
    # each seat's first fault is the one kept
    assert [(reply.seat, reply.lines, reply.fault) for reply in referee.seen] == [
        (0, ("3", "fine"), None), (1, (), Fault.TIMEOUT), (0, ("2", "12"), None),
        (1, ("1", "99"), None), (0, ("0", "done"), None)]
    assert [player.fault for player in result.players] == [
        FaultRecord(Fault.BAD_OUTPUT, 2, "'12' is not a word; the next line it printed was 'x': if "
                    "the refused line was debug output, print that to stderr, only the answer to "
                    "stdout"),
        FaultRecord(Fault.TIMEOUT, 1, "no answer within 205 ms")]
    assert (result.reason, result.turns, result.winner) == \
        ("fault: seat 0 bad_output, seat 1 timeout", 5, 0)
    assert [player.rank for player in result.players] == [0, 1]     # the referee's ranks
    assert [seat1.inputs, result.records[3].seats[0].output] == [[["left 4"], ["left 2"]], "1\n99"]
    assert [(record.turn, record.notes, len(record.seats)) for record in result.records] == [
        (0, {"left": 5}, 1), (1, None, 1), (2, {"left": 3}, 1), (3, None, 1), (4, {"left": 1}, 1),
        (5, {"left": 0}, 0)]
    replay = to_replay(result, [], game.time_control)
    assert [turn.get("notes") for turn in replay["turns"]] == \
        [{"left": 5}, None, {"left": 3}, None, {"left": 1}, {"left": 0}]
    assert "notes" not in replay["turns"][1]


def test_a_referee_error_is_recorded_with_the_referees_own_detail():
    game = CountDown(steps=5, fail_at=2)
    result = play_match(game, [ScriptedPlayer(lambda lines: "1\nok")] * 2, seed=1, record=False)
    assert (result.reason, result.referee_error, result.winner, result.turns) == \
        ("referee error: the referee said FAIL", "its stderr tail", None, 2)
    assert result.ending is Ending.REFEREE_ERROR and game.built[0].closed == 1


def test_the_referees_own_time_per_step_is_added_to_the_watchdogs_allowance(monkeypatch):
    from referee.harness.watchdog import GameWatchdog
    feeds, real = [], GameWatchdog.feed
    monkeypatch.setattr(GameWatchdog, "feed", lambda self, s: feeds.append(s) or real(self, s))
    play_match(CountDown(steps=2), [ScriptedPlayer(lambda lines: "1\nok")] * 2, seed=1,
               watchdog_s=1.0)
    assert feeds == pytest.approx([1.5, 1.0 + 0.25 + 0.205, 1.0 + 0.25 + 0.205], rel=1e-9)
