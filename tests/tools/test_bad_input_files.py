"""Bad input of issue 31: one clear line, exit status 2, nothing left running or on disk; and the
Python API refuses what the command line refuses (docs/tools.md, "From Python")."""
from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time

import pytest

from referee.api import UsageError
from tests.conftest import ROOT, run_cli
from tools.arena.headtohead import play_head_to_head
from tools.arena.seeds import SeedList
from tools.arena.settings import Settings
from tools.stats import SprtSettings


def _one_line(done: subprocess.CompletedProcess, *words: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    for word in words:
        assert word in done.stderr, done.stderr


def test_seeds_from_dev_zero_are_refused_without_reading_it_all():
    _one_line(run_cli("match", "tictactoe", "random", "random", "--seeds", "/dev/zero",
                      timeout=60), "is larger than 64 MB: not a seed list")


def test_a_game_file_that_is_a_fifo_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "game.toml"
    os.mkfifo(fifo)
    for command in (("games", str(fifo)), ("play", str(fifo), "random", "random")):
        _one_line(run_cli(*command, timeout=60), "is not a regular file")


def test_a_game_file_nested_100000_deep_is_one_line(tmp_path):
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    _one_line(run_cli("games", str(deep), timeout=60), "nested too deeply")


def test_a_sigkilled_bundle_check_leaves_no_check_folder(tmp_path):
    """The check plays against a slow bot, so that it is killed while playing."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    slow = tmp_path / "slow.py"
    slow.write_text("import sys, time\n"
                    "while True:\n"
                    "    if not sys.stdin.readline():\n"
                    "        break\n"
                    "    cells = [sys.stdin.readline() for _ in range(int(sys.stdin.readline()))]\n"
                    "    time.sleep(0.05)\n"
                    "    print(cells[0].strip(), flush=True)\n")
    check = subprocess.Popen(
        [sys.executable, "-m", "tools.cli", "bundle", "tictactoe/random", "-o",
         str(tmp_path / "bundle.py"), "--check", "--vs", str(slow)],
        cwd=ROOT, env={**os.environ, "TMPDIR": str(temporary)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not [path for path in temporary.iterdir() if path.name.startswith("botarena-check-")]:
        assert check.poll() is None and time.monotonic() < deadline, "no check folder was made"
        time.sleep(0.02)
    check.send_signal(signal.SIGKILL)
    check.wait()
    deadline = time.monotonic() + 30          # a bound for the guardian, not a timing claim
    while [path for path in temporary.iterdir() if path.name.startswith("botarena-check-")]:
        assert time.monotonic() < deadline, list(temporary.iterdir())
        time.sleep(0.05)


@pytest.mark.parametrize("make", [
    lambda: SeedList((), "mine"),
    lambda: SeedList((2**64,), "mine"),
    lambda: SeedList((-2**63 - 1,), "mine"),
    lambda: SeedList(("12",), "mine"),               # type: ignore[arg-type]
    lambda: Settings("tictactoe", seeds="1 2"),       # type: ignore[arg-type]
], ids=["empty", "beyond 64 bits", "below 64 bits", "text", "not a list"])
def test_the_python_api_refuses_the_seeds_the_command_line_refuses(make):
    with pytest.raises(UsageError):
        make()


def test_seeds_given_as_a_list_are_a_seed_list():
    assert Settings("tictactoe", seeds=[1, 2]).seeds == SeedList((1, 2), "seeds")  # type: ignore[arg-type]


@pytest.mark.parametrize("sprt", [SprtSettings(elo0=20, elo1=10), SprtSettings(elo0=math.nan),
                                  SprtSettings(alpha=math.nan), SprtSettings(elo1=math.inf)],
                         ids=["elo0 > elo1", "nan elo0", "nan alpha", "inf elo1"])
def test_the_python_api_refuses_an_sprt_the_command_line_refuses(sprt):
    with pytest.raises(UsageError, match="--sprt"):
        play_head_to_head(Settings("tictactoe", seed=1), "random", "random", games=2, sprt=sprt)
