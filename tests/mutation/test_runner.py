"""The mutation runner (tests/mutation/runner.py): its targets, its report, its one line without
mutmut."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT


def runner(*args: str, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tests.mutation.runner", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, env=env)


def test_mutation_targets_take_one_game():
    from tests.mutation.runner import target_glob
    assert target_glob("codec") == "referee.games.*.codec.*"
    assert target_glob("codec:xmas_rush") == "referee.games.xmas_rush.codec.*"
    assert target_glob("rules:othello") == "referee.games.othello.rules.*"
    for bad, reason in (("codec:chess", "'codec:chess': only rules and codec take a game, one of "),
                        ("stats:othello", "'stats:othello': only rules and codec take a game"),
                        ("codecs", "unknown target 'codecs' (known: stats, tally, rules, codec")):
        done = runner(bad, "--report-only")
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.splitlines()[-1].startswith(
            f"python -m tests.mutation.runner: error: argument TARGET: {reason}")


def test_mutation_report_counts_each_target_and_names_unexplained_survivors(capsys):
    from tests.mutation.runner import EQUIVALENT, report
    equivalent, reason = next(iter(EQUIVALENT.items()))
    rows = [("stats", "tools.stats.elo__mutmut_1", "killed"),
            ("stats", "tools.stats.elo__mutmut_2", "survived"),
            ("stats", equivalent, "survived"),
            ("stats", "tools.stats.elo__mutmut_3", "timeout"),
            ("tally", "tools.arena.tally.cell__mutmut_1", "not checked"),
            ("tally", "tools.arena.tally.cell__mutmut_2", "no tests")]
    assert report(rows) == 3             # two unexplained survivors and one mutant not checked
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "stats: 4 mutants: 2 survived, 1 killed, 1 timeout"
    assert f"  equivalent  {equivalent}: {reason}" in lines
    assert "  survived    tools.stats.elo__mutmut_2   (mutmut show tools.stats.elo__mutmut_2)" in lines
    assert "tally: 2 mutants: 1 not checked, 1 no tests" in lines
    assert "  1 not checked: run python -m tests.mutation.runner tally" in lines
    assert "  no tests    tools.arena.tally.cell__mutmut_2   (mutmut show tools.arena.tally.cell__mutmut_2)" in lines
    assert lines[-1] == "unexplained survivors: 2; not checked: 1"
    assert report([("stats", "tools.stats.elo__mutmut_1", "killed")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "unexplained survivors: 0"


def test_mutation_without_mutmut_says_how_to_install_it(tmp_path):
    if shutil.which("mutmut", path=str(Path(sys.executable).parent)) or shutil.which("mutmut"):
        pytest.skip("mutmut is installed here")
    done = runner("stats", "--report-only", env={**os.environ, "PATH": str(tmp_path)})
    assert done.returncode == 1
    assert done.stderr.strip() == ("python -m tests.mutation.runner: mutmut is not installed; "
                                   "pip install -e '.[mutation]' (or: pip install mutmut)")
