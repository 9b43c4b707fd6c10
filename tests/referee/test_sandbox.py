"""--sandbox: bots under bubblewrap cannot see or touch their opponent, reach the network, or
leave a process behind (real bwrap; skipped with one line where it is not installed)."""
from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from referee.api import TimeControl, UsageError
from referee.games import load_game
from referee.harness.process import BotProcess
from referee.harness.sandbox import check_available
from referee.match import PlayerSpec, play_match
from tests.conftest import ROOT, run_cli
from tests.fixtures.hostile import HOSTILE, bot_processes_of, escaper_command, hostile_argv
from tests.referee.test_process_lifetime import _kill_left, _start_cli, _token, _wait_for, _with_token

try:
    check_available()
    BWRAP_PROBLEM = None
except UsageError as problem:
    BWRAP_PROBLEM = str(problem)

needs_bwrap = pytest.mark.skipif(BWRAP_PROBLEM is not None,
                                 reason=f"optional: sandbox tests skipped: {BWRAP_PROBLEM}")
CLOCK = TimeControl(first_turn_ms=5000, turn_ms=1000, grace_ms=10)
GOOD = PlayerSpec("good", hostile_argv("good"))


def _play(spec: PlayerSpec, sandboxed: bool):
    return play_match(load_game("tictactoe"), [spec, GOOD], seed=1, time_control=CLOCK,
                      memory_mb=None, sandboxed=sandboxed)


def test_without_the_sandbox_the_spy_writes_into_its_opponents_answers():
    """The attack the sandbox stops (as root, /proc/<pid>/fd/1 of a sibling is writable)."""
    result = _play(PlayerSpec("spy", hostile_argv("spy", 1)), sandboxed=False)
    spy, victim = result.players
    if spy.pdata.get("wrote") == "0" and os.geteuid() != 0:
        pytest.skip("this user cannot open another process's fd through /proc anyway")
    assert int(spy.pdata["wrote"]) >= 1, spy.pdata
    assert victim.fault is not None and victim.fault.kind.value == "bad_output", result.reason


@needs_bwrap
def test_a_sandboxed_spy_sees_no_other_process_and_cannot_touch_its_opponent():
    result = _play(PlayerSpec("spy", hostile_argv("spy", 1)), sandboxed=True)
    spy, victim = result.players
    assert spy.pdata == {"visible": "0", "wrote": "0"}, spy.pdata
    assert victim.fault is None and spy.fault is None, result.reason


@needs_bwrap
@pytest.mark.parametrize("sandboxed, expected", [(False, "open"), (True, "refused")])
def test_a_sandboxed_bot_has_no_network(sandboxed, expected):
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        port = listener.getsockname()[1]
        spec = PlayerSpec("net", (sys.executable, str(HOSTILE), "network", "1", str(port)))
        result = _play(spec, sandboxed)
    assert result.players[0].pdata["network"].startswith(expected), result.players[0].pdata


@needs_bwrap
def test_sandboxed_escapes_die_with_the_game_and_when_the_harness_is_sigkilled():
    token = _token()
    done = run_cli("play", "tictactoe", escaper_command("play", token), f"{HOSTILE} good",
                   "--seed", "1", "--sandbox")
    try:
        assert done.returncode == 0, done.stderr
        assert _wait_for(lambda: not _with_token(token), 5), "escapees outlived the game"
        cli = _start_cli("play", "tictactoe", escaper_command("play", token),
                         f"{HOSTILE} spin 1 {token}", "--first-turn-ms", "60000", "--sandbox")
        try:
            assert _wait_for(lambda: len(_with_token(token)) >= 4 or cli.poll() is not None)
            assert cli.poll() is None, cli.communicate()
            cli.kill()
            cli.wait()
            assert _wait_for(lambda: not _with_token(token), 10), _with_token(token)
        finally:
            if cli.poll() is None:
                cli.kill()
                cli.wait()
            _kill_left(bot_processes_of(cli.pid))
    finally:
        _kill_left(_with_token(token))


@needs_bwrap
def test_a_sandboxed_bots_temporary_folders_go_when_the_harness_is_sigkilled(tmp_path):
    """A sandboxed bot works in a botarena-bot-* folder of its own; SIGKILLed, botarena cannot
    remove them: its guardian does."""
    environment = {**os.environ, "TMPDIR": str(tmp_path)}
    cli = subprocess.Popen([sys.executable, "-m", "tools.cli", "play", "tictactoe",
                            f"{HOSTILE} good", f"{HOSTILE} spin 1", "--first-turn-ms", "60000",
                            "--sandbox"], cwd=ROOT, env=environment, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    try:
        assert _wait_for(lambda: len(list(tmp_path.glob("botarena-bot-*"))) == 2
                         or cli.poll() is not None)
        assert cli.poll() is None, cli.communicate()
        cli.kill()
        cli.wait()
        assert _wait_for(lambda: not list(tmp_path.glob("botarena-bot-*")), 10), \
            list(tmp_path.iterdir())
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.wait()
        _kill_left(bot_processes_of(cli.pid))


@needs_bwrap
def test_a_sandboxed_bot_writes_only_in_its_own_folder():
    code = ("import os, sys\nsys.stdin.readline()\nopen('mine.txt', 'w').write('x')\n"
            "try:\n    open(sys.argv[1], 'w').write('x'); print('wrote', flush=True)\n"
            "except OSError:\n    print('refused', flush=True)\n")
    outside = ROOT / f".sandbox-probe-{_token()}"
    try:
        with BotProcess([sys.executable, "-c", code, str(outside)], memory_mb=None,
                        sandboxed=True) as bot:
            assert bot.read_line(bot.send(["go"], 10), 10).line == "refused"
        assert not outside.exists()
    finally:
        outside.unlink(missing_ok=True)


def test_sandbox_missing_bwrap_is_one_line_saying_how_to_install():
    done = run_cli("play", "tictactoe", "random", "random", "--sandbox",
                   env={**os.environ, "PATH": "/nonexistent"})
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "apt-get install bubblewrap" in done.stderr, done.stderr


@needs_bwrap
def test_a_sandboxed_bot_can_live_under_tmp(tmp_path):
    """The filesystem is read-only but whole: a bot file under /tmp (where tests and scripts put
    them) starts and plays."""
    program = tmp_path / "bot.py"
    program.write_text(HOSTILE.read_text())
    result = _play(PlayerSpec("in tmp", (sys.executable, str(program), "good")), sandboxed=True)
    assert result.players[0].fault is None, result.reason


@needs_bwrap
def test_a_sandboxed_bot_is_held_to_the_memory_cap():
    """RLIMIT_DATA reaches the bot inside bwrap (bwrap forks it before the harness sets limits)."""
    slow = TimeControl(first_turn_ms=5000, turn_ms=5000, grace_ms=10)
    hog = PlayerSpec("hog", hostile_argv("eat_memory", 1))
    result = play_match(load_game("tictactoe"), [GOOD, hog], seed=1, time_control=slow,
                        memory_mb=200, sandboxed=True)
    fault = result.players[1].fault
    assert fault is not None and "memory limit (200 MB)" in fault.detail, result.reason
    assert "MemoryError" in fault.detail, fault.detail      # refused at once, not sampled later
