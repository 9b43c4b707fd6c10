"""Shared fixtures: the project root, the Python that runs bots, a CLI runner."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args: str, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    """Run ``botarena ARGS`` in a real subprocess; returns the completed process (text)."""
    return subprocess.run([sys.executable, "-m", "tools.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, **kwargs)


@pytest.fixture
def cli():
    return run_cli


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", help="also run tests marked slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
