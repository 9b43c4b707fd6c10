"""The CodinGame SDK protocol, driven with real bot processes against a referee that speaks it
exactly (tests/fixtures/referees/sdk_referee.py) and checks every message botarena sends."""
from __future__ import annotations

import uuid

import pytest

from referee.api import Fault, TimeControl
from referee.external.channel import RefereeStartError
from tests.referee.external.gamefiles import play, processes_with, sdk_game


def _summaries(result) -> list[str]:
    return [line for record in result.records for frame in (record.notes or {}).get("frames", [])
            for line in frame.get("summary", [])]


def _inputs(result, seat: int) -> list[list[str]]:
    return [entry.input for record in result.records for entry in record.seats
            if entry.seat == seat]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_game_scores_and_ranks_as_the_referee_says(tmp_path, players):
    path = sdk_game(tmp_path, parameters={"turns": 3})
    bots = [["--digit", str(seat + 1)] for seat in range(players)]
    result = play(path, bots)
    assert result.referee_error is None, result.referee_error
    assert [player.score for player in result.players] == [3.0 * (seat + 1)
                                                         for seat in range(players)]
    assert [player.rank for player in result.players] == list(range(players))[::-1]
    assert result.winner == players - 1
    # every seat asked each turn
    assert [len(_inputs(result, seat)) for seat in range(players)] == [3] * players
    assert _inputs(result, 0)[0] == [f"{players} 0", "1 0"]
    assert (result.turns, result.frames) == (3, 3 * players + 1)   # frames apart, the last unasked


def test_equal_scores_share_a_rank(tmp_path):
    result = play(sdk_game(tmp_path, parameters={"turns": 2}),
                  [["--digit", "5"], ["--digit", "5"], ["--digit", "1"]])
    assert [player.rank for player in result.players] == [0, 0, 2]
    assert result.winner is None


def test_monitoring_sends_each_answers_own_milliseconds(tmp_path):
    result = play(sdk_game(tmp_path, "--monitoring", parameters={"turns": 3}),
                  [["--digit", "1"], ["--digit", "2"]])
    assert result.referee_error is None, result.referee_error
    sent = [int(line.split()[2]) for line in _summaries(result) if line.startswith("ms ")]
    measured = [int(entry.latency_ms) for record in result.records for entry in record.seats]
    assert sent == measured and len(sent) == 6
    limits = [frame["limit_ms"] for record in result.records
              for frame in (record.notes or {}).get("frames", []) if "limit_ms" in frame]
    assert limits == [3050, 3050] + [450] * 4         # the referee's, with its 50 ms allowance


@pytest.mark.parametrize("slow_from, faulted", [(2, True), (4, False)])
def test_a_third_answer_over_the_soft_limit_is_a_timeout_and_margins_are_the_soft_limits(
        tmp_path, slow_from, faulted):
    """SDK 4.7+ sends its soft limit plus 50 ms and times a player out at its third answer over
    the soft limit (the stand-in does as AbstractPlayer.execute does). Answers 40 ms over the
    soft 200 ms, well within the hard limit (a 2 s grace here): from turn 2 on, the third (turn
    4) is the referee's timeout, recorded as a fault; from turn 4 on, two: no fault."""
    path = sdk_game(tmp_path, "--monitoring", parameters={"turns": 5, "turn_ms": 200})
    result = play(path, [["--digit", "1", "--sleep-from", str(slow_from), "--sleep-ms", "240"],
                         ["--digit", "2"]], time_control=TimeControl(grace_ms=2000))
    assert result.referee_error is None, result.referee_error
    slow = result.players[0]
    assert slow.margin_ms is not None and slow.margin_ms <= -40     # against 200 ms, not 250
    if faulted:
        assert slow.fault is not None and slow.fault.kind is Fault.TIMEOUT
        assert "over its soft limit of 200 ms for the third time" in slow.fault.detail
        assert slow.score == -1.0 and result.winner == 1     # the referee removed it too
    else:
        assert slow.fault is None and slow.score == 5.0


@pytest.mark.parametrize("flags", [(), ("--monitoring",)])
def test_a_frame_without_a_player_is_answered_at_once_and_its_input_kept(tmp_path, flags):
    # turn 1 executes nobody: its frame carries player 0's initial input, which must reach
    # the bot with its next input; the referee FAILs on a wrong answer to that frame
    result = play(sdk_game(tmp_path, *flags, "--idle", "1,3", parameters={"turns": 4}),
                  [["--digit", "1"], ["--digit", "2"]])
    assert result.referee_error is None, result.referee_error
    assert all(player.fault is None for player in result.players)
    assert _inputs(result, 0)[0] == ["2 0", "2 0"]
    assert [player.score for player in result.players] == [2.0, 4.0]
    frames = [frame for record in result.records for frame in (record.notes or {}).get("frames", [])]
    assert [frame["frame"] for frame in frames] == list(range(len(frames)))
    assert sum(1 for frame in frames if frame.get("expected") == 0) == 2


def test_multi_line_answers(tmp_path):
    result = play(sdk_game(tmp_path, parameters={"turns": 2, "answer_lines": 2}),
                  [["--digit", "3", "--lines", "2"], ["--digit", "1", "--lines", "2"]])
    assert result.referee_error is None, result.referee_error
    assert [player.score for player in result.players] == [12.0, 4.0]
    assert result.records[0].seats[0].output == "3\n3"


def test_a_timeout_is_told_to_the_referee_which_deactivates_the_player(tmp_path):
    result = play(sdk_game(tmp_path, parameters={"turns": 4}),
                  [["--digit", "1"], ["--digit", "2", "--sleep-at", "2"], ["--digit", "3"]])
    assert result.referee_error is None, result.referee_error
    fault = result.players[1].fault
    assert fault is not None and fault.kind is Fault.TIMEOUT
    assert len(_inputs(result, 1)) == 2                # asked at turns 1 and 2, then not again
    assert len(_inputs(result, 0)) == 4                # the game went on without it
    assert [player.score for player in result.players] == [4.0, -1.0, 12.0]
    assert [player.rank for player in result.players] == [1, 2, 0]
    assert "player 1 timed out" in _summaries(result)


def test_a_crash_is_a_timeout_to_the_referee(tmp_path):
    result = play(sdk_game(tmp_path, parameters={"turns": 3}),
                  [["--digit", "1", "--crash-at", "2"], ["--digit", "2"], ["--digit", "3"]])
    assert result.players[0].fault.kind is Fault.CRASH
    assert [player.score for player in result.players] == [-1.0, 6.0, 9.0]


def test_a_wrong_answer_is_the_referees_to_judge(tmp_path):
    result = play(sdk_game(tmp_path, parameters={"turns": 3}),
                  [["--digit", "1", "--garbage-at", "2"], ["--digit", "2"], ["--digit", "3"]])
    assert result.players[0].fault is None             # the harness took the line: no fault
    assert result.players[0].score == -1.0 and result.players[0].rank == 2
    assert any("not a digit" in line for line in _summaries(result))


@pytest.mark.parametrize("flag, reason", [
    ("--fail-at", "failed (FAIL): java.lang.RuntimeException: the referee was told to fail"),
    ("--exit-at", "ended before the game did: exited with code 3"),
    ("--garbage-at", "printed garbage: 'this is not a command'"),
    ("--hang-at", "was silent past its referee_timeout_ms"),
])
def test_a_failing_referee_is_a_referee_error_and_leaves_nothing_running(tmp_path, flag, reason):
    tag = uuid.uuid4().hex
    path = sdk_game(tmp_path, flag, "2", "--tag", tag, "--log", extra="referee_timeout_ms = 1500",
                    parameters={"turns": 4})
    result = play(path, [["--digit", "1"], ["--digit", "2"]])
    assert result.reason.startswith("referee error: the referee of digits ")
    assert reason in result.reason, result.reason
    assert result.winner is None and [player.rank for player in result.players] == [0, 0]
    assert all(player.fault is None for player in result.players)     # no bot's loss
    assert result.referee_error
    if flag != "--hang-at":
        assert "turn 2" in result.referee_error or "RuntimeException" in result.referee_error
    assert not processes_with(tag)


@pytest.mark.parametrize("flag, cause", [
    ("--no-such-flag", "exited with code 2: sdk_referee.py: error: unrecognized arguments: "
                       "--no-such-flag"),
    ("--trace-at=0", "exited with code 1: java.lang.ClassNotFoundException: com.codingame.game.Player"),
])
def test_a_referee_that_cannot_start_is_one_line_and_no_game(tmp_path, flag, cause):
    """A referee that exits before its first line (java's "could not open `referee.args'") is
    a start error, as a bot command that cannot start: one line, naming its cause."""
    tag = uuid.uuid4().hex
    path = sdk_game(tmp_path, "--tag", tag, flag)
    with pytest.raises(RefereeStartError) as caught:
        play(path, [["--digit", "1"], ["--digit", "2"]])
    message = str(caught.value)
    assert message.startswith("the referee of digits could not start: ") and "\n" not in message
    assert cause in message, message
    assert not processes_with(tag)


def test_a_referee_errors_headline_is_the_root_cause_and_its_tail_starts_a_line(tmp_path):
    """Issue 31: the headline was the last stderr line ("... 3 more"), and the stderr tail
    below it began mid-word."""
    result = play(sdk_game(tmp_path, "--trace-at", "2", parameters={"turns": 3}),
                  [["--digit", "1"], ["--digit", "2"]])
    assert result.reason == ("referee error: the referee of digits ended before the game did: "
                             "exited with code 1: java.lang.ClassNotFoundException: "
                             "com.codingame.game.Player")
    first = result.referee_error.splitlines()[0]
    assert first.startswith("\tat com.codingame.gameengine.core.Frame"), first
    assert result.referee_error.rstrip().endswith("... 3 more")


def test_a_line_beyond_a_multi_line_answer_is_refused(tmp_path):
    """The three lines in one write: a bot that flushes line by line may have its third line
    arrive after the next turn's input (then it reads as that turn's first line, and in a game
    of two turns the last turn's extra lines are never read: the test failed so at load 2.6)."""
    result = play(sdk_game(tmp_path, parameters={"turns": 2, "answer_lines": 2}),
                  [["--digit", "3", "--lines", "3", "--one-write"], ["--digit", "1", "--lines", "2"]])
    fault = result.players[0].fault
    # refused as the answer's extra line, or at the next input
    assert fault is not None and fault.kind is Fault.BAD_OUTPUT
    assert "extra line" in fault.detail or "wrote output when none was expected" in fault.detail


@pytest.mark.parametrize("text", ["1e300", "-1e16", "nan", "inf", "-Infinity"])
def test_a_score_no_results_file_can_hold_is_a_referee_error_quoting_its_line(tmp_path, text):
    result = play(sdk_game(tmp_path, "--score", f"1={text}", parameters={"turns": 1}),
                  [["--digit", "1"], ["--digit", "2"]])
    assert result.referee_error is not None
    assert f"SCORES line '1 {text}'" in result.reason, result.reason
    assert result.winner is None and all(player.score == 0 for player in result.players)


def test_a_score_of_1e15_is_kept(tmp_path):
    result = play(sdk_game(tmp_path, "--score", "0=-1e15", parameters={"turns": 1}),
                  [["--digit", "1"], ["--digit", "2"]])
    assert result.referee_error is None, result.referee_error
    assert [player.score for player in result.players] == [-1e15, 2.0]


def test_a_fault_names_the_seats_own_turn_and_the_frame_apart(tmp_path):
    """Issue 31: a fault on a bot's 3rd answer read "turn 9" with 4 players (the frame); it is
    the bot's own turn 3, frame 10 (frames 0-3 are turn 1, seat 2's third is 2 * 4 + 2)."""
    path = sdk_game(tmp_path, players="4", parameters={"turns": 3})
    result = play(path, [["--digit", "1"], ["--digit", "2"],
                         ["--digit", "3", "--sleep-at", "3"], ["--digit", "4"]])
    fault = result.players[2].fault
    assert fault is not None and fault.kind is Fault.TIMEOUT
    assert (fault.turn, fault.frame) == (3, 10)
    assert result.to_json()["players"][2]["fault"]["frame"] == 10
    assert (result.turns, result.frames) == (3, 13)      # 3 turns of 4 frames, then the last
