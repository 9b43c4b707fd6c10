"""Fixtures that several files of tests/tools use."""
from __future__ import annotations

import os

import pytest


@pytest.fixture
def crasher(tmp_path) -> str:
    """A bot that exits before its first answer: it loses every game by a crash fault."""
    path = tmp_path / "crasher.py"
    path.write_text("import sys\nsys.exit(3)\n")
    return str(path)


@pytest.fixture(scope="session")
def session_cache(tmp_path_factory):
    """One compile cache for the session's tests (each bot compiles once), for this process and
    the CLI processes it starts."""
    folder = tmp_path_factory.mktemp("compiled-cache")
    saved = os.environ.get("BOTARENA_CACHE_DIR")
    os.environ["BOTARENA_CACHE_DIR"] = str(folder)
    yield folder
    if saved is None:
        os.environ.pop("BOTARENA_CACHE_DIR", None)
    else:
        os.environ["BOTARENA_CACHE_DIR"] = saved
