"""brutaltester's ### protocol, driven with real bot processes against a referee that speaks it
exactly (tests/fixtures/referees/brutal_referee.py); botarena keeps the time itself."""
from __future__ import annotations

import uuid

import pytest

from referee.api import Fault, TimeControl
from tests.referee.external.gamefiles import brutal_game, play, processes_with


@pytest.mark.parametrize("flags", [(), ("--inputs-first",)])
def test_ranks_come_from_end_with_ties_in_one_token(tmp_path, flags):
    # scores 9, 9, 3: "###End 01 2"
    result = play(brutal_game(tmp_path, "--turns", "3", *flags),
                  [["--digit", "3"], ["--digit", "3"], ["--digit", "1"]])
    assert result.referee_error is None, result.referee_error
    assert [player.rank for player in result.players] == [0, 0, 2]
    assert result.reason == "the referee's ranking (###End 01 2)"
    assert [player.score for player in result.players] == [1.0, 1.0, 0.0]   # players beaten
    assert result.records[0].seats[0].input == ["3 0", "1 0"]
    assert (result.turns, result.frames) == (3, 9)      # each bot's own turns, the steps apart


def test_the_seed_line_and_four_players(tmp_path):
    result = play(brutal_game(tmp_path, "--seed-line", "--turns", "2", extra="seed_line = true"),
                  [["--digit", str(digit)] for digit in (1, 4, 2, 3)], seed=77)
    assert result.referee_error is None, result.referee_error
    assert [player.rank for player in result.players] == [3, 0, 2, 1]
    assert result.winner == 1


def test_multi_line_answers(tmp_path):
    result = play(brutal_game(tmp_path, "--turns", "2", "--lines", "2"),
                  [["--digit", "2", "--lines", "2"], ["--digit", "1", "--lines", "2"]])
    assert result.referee_error is None, result.referee_error
    assert [player.rank for player in result.players] == [0, 1]


def test_botarena_keeps_the_time_the_protocol_has_none(tmp_path):
    path = brutal_game(tmp_path, "--turns", "4", first_turn_ms=3000, turn_ms=400)
    result = play(path, [["--digit", "1"], ["--digit", "2", "--sleep-at", "2"], ["--digit", "3"]])
    fault = result.players[1].fault
    assert fault is not None and fault.kind is Fault.TIMEOUT and "410 ms" in fault.detail
    # a fault ends the game: the faulty player last, the others sharing the first rank
    assert [player.rank for player in result.players] == [0, 2, 0]
    assert result.reason == "fault: seat 1 timeout"
    assert sum(len(record.seats) for record in result.records) == 5


def test_the_first_answer_has_the_first_turns_time(tmp_path):
    path = brutal_game(tmp_path, "--turns", "2", first_turn_ms=4000, turn_ms=300)
    result = play(path, [["--digit", "1", "--sleep-at", "1", "--sleep-ms", "1000"], ["--digit", "2"]])
    assert result.players[0].fault is None


def test_the_time_control_given_to_the_game_applies(tmp_path):
    path = brutal_game(tmp_path, "--turns", "2")
    result = play(path, [["--digit", "1", "--sleep-at", "2"], ["--digit", "2"]],
                  time_control=TimeControl(first_turn_ms=5000, turn_ms=8000))
    assert result.players[0].fault is None          # a 5 s sleep within 8 s


def test_a_crash_ends_the_game(tmp_path):
    result = play(brutal_game(tmp_path), [["--crash-at", "1"], ["--digit", "2"]])
    assert result.players[0].fault.kind is Fault.CRASH
    assert [player.rank for player in result.players] == [1, 0] and result.winner == 1


@pytest.mark.parametrize("flag, reason", [
    ("--exit-at", "ended before the game did: exited with code 3"),
    ("--garbage-at", "printed garbage: 'garbage here' where a ### command was expected"),
    ("--hang-at", "was silent past its referee_timeout_ms"),
])
def test_a_failing_referee_is_a_referee_error_and_leaves_nothing_running(tmp_path, flag, reason):
    tag = uuid.uuid4().hex
    path = brutal_game(tmp_path, flag, "2", "--tag", tag, extra="referee_timeout_ms = 1500")
    result = play(path, [["--digit", "1"], ["--digit", "2"]])
    assert reason in result.reason, result.reason
    assert result.winner is None and all(player.fault is None for player in result.players)
    assert not processes_with(tag)
