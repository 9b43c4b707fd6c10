"""The referee host: one JVM plays game after game, each in a fresh class loader; a host that
dies or hangs is a referee error and is replaced; one that keeps dying is given up for one JVM
per game. The referee is our own Java stand-in for the SDK's RefereeMain
(tests/fixtures/referees/java/), so no CodinGame code is needed."""
from __future__ import annotations

import json
import shutil
import subprocess
import uuid

import pytest

from referee.external import host
from tests.referee.external.gamefiles import FIXTURES, play, processes_with, write_game_file

pytestmark = pytest.mark.skipif(shutil.which("javac") is None,
                                reason="optional: a JDK (javac) for the referee host tests")
SOURCE = FIXTURES / "java" / "com" / "codingame" / "gameengine" / "core" / "RefereeMain.java"


@pytest.fixture(scope="module")
def classes(tmp_path_factory):
    folder = tmp_path_factory.mktemp("referee-classes")
    subprocess.run(["javac", "-d", str(folder), str(SOURCE)], check=True, timeout=300)
    return folder


@pytest.fixture(autouse=True)
def own_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "cache"))
    yield
    host.close_hosts()


def _host_game(folder, classes, tag: str, name: str, timeout_ms: int = 20000):
    return write_game_file(folder, name, f"""protocol = "codingame"
players = [2, 3]
host = true
classpath = ["{classes}"]
jvm_options = ["-XX:TieredStopAtLevel=1", "-Dbotarena.test={tag}"]
referee_timeout_ms = {timeout_ms}
""")


def _metadata(result) -> dict:
    frames = result.records[-1].notes["frames"]
    return json.loads(frames[-1]["metadata"])


def _set_mode(path, mode: str) -> None:
    path.write_text(path.read_text() + f'[parameters]\nmode = "{mode}"\n')


def test_games_share_one_host_each_in_a_fresh_class_loader(tmp_path, classes):
    tag = uuid.uuid4().hex
    path = _host_game(tmp_path, classes, tag, "digits")
    for seed in range(3):
        result = play(path, [["--digit", "2"], ["--digit", "5"], ["--digit", "1"]], seed=seed)
        assert result.referee_error is None, result.referee_error
        assert [player.score for player in result.players] == [6.0, 15.0, 3.0]
        assert _metadata(result) == {"games_in_loader": 1, "in_production": True}
        assert len(processes_with(tag)) == 1          # the same host, still there
    host.close_hosts()
    assert not processes_with(tag)


def test_a_failing_game_keeps_the_host(tmp_path, classes):
    tag = uuid.uuid4().hex
    path = _host_game(tmp_path, classes, tag, "failing")
    _set_mode(path, "fail")
    result = play(path, [["--digit", "2"], ["--digit", "5"]])
    assert "failed (FAIL): java.lang.RuntimeException: told to fail at turn 2" in result.reason
    first = processes_with(tag)
    assert len(first) == 1                            # the host finished the game and waits
    result = play(path, [["--digit", "2"], ["--digit", "5"]])
    assert result.referee_error is not None
    assert [process.pid for process in processes_with(tag)] == [process.pid for process in first]


def test_a_host_that_dies_is_replaced_then_given_up_for_one_jvm_a_game(tmp_path, classes, capsys):
    tag = uuid.uuid4().hex
    path = _host_game(tmp_path, classes, tag, "exiting")
    _set_mode(path, "exit")
    for _ in range(2):
        result = play(path, [["--digit", "2"], ["--digit", "5"]])
        assert "ended before the game did" in result.reason, result.reason
        assert not processes_with(tag)               # the dead host's JVM is gone
    assert "the referee host of exiting is not used any more" in capsys.readouterr().err
    # now one JVM per game (RefereeMain's own main): System.exit there ends only that game
    result = play(path, [["--digit", "2"], ["--digit", "5"]])
    assert "ended before the game did: exited with code 7" in result.reason
    _set_mode_off = path.read_text().replace('mode = "exit"', 'mode = ""')
    path.write_text(_set_mode_off)
    result = play(path, [["--digit", "2"], ["--digit", "5"]])
    assert result.referee_error is None and _metadata(result)["games_in_loader"] == 1


def test_a_hung_host_is_ended_at_the_referee_timeout(tmp_path, classes):
    tag = uuid.uuid4().hex
    path = _host_game(tmp_path, classes, tag, "hanging", timeout_ms=3000)
    _set_mode(path, "hang")
    result = play(path, [["--digit", "2"], ["--digit", "5"]])
    assert "silent past its referee_timeout_ms" in result.reason, result.reason
    assert not processes_with(tag)
