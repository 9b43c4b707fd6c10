"""Commands as a user runs them at a terminal (a pty: play, match, league, sweep, tune, view), and
their progress off a terminal.

A bar is only drawn when stderr is a terminal, so the piped tests never run that code: ``play``
once crashed on every terminal (``if progress`` on a tqdm bar without a total raises
TypeError) and no test saw it. Off a terminal (a log file, nohup, CI), long runs print plain
progress lines instead of a bar.
"""
from __future__ import annotations

import re

import pytest

from tests.conftest import run_cli
from tests.fixtures.terminal import run_in_terminal
from tools.arena.progress import ProgressLines

CALM = ("--first-turn-ms", "30000", "--turn-ms", "30000")
EVERY_GAME = {"BOTARENA_PROGRESS_SECONDS": "0"}


def _no_traceback(run) -> None:
    assert "Traceback" not in run.output, run.output


def test_play_in_a_terminal_draws_its_bar_and_prints_the_summary():
    run = run_in_terminal("play", "tictactoe", "random --seed 1", "random --seed 2",
                          "--seed", "11", *CALM)
    _no_traceback(run)
    assert run.returncode == 0, run.output
    assert re.search(r"tictactoe seed 11: \d+turn", run.output), run.output     # the bar
    assert "result: " in run.output and "seat 1  random --seed 2" in run.output


def test_match_in_a_terminal():
    run = run_in_terminal("match", "tictactoe", "random --seed 1", "random --seed 2",
                          "-n", "4", "--seed", "5", *CALM)
    _no_traceback(run)
    assert run.returncode == 0, run.output
    assert re.search(r"match tictactoe: +\d+%.*\| *\d/4", run.output), run.output
    assert "random --seed 1 vs random --seed 2: 4 games" in run.output


def test_league_in_a_terminal():
    run = run_in_terminal("league", "tictactoe", "random --seed 1", "random --seed 2",
                          "random --seed 3", "-n", "2", "--seed", "5", *CALM)
    _no_traceback(run)
    assert run.returncode == 0, run.output
    assert re.search(r"league tictactoe: +\d+%.*\| *\d/6", run.output), run.output
    assert "tictactoe league: 3 bots, 3 matchups, 6 games" in run.output


def test_sweep_in_a_terminal():
    run = run_in_terminal("sweep", "tictactoe", "random --seed {1,2}", "--vs", "random --seed 9",
                          "-n", "2", "--seed", "1", *CALM)
    _no_traceback(run)
    assert run.returncode == 0, run.output
    assert re.search(r"sweep tictactoe: +\d+%.*\| *\d/4", run.output), run.output
    assert "* best: random --seed" in run.output


def test_tune_in_a_terminal():
    from tests.tools.test_tune import BOT, OPPONENT, QUICK
    run = run_in_terminal("tune", "number_maze_duel", BOT, "--vs", OPPONENT, "--iterations", "2",
                          "--start", "x=1,y=20", "-n", "2", "--seed", "1", *QUICK, timeout=300)
    _no_traceback(run)
    assert run.returncode == 0, run.output
    assert re.search(r"tune number_maze_duel: +\d+%.*\| *\d/\d", run.output), run.output
    assert "tuned: x=" in run.output and "2 iterations" in run.output


def test_view_in_a_terminal(tmp_path):
    replay, page = tmp_path / "game.json", tmp_path / "game.html"
    played = run_cli("play", "tictactoe", "random --seed 1", "random --seed 2", "--seed", "3",
                     *CALM, "--replay", str(replay), "--quiet")
    assert played.returncode == 0, played.stderr
    run = run_in_terminal("view", str(replay), "-o", str(page))
    _no_traceback(run)
    assert run.returncode == 0 and f"wrote {page}" in run.output, run.output
    assert page.read_text().lstrip().lower().startswith("<!doctype html")


@pytest.mark.parametrize("command", [
    ("match", "tictactoe", "random --seed 1", "random --seed 2", "-n", "4"),
    ("league", "tictactoe", "random --seed 1", "random --seed 2", "-n", "4"),
    ("sweep", "tictactoe", "random --seed {1,2}", "--vs", "random --seed 9", "-n", "2"),
])
def test_off_a_terminal_long_runs_print_plain_progress_lines(command):
    done = run_cli(*command, "--seed", "3", *CALM, env=_environment(EVERY_GAME))
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("botarena: ")]
    assert [re.search(r": (\d)/4 games", line).group(1) for line in lines] == ["1", "2", "3", "4"]
    assert "\r" not in done.stderr and "Traceback" not in done.stderr


def test_quiet_prints_no_progress_lines():
    done = run_cli("match", "tictactoe", "random", "random", "-n", "2", "--quiet", *CALM,
                   env=_environment(EVERY_GAME))
    assert done.returncode == 0 and done.stderr == ""


def test_progress_lines_every_tenth_and_after_a_quiet_spell():
    class Stream(list):
        def write(self, text):
            self.append(text)

        def flush(self):
            pass

    now = [0.0]
    stream = Stream()
    lines = ProgressLines(100, 0, "match tictactoe", stream, seconds=30, clock=lambda: now[0])
    for finished in range(1, 25):
        lines.update(finished, "1-0-0")
    assert "".join(stream).splitlines() == ["botarena: match tictactoe: 10/100 games  1-0-0",
                                            "botarena: match tictactoe: 20/100 games  1-0-0"]
    now[0] = 31.0
    lines.update(25, "")
    assert "".join(stream).splitlines()[-1] == "botarena: match tictactoe: 25/100 games"


def _environment(extra: dict[str, str]) -> dict[str, str]:
    import os
    return {**os.environ, **extra}
