"""An answer read past its deadline is never counted silently (issue 23: once an answer 1.35 ms past
a 110 ms deadline was accepted with no warning). No wait of the harness ends past the deadline, so
only a harness that itself woke late (an overloaded machine) finds such an answer; it counts (the
bot may have answered in time), and the game's result says so, with how late and when."""
from __future__ import annotations

import select
import sys
import types

from referee.api import TimeControl
from referee.games import load_game
from referee.harness import process
from referee.match import PlayerSpec, play_match
from tests.fixtures.hostile import hostile_argv

CLOCK = TimeControl(first_turn_ms=5000, turn_ms=200, grace_ms=5)
# Tic-tac-toe: the first free cell, at once at its first turn, 0.5 ms past the deadline (205.5 ms
# after it read its input, later still on the harness's clock) at the next ones.
SLOW = ("import sys, time\nturn = 0\nwhile True:\n    if not sys.stdin.readline(): break\n"
        "    cells = [sys.stdin.readline().strip() for _ in range(int(sys.stdin.readline()))]\n"
        "    turn += 1\n    if turn > 1: time.sleep(0.2055)\n"
        "    sys.stdout.write(cells[0] + '\\n'); sys.stdout.flush()\n")


class _LateHarnessPoll:
    """A poll that, asked to wait, wakes only once something is ready, however long that takes:
    a harness starved of CPU past its deadline, which finds the answer already there."""

    def __init__(self) -> None:
        self._poll = select.poll()

    def poll(self, timeout_ms=None):
        return self._poll.poll(10_000 if timeout_ms else 0)

    def __getattr__(self, name):
        return getattr(self._poll, name)


def _late_select(read, write, error, timeout_s=None):
    """select, the same way (the harness waits the last fraction of a millisecond with it)."""
    return select.select(read, write, error, 10 if timeout_s else 0)


def test_an_answer_found_past_its_deadline_by_a_late_harness_counts_and_is_reported(monkeypatch):
    late_select = types.SimpleNamespace(**{name: getattr(select, name) for name in dir(select)
                                           if not name.startswith("_")})
    late_select.poll, late_select.select = _LateHarnessPoll, _late_select
    monkeypatch.setattr(process, "select", late_select)
    slow = PlayerSpec("slow", (sys.executable, "-c", SLOW))
    result = play_match(load_game("tictactoe"), [slow, PlayerSpec("good", hostile_argv("good"))],
                        seed=1, time_control=CLOCK, memory_mb=None)
    assert result.players[0].fault is None, result.players[0].fault
    assert result.players[0].margin_ms < -CLOCK.grace_ms
    late = [line for line in result.warnings if line.startswith("seat 0's answer at turn ")]
    assert len(late) == 1 and "past its 205 ms deadline" in late[0], result.warnings
    assert "counted, because the harness itself was late" in late[0]
