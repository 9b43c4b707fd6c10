"""A path with a name past the file system's 255 bytes, wherever the user gives one, is one line
and exit 2, never an OSError traceback (issue 23, defect 5)."""
from __future__ import annotations

import pytest

from tests.conftest import run_cli

LONG = "a" * 300


@pytest.mark.parametrize("args", [
    ["play", "tictactoe", "/tmp/LONG.py", "random"],
    ["play", "tictactoe", "random", "random", "--replay", "/tmp/LONG.json"],
    ["play", "tictactoe", "random", "random", "--view", "/tmp/LONG.html"],
    ["match", "tictactoe", "/tmp/LONG/bot.py", "random", "-n", "2"],
    ["view", "/tmp/LONG.json"],
    ["view", "/tmp/LONG.jsonl:3"],
    ["replay", "/tmp/LONG.json"],
    ["replay", "--verify", "/tmp/LONG/game.json"],
    ["bundle", "/tmp/LONG.py", "-o", "/tmp/out.py"],
    ["bundle", "tictactoe/random", "-o", "/tmp/LONG.py"],
    ["sweep", "tictactoe", "random --seed {1,2}", "--vs", "random", "-n", "2", "--csv",
     "/tmp/LONG.csv"],
    ["sweep", "tictactoe", "random --seed {1,2}", "--vs", "random", "-n", "2", "--plot",
     "/tmp/LONG.png"],
    ["match", "tictactoe", "random", "random", "-n", "2", "--out", "/tmp/LONG.jsonl"],
])
def test_a_path_with_a_too_long_name_is_one_line_and_exit_2(args):
    done = run_cli(*(arg.replace("LONG", LONG) for arg in args))
    assert done.returncode == 2 and done.stdout == "", done.stderr[-2000:]
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "too long" in done.stderr.lower(), done.stderr
