"""Every hostile bot behaviour ends in the right fault on the right seat, and no process survives."""
from __future__ import annotations

import os

import pytest

from referee.api import Fault, TimeControl
from referee.games import load_game
from referee.match import PlayerSpec, play_match
from tests.fixtures.hostile import hostile_argv, wait_until_gone, zombie_children

TICTACTOE = load_game("tictactoe")
CLOCK = TimeControl(first_turn_ms=3000, turn_ms=150, grace_ms=10)
GENEROUS = TimeControl(first_turn_ms=3000, turn_ms=3000, grace_ms=10)   # no timeout on a busy machine

# mode -> (fault kind, words the detail must contain)
FAULTS = {
    "crash_start": (Fault.CRASH, "ImportError: no module named 'numpyy'"),
    "exception": (Fault.CRASH, "RuntimeError: bot bug"),
    "exit": (Fault.CRASH, "exited with code 3"),
    "signal": (Fault.CRASH, "killed by SIGSEGV"),
    "hang": (Fault.TIMEOUT, "no answer within 160 ms"),
    "hang_ignore_term": (Fault.TIMEOUT, "no answer within 160 ms"),
    "late": (Fault.TIMEOUT, "no answer within 160 ms"),
    "partial": (Fault.TIMEOUT, "partial line"),
    "multi": (Fault.BAD_OUTPUT, "more than one line: '0 2' was read as the answer, then came "
              "the extra line '2 2' in the same turn; print debug output to stderr"),
    "empty": (Fault.BAD_OUTPUT, "got ''"),
    "huge": (Fault.BAD_OUTPUT, "longer than 4096"),
    "stream": (Fault.BAD_OUTPUT, "longer than 4096"),
    "not_utf8": (Fault.BAD_OUTPUT, "not UTF-8"),
    "wrong_kind": (Fault.BAD_OUTPUT, "'MOVE 1 1'"),
    "close_stdout": (Fault.CRASH, "closed its stdout"),
    "exit_after_answer": (Fault.CRASH, "exited with code 0"),
    "exit_after_answer_child": (Fault.CRASH, "exited with code 0"),
    "children_then_crash": (Fault.CRASH, "exited with code 5"),
}


def play(hostile: tuple[str, ...], seat: int, memory_mb: int | None = 768, clock=CLOCK):
    good = PlayerSpec("good", hostile_argv("good"))
    bad = PlayerSpec("hostile", hostile)
    players = [bad, good] if seat == 0 else [good, bad]
    return play_match(TICTACTOE, players, seed=1, time_control=clock, memory_mb=memory_mb)


def assert_nothing_left() -> None:
    left, _ = wait_until_gone(os.getpid(), 0.5)
    assert left == [], f"bot processes survived: {left}"
    assert zombie_children() == []


@pytest.mark.parametrize("mode", sorted(FAULTS))
def test_hostile_bot_gets_the_right_fault_and_leaves_nothing(mode):
    seat = sorted(FAULTS).index(mode) % 2
    kind, words = FAULTS[mode]
    result = play(hostile_argv(mode), seat, clock=CLOCK if kind is Fault.TIMEOUT else GENEROUS)
    fault = result.players[seat].fault
    assert fault is not None and fault.kind is kind, (mode, fault)
    assert words in fault.detail, fault.detail
    if mode.startswith("exit_after_answer"):
        assert fault.turn >= 3          # its last answer counted; it faults when next asked
    assert result.players[1 - seat].fault is None
    assert result.winner == 1 - seat
    assert result.reason == f"fault: seat {seat} {kind.value}"
    assert_nothing_left()


def test_children_that_setsid_and_double_fork_do_not_outlive_a_normal_game():
    result = play(hostile_argv("children"), 0)
    assert all(player.fault is None for player in result.players)
    assert result.reason == "three in a row" and result.winner == 0
    assert_nothing_left()


@pytest.mark.parametrize("mode, seat, words", [
    ("eat_memory", 1, "MemoryError"),                   # private memory: RLIMIT_DATA refuses it
    ("eat_shared_memory", 0, "resident memory"),        # shared memory: the RSS sampling kills it
])
def test_memory_past_the_cap_is_a_crash_saying_memory_limit(mode, seat, words):
    slow = TimeControl(first_turn_ms=3000, turn_ms=5000, grace_ms=10)
    result = play(hostile_argv(mode), seat, memory_mb=200, clock=slow)
    fault = result.players[seat].fault
    assert fault.kind is Fault.CRASH and "memory limit (200 MB)" in fault.detail, fault
    assert words in fault.detail
    assert result.winner == 1 - seat
    assert_nothing_left()


def test_stderr_flood_is_not_a_fault_and_is_kept_per_turn_up_to_the_cap():
    result = play(hostile_argv("flood_stderr"), 0)
    flooder = result.players[0]
    assert flooder.fault is None and result.winner == 0
    turns = len(flooder.latencies_ms)
    assert flooder.stderr_bytes == turns * 3000 * 121
    kept = [seat.stderr for record in result.records for seat in record.seats if seat.seat == 0]
    assert len(kept) == turns
    for text in kept:
        assert text.startswith("[... ") and " bytes cut]" in text
        assert len(text) < 2100
    assert_nothing_left()
