"""The harness never hangs or dies with a game: referee errors, the watchdog, bots that cannot
start, and Ctrl-C / SIGTERM to the real CLI (every bot process gone at once)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from referee.api import TimeControl
from referee.games import load_game
from referee.games.tictactoe import TicTacToe
from referee.harness.process import BotProcess, BotStartError
from referee.match import PlayerSpec, play_match
from tests.conftest import ROOT, run_cli, skip_when_traced
from tests.fixtures.hostile import HOSTILE, bot_processes_of, hostile_argv, wait_until_gone, zombie_children

GOOD = PlayerSpec("good", hostile_argv("good"))
CLOCK = TimeControl(first_turn_ms=3000, turn_ms=150, grace_ms=10)


class BrokenRules(TicTacToe):
    def turn_lines(self, state, seat):
        if state.turn == 3:
            self.rules_bug()
        return super().turn_lines(state, seat)

    def rules_bug(self):
        raise ValueError("rules bug at turn 3")


class StuckTurnLines(TicTacToe):
    def turn_lines(self, state, seat):
        while state.turn == 2:              # a referee stuck in pure Python
            pass
        return super().turn_lines(state, seat)


def test_a_referee_exception_is_recorded_for_that_game_only():
    result = play_match(BrokenRules(), [GOOD, GOOD], seed=1, time_control=CLOCK)
    assert result.reason == "referee error: ValueError: rules bug at turn 3"
    assert "rules_bug" in result.referee_error and result.winner is None
    assert result.to_json()["referee_error"] == result.referee_error
    assert bot_processes_of(os.getpid()) == []
    again = play_match(load_game("tictactoe"), [GOOD, GOOD], seed=1, time_control=CLOCK)
    assert again.referee_error is None and again.winner == 0


def test_the_watchdog_cuts_off_a_stuck_referee_and_the_next_game_is_unharmed():
    skip_when_traced()
    result = play_match(StuckTurnLines(), [GOOD, GOOD], seed=1, time_control=CLOCK, watchdog_s=0.3)
    assert result.reason.startswith("referee error: watchdog: turn 2 did not finish"), result.reason
    assert bot_processes_of(os.getpid()) == []
    time.sleep(0.1)                         # nothing is left pending for this thread
    again = play_match(load_game("tictactoe"), [GOOD, GOOD], seed=1, time_control=CLOCK)
    assert again.referee_error is None and again.reason == "three in a row"


def _script(tmp_path, name: str, text: str, mode: int) -> str:
    path = tmp_path / name
    path.write_text(text)
    path.chmod(mode)
    return str(path)


@pytest.mark.parametrize("case, words", [
    ("missing", "not found (check the path"),
    ("no_run_bit", "is not executable (chmod +x"),
    ("bad_shebang", "the interpreter on the #! line"),
    ("no_shebang", "run it through its interpreter"),
    ("directory", "is a directory"),
])
def test_a_bot_that_cannot_start_is_one_clear_error(tmp_path, case, words):
    program = {
        "missing": lambda: str(tmp_path / "nothing-here"),
        "no_run_bit": lambda: _script(tmp_path, "bot.sh", "#!/bin/sh\necho 1 1\n", 0o644),
        "bad_shebang": lambda: _script(tmp_path, "bot.sh", "#!/no/such/python\n", 0o755),
        "no_shebang": lambda: _script(tmp_path, "bot.sh", "\x00\x01garbage", 0o755),
        "directory": lambda: str(tmp_path),
    }[case]()
    with pytest.raises(BotStartError) as caught:
        play_match(load_game("tictactoe"), [GOOD, PlayerSpec("broken", (program,))], seed=1,
                   time_control=CLOCK)
    assert words in str(caught.value) and "\n" not in str(caught.value)
    assert bot_processes_of(os.getpid()) == []          # the seat-0 bot that did start is gone


def test_play_with_a_bot_that_cannot_start_prints_one_line_and_exits_2(tmp_path):
    program = _script(tmp_path, "bot.sh", "#!/bin/sh\necho 1 1\n", 0o644)
    done = run_cli("play", "tictactoe", "random", program)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "chmod +x" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def _children_settled(bot_pid: int) -> bool:
    """The bot, its child, its setsid child and its daemon, the daemon's parent gone.

    One look at the process list is not one instant: the list of pids is read first, then each
    process. A daemon's parent that forks it and exits in between hides both (the list had the
    parent, not the daemon), so 3 were seen, or 5 while the parent had not run yet: the count
    is only stable once the daemon is there and its parent gone (it reparented away)."""
    found = bot_processes_of(os.getpid())
    return len(found) == 4 and any(process.pid != bot_pid and process.ppid() != bot_pid
                                   for process in found)


def test_close_is_idempotent_and_ends_the_tree():
    bot = BotProcess(list(hostile_argv("children")), memory_mb=None)
    started = bot.send(["-1 -1", "1", "0 0"], 3)
    assert bot.read_line(started, 3).line == "0 0"
    deadline = time.monotonic() + 10
    while not _children_settled(bot.pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _children_settled(bot.pid), bot_processes_of(os.getpid())
    bot.close()
    bot.close()
    assert bot_processes_of(os.getpid()) == [] and zombie_children() == []


def _start_cli(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tools.cli", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for_bots(cli: subprocess.Popen, count: int) -> None:
    deadline = time.monotonic() + 30
    while len(bot_processes_of(cli.pid)) < count:
        assert cli.poll() is None, cli.communicate()
        assert time.monotonic() < deadline, "the bots never started"
        time.sleep(0.05)


HANGS = f"{HOSTILE} hang_ignore_term 1"        # hangs at its first turn, ignoring SIGTERM
COMMANDS = {
    "play": ["play", "tictactoe", f"{HOSTILE} children", HANGS],
    "match": ["match", "tictactoe", f"{HOSTILE} children", HANGS, "-n", "4", "--jobs", "1",
              "--quiet"],
    "league": ["league", "tictactoe", f"{HOSTILE} children", HANGS, "-n", "2", "--jobs", "1",
               "--quiet"],
    "sweep": ["sweep", "tictactoe", f"{HOSTILE} children {{2,3}}", "--vs", HANGS, "-n", "2",
              "--jobs", "1", "--quiet"],
}


# league and sweep stop through the same runner as match: one signal each is enough
@pytest.mark.parametrize("command, signum", [
    ("play", signal.SIGINT), ("play", signal.SIGTERM), ("match", signal.SIGINT),
    ("match", signal.SIGTERM), ("league", signal.SIGTERM), ("sweep", signal.SIGINT)])
def test_interrupting_the_cli_leaves_no_bot_process(tmp_path, command, signum):
    args = COMMANDS[command] + ["--first-turn-ms", "60000"]
    if command != "play":
        args += ["--out", str(tmp_path / "results.jsonl")]
    cli = _start_cli(*args)
    try:
        _wait_for_bots(cli, 5)              # 4 processes of the children bot, the hanging bot
        time.sleep(0.2)
        cli.send_signal(signum)
        left, took = wait_until_gone(cli.pid, 5)
        assert left == [], f"still running {took:.1f} s after {signum.name}: {left}"
        cli.wait(timeout=10)
        assert cli.returncode != 0 and "Traceback" not in cli.stderr.read()
    finally:
        cli.kill()
        cli.wait()
        for process in bot_processes_of(cli.pid):
            process.kill()
