"""Grids of ``sweep`` and ``tune --method race``: a huge one is refused before it is built, and
every command reads a range the same way (issue 23, defects 1 and 9)."""
from __future__ import annotations

import resource

import pytest

from referee.api import UsageError
from tests.conftest import run_cli
from tools.arena.grid import MAX_GRID_POINTS, expand_grid

MEMORY_CAP = 1 << 30        # without the limit the grid fills this at once: MemoryError, not a swap storm


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


@pytest.mark.parametrize("args, size", [
    (["tune", "tictactoe", "mcts --iterations {1..100000000}", "--vs", "random", "--method", "race",
      "-n", "0"], "100,000,000"),
    (["sweep", "tictactoe", "mcts --iterations {1..100000} --c {1..100000}", "--vs", "random"],
     "10,000,000,000"),
    (["sweep", "tictactoe", "mcts --iterations {1..99999999999999999999999}", "--vs", "random"],
     "99,999,999,999,999,999,999,999"),
])
def test_a_huge_grid_is_refused_in_one_line_before_it_is_built(args, size):
    done = run_cli(*args, timeout=60, preexec_fn=_capped)
    assert done.returncode == 2 and done.stdout == "", done.stderr[-2000:]
    assert done.stderr.count("\n") == 1, done.stderr[-2000:]
    assert f"a grid of {size} points; at most {MAX_GRID_POINTS:,} can be played" in done.stderr


def test_the_limit_is_the_number_of_points():
    assert len(expand_grid("bot --a {1..100} --b {1..100}")[1]) == MAX_GRID_POINTS
    with pytest.raises(UsageError, match="a grid of 10,100 points"):
        expand_grid("bot --a {1..100} --b {1..101}")


def test_a_league_sweep_is_held_to_a_smaller_grid():
    done = run_cli("sweep", "tictactoe", "random --seed {1..201}", "--league")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "a round robin of 201 points; at most 200 play each other" in done.stderr


@pytest.mark.parametrize("braces", ["{1..0}", "{5..5}", "{3..-3}"])
@pytest.mark.parametrize("command", [["sweep", "tictactoe", "random --seed BRACES", "--vs", "random"],
                                     ["tune", "tictactoe", "random --seed BRACES", "--vs", "random",
                                      "--method", "race"],
                                     ["tune", "tictactoe", "random --seed BRACES", "--vs", "random"]])
def test_an_empty_range_is_refused_by_sweep_as_by_tune(command, braces):
    """``sweep`` played {1..0} as the points 1 and 0; ``tune`` (SPSA) refused it."""
    args = [word.replace("BRACES", braces) for word in command]
    done = run_cli(*args)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr == f"botarena: {args[0]} {args[2]!r}: {braces} is an empty range; LOW must " \
        "be below HIGH\n"
