"""An answer is judged by when it was written, not by when the harness looked (issue 31: at load
13-22, a bot answering in 70 ms against 50 ms was let through in 4 of 40 games, because botarena
itself read its answers late). No wait of the harness ends past the deadline, so only a harness
that woke late (an overloaded machine) finds an answer past it; the kernel's stamp of the write
into the bot's stdout (a FIFO, see referee.harness.arrival) then decides: written after the
deadline is a timeout, before it counts as in time, and where that cannot be told (no stamp) the
answer counts and the game is marked ``timing_uncertain``, with a warning."""
from __future__ import annotations

import os
import select
import subprocess
import sys
import time
import types

import pytest

from referee.api import TimeControl
from referee.games import load_game
from referee.harness import answer_pipe, arrival
from referee.harness.process import BotProcess
from referee.match import PlayerSpec, play_match
from tests.conftest import ROOT
from tests.fixtures.hostile import HOSTILE, bot_processes_of, hostile_argv
from tests.referee.test_process_lifetime import _kill_left, _wait_for

CLOCK = TimeControl(first_turn_ms=5000, turn_ms=100, grace_ms=5)
# Tic-tac-toe: the first free cell, at once at its first turn, after DELAY seconds at the next ones.
SLOW = ("import sys, time\nturn = 0\nwhile True:\n    if not sys.stdin.readline(): break\n"
        "    cells = [sys.stdin.readline().strip() for _ in range(int(sys.stdin.readline()))]\n"
        "    turn += 1\n    if turn > 1: time.sleep(DELAY)\n"
        "    sys.stdout.write(cells[0] + '\\n'); sys.stdout.flush()\n")


def _slow(delay_s: float) -> PlayerSpec:
    return PlayerSpec("slow", (sys.executable, "-c", SLOW.replace("DELAY", str(delay_s))))


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


class _BlindPoll(_LateHarnessPoll):
    """A poll that, asked to wait a later turn's time (1 s or less), sleeps 30 ms past it and
    reports nothing: a harness that last looked before the answer came and got the CPU back
    only past the deadline."""

    def poll(self, timeout_ms=None):
        if timeout_ms and timeout_ms <= 1000:
            time.sleep(timeout_ms / 1000 + 0.03)
            return []
        return self._poll.poll(timeout_ms)


def _blind_select(read, write, error, timeout_s=None):
    if timeout_s:
        time.sleep(timeout_s + 0.03)
        return [], [], []
    return select.select(read, write, error, 0)


def _harness_polls(monkeypatch, poll_class, select_function) -> None:
    patched = types.SimpleNamespace(**{name: getattr(select, name) for name in dir(select)
                                       if not name.startswith("_")})
    patched.poll, patched.select = poll_class, select_function
    monkeypatch.setattr(answer_pipe, "select", patched)


def _play(slow: PlayerSpec):
    return play_match(load_game("tictactoe"), [slow, PlayerSpec("good", hostile_argv("good"))],
                      seed=1, time_control=CLOCK, memory_mb=None)


def test_an_answer_written_after_its_deadline_is_a_timeout_however_late_the_harness_looked(
        monkeypatch):
    _harness_polls(monkeypatch, _LateHarnessPoll, _late_select)
    result = _play(_slow(0.3))
    fault = result.players[0].fault
    assert fault is not None and fault.kind.value == "timeout", result.reason
    assert fault.detail.startswith("no answer within 105 ms: its answer was written "), fault.detail
    written_ms = float(fault.detail.split("written ")[1].split(" ms")[0])
    assert written_ms >= 300 - arrival.WINDOW_S * 1000, fault.detail
    assert not result.timing_uncertain and "timing_uncertain" not in result.to_json()


def test_an_answer_written_in_time_counts_as_in_time_when_the_harness_looked_late(monkeypatch):
    """The harness's last look before the deadline saw nothing, and it got the CPU back only past
    it: the answer that came meanwhile counts, on time, and the game is a sure result."""
    _harness_polls(monkeypatch, _BlindPoll, _blind_select)
    result = _play(_slow(0.0))
    assert result.reason == "three in a row" and result.players[0].fault is None
    assert result.players[0].margin_ms >= 0 and max(result.players[0].latencies_ms[1:]) <= 105
    assert not result.timing_uncertain
    assert not [line for line in result.warnings if "answer at turn" in line], result.warnings


def test_an_answer_found_late_with_no_stamp_counts_and_makes_the_game_uncertain(monkeypatch):
    monkeypatch.setattr(arrival, "stamped_pipe", lambda: None)      # a plain pipe: no stamps
    _harness_polls(monkeypatch, _LateHarnessPoll, _late_select)
    result = _play(_slow(0.15))
    assert result.players[0].fault is None, result.players[0].fault
    assert result.players[0].margin_ms < -CLOCK.grace_ms
    assert result.timing_uncertain and result.to_json()["timing_uncertain"] is True
    late = [line for line in result.warnings if line.startswith("seat 0's answer at turn ")]
    assert len(late) == 1 and "past its 105 ms deadline (and " in late[0], result.warnings
    assert "when it was written cannot be told: counted, but the game's timing is uncertain" \
        in late[0]


@pytest.mark.parametrize("stamp, verdict", [(None, arrival.Arrival.UNCERTAIN),
                                            (10.0001, arrival.Arrival.LATE),
                                            (10.0, arrival.Arrival.UNCERTAIN),
                                            (10.0 - arrival.WINDOW_S, arrival.Arrival.IN_TIME)])
def test_a_stamp_judges_a_write_by_its_window(stamp, verdict):
    assert arrival.judge(stamp, 10.0) is verdict


def test_a_bot_writes_into_a_fifo_that_is_stamped_at_each_write_and_left_nowhere():
    reader, writer = arrival.stamped_pipe()
    try:
        before = time.perf_counter()
        os.write(writer, b"1 1\n")
        stamp = arrival.written_at(reader)
        assert stamp is not None and before - arrival.WINDOW_S <= stamp <= time.perf_counter()
        assert os.listdir(arrival._folder) == []            # its name is gone once it is open
        arrival.clear(reader)           # an answer read before the kernel stamped its write:
        assert arrival.written_at(reader) is None           # unknown, not the last one's stamp
        os.write(writer, b"1 2\n")
        assert arrival.written_at(reader) is not None
    finally:
        os.close(reader)
        os.close(writer)


def test_sending_a_turn_clears_the_stamp_of_the_last_answer():
    with BotProcess(["/bin/sh", "-c", "echo ready; read a; read b; echo $b"],
                    memory_mb=None) as bot:
        assert bot.stamped and bot.read_line(time.perf_counter(), 10).line == "ready"
        assert arrival.written_at(bot._stdout_fd) is not None
        bot.send(["1"], 10)             # (it answers only after a second line)
        assert arrival.written_at(bot._stdout_fd) is None
        assert bot.read_line(bot.send(["2"], 10), 10).line == "2"


def _fifo_folder(pid: int) -> str | None:
    """The folder of the FIFOs the harness process ``pid`` reads its bots' answers from."""
    try:
        links = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
    except OSError:
        return None
    folders = {os.path.dirname(link) for link in links
               if os.path.basename(os.path.dirname(link)).startswith("botarena-bot-fifo-")}
    return folders.pop() if folders else None


def test_the_fifos_folder_goes_when_the_harness_is_sigkilled():
    cli = subprocess.Popen([sys.executable, "-m", "tools.cli", "play", "tictactoe",
                            f"{HOSTILE} good", f"{HOSTILE} spin 1", "--first-turn-ms", "60000"],
                           cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert _wait_for(lambda: _fifo_folder(cli.pid) is not None or cli.poll() is not None)
        folder = _fifo_folder(cli.pid)
        assert folder is not None and cli.poll() is None, cli.communicate()
        assert os.path.isdir(folder)
        cli.kill()
        cli.wait()
        assert _wait_for(lambda: not os.path.exists(folder), 10), os.listdir(folder)
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.wait()
        _kill_left(bot_processes_of(cli.pid))
