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


def _botarena(*args: str, stdout) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tools.cli", *args], cwd=ROOT, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120)


@pytest.mark.parametrize("args", [
    ["games"],
    ["play", "tictactoe", "random", "random", "--json"],
    ["play", "tictactoe", "random", "random"],
    ["match", "tictactoe", "random", "random", "-n", "2", "--json", "--quiet"],
    ["bots", "tictactoe"],
    ["bundle", "tictactoe/random", "-o", "-"],
    ["--help"],
])
def test_a_full_device_is_one_line_and_exit_1(args):
    with open("/dev/full", "w") as full:
        done = _botarena(*args, stdout=full)
    assert done.returncode == 1, done.stderr
    assert done.stderr == "botarena: cannot write the output: No space left on device\n", done.stderr


def test_a_reader_that_went_away_is_no_error():
    """``botarena games | head -c0``: the pipe is closed before botarena writes a byte."""
    child = subprocess.Popen([sys.executable, "-m", "tools.cli", "games"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    child.stdout.close()
    stderr = child.stderr.read()
    child.stderr.close()
    assert child.wait(timeout=120) == 0 and stderr == "", stderr
