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
