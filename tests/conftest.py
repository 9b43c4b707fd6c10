"""Shared fixtures: the project root, the Python that runs bots, a CLI runner."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tiers import TIER_VARIABLE, second_tier

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args: str, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    """Run ``botarena ARGS`` in a real subprocess; returns the completed process (text)."""
    return subprocess.run([sys.executable, "-m", "tools.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, **kwargs)


def skip_when_traced() -> None:
    """Skip a test that fires a game's watchdog when a tracer runs (the coverage run).

    The watchdog's asynchronous exception can land between a lock's acquire and its ``with``
    block, which tracing makes likely: the lock is never released and the test hangs for good
    (seen under coverage, past pytest-timeout's signal too). Issue 17, section 3."""
    if sys.gettrace() is not None:
        pytest.skip("fires the watchdog: does not run under a tracer (coverage); run it plainly")


@pytest.fixture
def cli():
    return run_cli


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", help="also run tests marked slow")
    parser.addoption("--full", action="store_true",
                     help="also run the second tier: tests marked full (bash tools/quickstart.sh test --all)")


def pytest_configure(config):
    """Before the test files are imported: which tier runs, for tests.tiers.examples (property
    tests draw all their examples in the second tier, a quarter in the first alone)."""
    os.environ[TIER_VARIABLE] = "all" if config.getoption("--full") else "first"


def pytest_collection_modifyitems(config, items):
    """The tiers: the first (the README's test command) runs every test not marked ``full``;
    ``--full`` adds the second tier (long process checks, every compiler, the browser, the
    cluster, documentation tables); ``--runslow`` the hand-run tables of hours."""
    skips = []
    if not config.getoption("--full"):
        skips.append(("full", pytest.mark.skip(reason="full tier: bash tools/quickstart.sh test --all")))
    if not config.getoption("--runslow"):
        skips.append(("slow", pytest.mark.skip(reason="slow: run with --runslow")))
    for item in items:
        if "full" not in item.keywords and second_tier(item.nodeid):
            item.add_marker(pytest.mark.full)
        for keyword, skip in skips:
            if keyword in item.keywords:
                item.add_marker(skip)


def pytest_terminal_summary(terminalreporter):
    """One line per optional part whose tests were skipped (a browser, bwrap, Dask...), so a
    skip is named, never silent: tests skip with a reason starting "optional: "."""
    reasons = set()
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
        if reason.startswith("Skipped: optional: "):
            reasons.add(reason[len("Skipped: optional: "):])
    for reason in sorted(reasons):
        terminalreporter.write_line(f"skipped: {reason}")
