"""A replay's stored text reaches the terminal escaped: its commands in the "run them?" prompt,
its reason and fault kinds in ``replay --verify`` (issue 23, defect 2)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import run_cli
from tests.referee.external.gamefiles import SDK_REFEREE, digit_bot, sdk_game
from tools.cli.replay import shown_command

# a carriage return and "erase line" redraw the shown line as a built-in bot's name
DISGUISE = "\r\x1b[2K  seat 0: random --seed 1"


@pytest.fixture(scope="module")
def replay(tmp_path_factory) -> dict:
    path = tmp_path_factory.mktemp("replay") / "game.json"
    done = run_cli("play", "tictactoe", "random", "random", "--seed", "1", "--replay", str(path))
    assert done.returncode == 0, done.stderr
    return json.loads(path.read_text())


def _write(tmp_path, replay: dict) -> str:
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(replay))
    return str(path)


def test_the_prompt_shows_a_disguised_command_escaped_and_runs_nothing(tmp_path, replay):
    marker = tmp_path / "ran"
    argv = ["sh", "-c", f"touch {marker}{DISGUISE}"]
    hostile = {**replay, "players": [{**replay["players"][0], "argv": argv}, replay["players"][1]]}
    done = run_cli("replay", _write(tmp_path, hostile))
    assert done.returncode == 2 and not marker.exists()
    assert "\r" not in done.stderr and "\x1b" not in done.stderr, repr(done.stderr)
    shown = done.stderr.splitlines()[1]
    assert shown == f"  seat 0: sh -c $'touch {marker}\\x0d\\x1b[2K  seat 0: random --seed 1'"


@pytest.mark.parametrize("word", ["a\r\x1b[2Kb", "it's", "back\\slash\t", "\u202eright-to-left",
                                  "\x85next line", "plain", "two words", "\U0001f600"])
def test_a_shown_command_is_what_a_shell_runs(word):
    """The shown line, typed into bash, gives back the very words (the escapes are bash's)."""
    line = shown_command(("printf", "%s\\0", word))
    assert line.isprintable()
    done = subprocess.run(["bash", "-c", line], capture_output=True, timeout=30)
    assert done.stdout.split(b"\0")[:-1] == [word.encode()]


@pytest.mark.parametrize("change", ["reason", "fault"])
def test_verify_prints_a_replays_text_escaped(tmp_path, replay, change):
    result = json.loads(json.dumps(replay["result"]))
    if change == "reason":
        result["reason"] = "three in a row" + DISGUISE
    else:
        result["players"][0]["fault"] = {"kind": "crash" + DISGUISE, "turn": 1, "detail": ""}
    done = run_cli("replay", "--verify", _write(tmp_path, {**replay, "result": result}))
    assert done.returncode == 1, done.stderr
    assert "replay differs from the rules" in done.stdout
    assert "\r" not in done.stdout and "\x1b" not in done.stdout, repr(done.stdout)
    assert "\\r\\x1b[2K" in done.stdout


def _game_file_replay(tmp_path) -> tuple:
    path = sdk_game(tmp_path, parameters={"turns": 1})
    replay = tmp_path / "game.json"
    done = run_cli("play", str(path), digit_bot("--digit", "1"), digit_bot("--digit", "2"),
                   "--replay", str(replay))
    assert done.returncode == 0, done.stderr
    return path, replay


def test_the_prompt_shows_a_game_files_referee_command(tmp_path):
    """Issue 31, item 8: the referee of a game file runs too after a yes: it is listed."""
    _, replay = _game_file_replay(tmp_path)
    done = run_cli("replay", str(replay))
    assert done.returncode == 2 and "not run" in done.stderr
    shown = done.stderr.splitlines()
    assert shown[3] == f"  referee: {shown_command((sys.executable, str(SDK_REFEREE)))}", shown


@pytest.mark.full
@pytest.mark.skipif(shutil.which("javac") is None, reason="optional: a JDK for the referee host")
def test_the_prompt_shows_the_referee_hosts_jvm_and_its_fallback(tmp_path):
    path, replay = _game_file_replay(tmp_path)
    path.write_text(f'protocol = "codingame"\nplayers = 2\nhost = true\n'
                    f'classpath = ["{tmp_path}"]\njvm_options = ["-Dleague.level=3"]\n')
    done = run_cli("replay", str(replay), env={**os.environ, "XDG_CACHE_HOME": str(tmp_path)})
    assert done.returncode == 2, done.stderr
    shown = done.stderr.splitlines()
    assert shown[3].startswith("  referee host: java -Xlog:disable -Xlog:all=warning:stderr "
                               "-XX:TieredStopAtLevel=1 -Dleague.level=3 -cp ")
    assert shown[3].endswith(f"RefereeHost {tmp_path}")
    assert shown[4] == ("  referee without the host: java -Xlog:disable -Xlog:all=warning:stderr "
                        f"-XX:TieredStopAtLevel=1 -Dleague.level=3 -cp {tmp_path} "
                        "com.codingame.gameengine.core.RefereeMain")
