"""The guardian process on its own: what it kills when its pipe ends, and what it spares.

The harness starts it as ``python -I -S referee/harness/guardian.py`` (no site: nothing else loaded);
here it is started without ``-S``, so the coverage run measures it too, and fed its pipe by
hand: ``+PGID`` for a bot's group, ``-PGID`` when that bot is gone.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time

from referee.harness.process_tree import MARKER_VARIABLE
from tests.conftest import ROOT

GUARDIAN = str(ROOT / "referee" / "harness" / "guardian.py")
SLEEP = [sys.executable, "-S", "-c", "import time; time.sleep(60)"]


def _sleeper(**kwargs) -> subprocess.Popen:
    return subprocess.Popen(SLEEP, stdin=subprocess.DEVNULL, **kwargs)


def _gone(process: subprocess.Popen, timeout: float = 10) -> bool:
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        return False
    return True


def _guardian(harness_pid: str, *lines: str, folder: str = "") -> subprocess.CompletedProcess:
    """Run the guardian until the end of its pipe: ``lines`` written, then closed."""
    return subprocess.run([sys.executable, GUARDIAN, harness_pid, folder], input="".join(lines).encode(),
                          capture_output=True, timeout=30)


def test_at_the_end_of_its_pipe_it_kills_the_groups_still_watched():
    watched, forgotten = _sleeper(process_group=0), _sleeper(process_group=0)
    try:
        done = _guardian("1", f"+{watched.pid}\n", f"+{forgotten.pid}\n", "not a line\n",
                         f"-{forgotten.pid}\n")
        assert done.returncode == 0 and done.stderr == b""
        assert _gone(watched)
        time.sleep(0.2)
        assert forgotten.poll() is None           # its bot was gone: the number may be another's
    finally:
        for process in (watched, forgotten):
            process.kill()
            process.wait()


def test_it_kills_every_process_marked_with_its_harness_and_spares_the_others():
    # a bot's child that left its group (setsid) still carries the marker in its environment
    mine = _sleeper(start_new_session=True, env={**os.environ, MARKER_VARIABLE: "4242.7"})
    other = _sleeper(start_new_session=True, env={**os.environ, MARKER_VARIABLE: "4243.7"})
    try:
        assert _guardian("4242").returncode == 0
        assert _gone(mine)
        assert other.poll() is None
    finally:
        for process in (mine, other):
            process.kill()
            process.wait()


def test_a_watched_line_split_across_writes_is_read_whole():
    reader, writer = os.pipe()
    watched = _sleeper(process_group=0)
    try:
        guardian = subprocess.Popen([sys.executable, GUARDIAN, "1", ""], stdin=reader)
        os.close(reader)
        line = f"+{watched.pid}\n".encode()
        os.write(writer, line[:2])
        time.sleep(0.2)                           # the guardian reads the first half alone
        os.write(writer, line[2:])
        os.close(writer)
        assert guardian.wait(30) == 0
        assert _gone(watched)
    finally:
        watched.kill()
        watched.wait()


def test_it_kills_the_run_cgroup_and_removes_its_bot_folders(tmp_path):
    # outside cgroupfs the kill file is a plain file (so the run folder itself stays, not
    # empty, and the guardian gives up on it after its 2 s): what is checked is the kill
    # written and the bot folders removed
    folder = tmp_path / "botarena.1"
    (folder / "bot.1").mkdir(parents=True)
    (folder / "bot.2").mkdir()
    assert _guardian("1", folder=str(folder)).returncode == 0
    assert (folder / "cgroup.kill").read_text() == "1"
    assert sorted(path.name for path in folder.iterdir()) == ["cgroup.kill"]
