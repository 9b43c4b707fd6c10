"""Bots that never flush play as on CodinGame: stdout line-buffered by default (PYTHONUNBUFFERED
for Python, coreutils' libstdbuf for C stdio); --no-line-buffering starts them as they are, and
the timeout then says the bot sat waiting for input and asks whether it flushed."""
from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from referee.harness.output_buffering import LIBSTDBUF
from tests.conftest import run_cli

# tictactoe: the opponent's last move, the number of free cells, the cells; the first free cell
# is the answer, printed with printf and never flushed (as a public Silver-league C bot does)
C_BOT = r"""#include <stdio.h>
int main(void) {
    int row, col, count;
    while (scanf("%d %d %d", &row, &col, &count) == 3) {
        int first_row = -1, first_col = -1;
        for (int i = 0; i < count; i++) {
            if (scanf("%d %d", &row, &col) != 2) return 0;
            if (i == 0) { first_row = row; first_col = col; }
        }
        printf("%d %d\n", first_row, first_col);
    }
    return 0;
}
"""
# the same in Python: sys.stdin.readline() and print() without flush=True
PYTHON_BOT = """import sys
while True:
    if not sys.stdin.readline():
        break
    cells = [sys.stdin.readline().strip() for _ in range(int(sys.stdin.readline()))]
    print(cells[0])
"""
# answers nothing and sleeps: idle, but not waiting for input (no question about flushing)
SLEEPING_BOT = "import sys, time\nsys.stdin.readline()\ntime.sleep(60)\n"
ROOMY = ("--first-turn-ms", "3000", "--turn-ms", "1000")
# a timeout is expected: a first turn long enough to start under load, no longer
SHORT = ("--first-turn-ms", "2500", "--turn-ms", "300")      # started and idle by then
WITHOUT_UNBUFFERED = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory) -> str:
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        pytest.skip("no C compiler (cc, gcc or clang): the never-flushing C bot is not built")
    if LIBSTDBUF is None:
        pytest.skip("no coreutils libstdbuf.so: C stdio bots are not line-buffered on this machine")
    folder = tmp_path_factory.mktemp("c_bot")
    (folder / "bot.c").write_text(C_BOT)
    subprocess.run([compiler, "-O2", "-o", str(folder / "bot"), str(folder / "bot.c")], check=True)
    return str(folder / "bot")


@pytest.fixture(scope="module")
def python_bot(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("python_bot") / "bot.py"
    path.write_text(PYTHON_BOT)
    return str(path)


def _play(*args: str) -> dict:
    done = run_cli("play", "tictactoe", *args, "--seed", "3", "--json", env=WITHOUT_UNBUFFERED)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("bot", ["c_bot", "python_bot"])
def test_a_bot_that_never_flushes_plays_cleanly(request, bot):
    path = request.getfixturevalue(bot)
    for seats in ((path, "random --seed 1"), ("random --seed 1", path)):
        result = _play(*seats, *ROOMY)
        assert [player["fault"] for player in result["players"]] == [None, None], result
        assert result["reason"] in ("three in a row", "board full")


@pytest.mark.parametrize("bot", ["c_bot", "python_bot"])
def test_without_line_buffering_the_timeout_asks_about_flushing(request, bot):
    result = _play(request.getfixturevalue(bot), "random --seed 1", *SHORT, "--no-line-buffering")
    fault = result["players"][0]["fault"]
    assert fault["kind"] == "timeout" and fault["turn"] == 0
    assert "waiting for more input: did it print its answer and flush it?" in fault["detail"]
    assert "drop --no-line-buffering" in fault["detail"]


def test_both_kinds_play_each_other(c_bot, python_bot):
    result = _play(c_bot, python_bot, *ROOMY)
    assert [player["fault"] for player in result["players"]] == [None, None], result


def test_an_idle_bot_not_waiting_for_input_is_not_asked_about_flushing(tmp_path):
    bot = tmp_path / "sleeper.py"
    bot.write_text(SLEEPING_BOT)
    result = _play(str(bot), "random --seed 1", *SHORT)
    fault = result["players"][0]["fault"]
    assert fault["kind"] == "timeout" and "flush" not in fault["detail"]
