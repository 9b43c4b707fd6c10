"""The stage runner behind the README's test command (tests/stages.py)."""
from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT
from tests.stages import STAGES, all_test_files, files_by_stage
from tests.tiers import SECOND_TIER


def test_every_test_file_runs_in_exactly_one_stage():
    grouped = files_by_stage()
    placed = [path for files in grouped.values() for path in files]
    assert sorted(placed) == all_test_files()
    assert len(placed) == len(set(placed))
    assert all(grouped[stage.name] for stage in STAGES), "a stage with no files"


def test_the_readme_test_command_runs_the_stages():
    script = (ROOT / "tools" / "quickstart.sh").read_text()
    assert "-m tests.stages" in script


def test_an_unknown_stage_is_one_line_and_exit_2():
    done = subprocess.run([sys.executable, "-m", "tests.stages", "--stage", "nope"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "unknown stage 'nope'" in done.stderr


def test_every_second_tier_entry_names_a_test():
    """A renamed test would silently come back to the first tier: each entry must match."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-o", "addopts=",
                           "-p", "no:cacheprovider", "tests"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    assert len(ids) > 1000, done.stdout[-2000:]
    stale = [prefix for prefixes in SECOND_TIER.values() for prefix in prefixes
             if not any(nodeid.startswith(prefix) for nodeid in ids)]
    assert not stale, stale


def test_a_named_test_file_runs_alone_in_plain_pytest():
    """`quickstart.sh test FILE` (README): that file once, not appended to every stage's files."""
    done = subprocess.run([sys.executable, "-m", "tests.stages", "tests/tools/test_tally.py",
                           "-p", "no:cacheprovider"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:]
    assert "[1/" not in done.stdout                     # no stage lines
    collected = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-o", "addopts=",
                                "-p", "no:cacheprovider", "tests/tools/test_tally.py"], cwd=ROOT,
                               capture_output=True, text=True, timeout=300)
    count = sum("::" in line for line in collected.stdout.splitlines())
    assert f"{count} passed" in done.stdout
