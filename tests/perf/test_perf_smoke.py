"""The rules and search speed suites (tests/perf/) run at a tiny size and print figures of the
right shape (never judged: timings belong to benchmarks, not to assertions)."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT

NUMBER = r"[\d,]+(?:\.\d+)?"

# (python -m tests.perf.NAME ARGS, patterns the output must hold)
SMOKE_RUNS = [
    (["xmas_rush", "--seconds", "0.02"],
     [rf"clone\s+{NUMBER} /s", rf"complete random games\s+{NUMBER} /s"]),
    (["xmas_search", "--turns", "1", "--fixed", "20"],
     [r"duct\s+iterations per turn: median\s+\d+", r"hybrid\s+iterations", r"pmc\s+iterations"]),
    (["search", "--ms", "2", "--turns", "1"],
     [rf"number_maze_duel duct.*{NUMBER}", rf"xmas_rush duct depth 2.*{NUMBER}"]),
    (["othello", "--seconds", "0.02"],
     [rf"evaluation:\s+{NUMBER} calls/s", rf"alphabeta depth 5:\s+{NUMBER} nodes/s"]),
    (["calculation", "--seconds", "0.02"],
     [rf"mcts \(information sets\):\s+{NUMBER} playouts/s"]),
]


@pytest.mark.parametrize("args, patterns", SMOKE_RUNS, ids=lambda value: " ".join(value)
                         if isinstance(value, list) and value and value[0][0].isalpha() else None)
def test_speed_suite_runs_small_and_prints_its_figures(args, patterns):
    done = subprocess.run([sys.executable, "-m", f"tests.perf.{args[0]}", *args[1:]], cwd=ROOT,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    for pattern in patterns:
        assert re.search(pattern, done.stdout), f"{pattern!r} not in:\n{done.stdout}"
