"""The Java stand-in referee (tests/fixtures/referees/java/), compiled once per test session,
and a test session's own cache for the referee host (compiled once per session too)."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from referee.external import host
from tests.referee.external.gamefiles import JAVA_REFEREE


@pytest.fixture(scope="session")
def java_referee_classes(tmp_path_factory):
    """The folder of the stand-in's RefereeMain.class (skips without a JDK)."""
    if shutil.which("javac") is None:
        pytest.skip("optional: a JDK (javac) for the referee host tests")
    folder = tmp_path_factory.mktemp("referee-classes")
    subprocess.run(["javac", "-d", str(folder), str(JAVA_REFEREE)], check=True, timeout=300)
    return folder


@pytest.fixture
def host_cache(tmp_path_factory, monkeypatch):
    """The referee host compiled into this session's cache; every host ended after the test."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "cache"))
    yield
    host.close_hosts()
