"""Standard output that cannot be written: one line on stderr and exit 1 on a full device, silence
and exit 0 for a reader that went away, never a traceback, also not at the interpreter's exit
(issue 23, defect 6)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")


def _environment(unbuffered: bool) -> dict[str, str]:
    """The test's environment with PYTHONUNBUFFERED as asked: unset, standard output is
    block-buffered, and what is left in the buffer is written again at the interpreter's exit."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    return {**environment, "PYTHONUNBUFFERED": "1"} if unbuffered else environment


def _botarena(*args: str, stdout, unbuffered: bool) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tools.cli", *args], cwd=ROOT, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120,
                          env=_environment(unbuffered))


@pytest.mark.parametrize("args", [
    ["games"],
    ["play", "tictactoe", "random", "random", "--json"],
    ["play", "tictactoe", "random", "random"],
    ["match", "tictactoe", "random", "random", "-n", "2", "--json", "--quiet"],
    ["bots", "tictactoe"],
    ["bundle", "tictactoe/random", "-o", "-"],
    ["--help"],
])
@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
def test_a_full_device_is_one_line_and_exit_1(args, unbuffered):
    with open("/dev/full", "w") as full:
        done = _botarena(*args, stdout=full, unbuffered=unbuffered)
    assert done.returncode == 1, done.stderr
    assert done.stderr == "botarena: cannot write the output: No space left on device\n", done.stderr


@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
def test_a_reader_that_went_away_is_no_error(unbuffered):
    """``botarena games | head -c0``: the pipe is closed before botarena writes a byte."""
    child = subprocess.Popen([sys.executable, "-m", "tools.cli", "games"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=_environment(unbuffered))
    child.stdout.close()
    stderr = child.stderr.read()
    child.stderr.close()
    assert child.wait(timeout=120) == 0 and stderr == "", stderr
