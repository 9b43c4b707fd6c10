"""What the match loop records per bot and turn: latency, CPU time, margin, stderr volume,
and the harness benchmark's modes run end to end (figures printed, never asserted)."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from referee.api import TimeControl
from referee.harness import process
from referee.match import PlayerSpec, play_match
from referee.testing import ScriptedPlayer
from tests.conftest import ROOT
from tools.bench.harness import BUSY_BOT, SLEEPY_BOT, CountingGame

CLOCK = TimeControl(first_turn_ms=3000, turn_ms=500, grace_ms=10)


def test_latency_cpu_and_margin_are_recorded_per_turn_and_consistent():
    busy = PlayerSpec("busy", (sys.executable, "-c", BUSY_BOT.format(ms=15)))
    result = play_match(CountingGame(8, CLOCK), [busy, busy], seed=1)
    assert result.reason == "turn limit" and result.turns == 8
    for seat, player in enumerate(result.players):
        assert player.fault is None and len(player.latencies_ms) == 4
        budgets = [CLOCK.first_turn_ms] + [CLOCK.turn_ms] * 3
        assert player.margin_ms == pytest.approx(min(budget - latency for budget, latency
                                                     in zip(budgets, player.latencies_ms)))
        turns = [turn for record in result.records for turn in record.seats if turn.seat == seat]
        # a busy bot's CPU time is measured every turn, and is bounded by the game's wall time
        assert all(turn.cpu_ms > 0 for turn in turns[1:])
        assert sum(turn.cpu_ms for turn in turns) <= result.wall_s * 1000
        data = player.to_json()
        assert data["margin_ms"] == round(player.margin_ms, 3) and data["stderr_bytes"] == 0


class _OsWithSlowWrites:
    """``os`` for referee.harness.process whose write returns 200 ms late, as when the harness loses
    its core to the bot it just woke: the bot's answer is often back before write returns."""

    def __getattr__(self, name):
        return getattr(os, name)

    @staticmethod
    def write(fd, data):
        written = os.write(fd, data)
        time.sleep(0.2)
        return written


def test_latency_counts_from_when_the_input_starts_going_out(monkeypatch):
    # timed from the end of the write (the old clock) a 50 ms answer measured 50 - 200 ms,
    # about nothing; from its start, never less than the bot's sleep
    monkeypatch.setattr(process, "os", _OsWithSlowWrites())
    sleepy = PlayerSpec("sleepy", (sys.executable, "-c", SLEEPY_BOT.format(ms=50)))
    result = play_match(CountingGame(4, CLOCK), [sleepy, sleepy], seed=1)
    assert result.reason == "turn limit"
    for player in result.players:
        assert player.fault is None and len(player.latencies_ms) == 2
        assert min(player.latencies_ms) >= 50


def test_an_answer_faster_than_a_millisecond_has_no_cpu_reading():
    echo = PlayerSpec("echo", (sys.executable, "-c", "import sys\nfor l in sys.stdin: print('ok', "
                                                     "flush=True)"))
    result = play_match(CountingGame(40, CLOCK), [echo, echo], seed=1)
    assert result.players[0].fault is None
    fast = [turn for record in result.records for turn in record.seats
            if turn.latency_ms is not None and turn.latency_ms < 1.0]
    assert all(turn.cpu_ms is None for turn in fast)


@pytest.mark.parametrize("args", [["overhead", "--turns", "200", "--rounds", "1"],
                                  ["flood", "--turns", "50", "--rounds", "1"],
                                  ["latency", "--turns", "6", "--jobs", "1", "--answer-ms", "5"],
                                  ["soak", "--games", "4", "--jobs", "2"],
                                  ["interrupt", "--rounds", "1"]])
def test_the_harness_benchmark_runs(args):
    done = subprocess.run([sys.executable, "-m", "tools.bench.harness", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert {"overhead": "ratio harness/raw", "flood": "ratio harness/raw",
            "latency": "turns measured", "soak": "after the run",
            "interrupt": "SIGTERM: every bot process gone"}[args[0]] in done.stdout


def test_pdata_written_after_the_last_answer_is_kept():
    code = ("import sys\nn = 0\nfor line in sys.stdin:\n n += 1\n print('ok', flush=True)\n"
            " sys.stderr.write(f'[PDATA] answers = {n}\\n'); sys.stderr.flush()\n")
    bot = PlayerSpec("late reporter", (sys.executable, "-c", code))
    result = play_match(CountingGame(10, CLOCK), [bot, bot], seed=1)
    assert [player.pdata for player in result.players] == [{"answers": "5"}, {"answers": "5"}]
    assert all(player.stderr_bytes == 5 * len("[PDATA] answers = 5\n") for player in result.players)


def test_a_game_ends_every_players_input_before_waiting_for_any_to_exit():
    """Bots exit together (one exit wait a game, not one a bot): every input is ended first."""
    calls = []

    class Player(ScriptedPlayer):
        def end_input(self):
            calls.append(("end_input", self.name))

        def close(self):
            calls.append(("close", self.name))

    players = [Player(lambda lines: "ok", name) for name in ("a", "b")]
    result = play_match(CountingGame(4, CLOCK), players, seed=1)
    assert result.reason == "turn limit"
    assert calls == [("end_input", "a"), ("end_input", "b"), ("close", "a"), ("close", "b")]
