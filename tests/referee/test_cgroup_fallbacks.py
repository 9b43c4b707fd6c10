"""referee/harness/cgroup.py's fallbacks, on real processes: a kernel without ``cgroup.kill``, a cgroup
already gone, and the search for what a bot started before it was moved when many pids (or a
wrap at pid_max) came between. A plain folder stands in for a cgroup where the kernel's own
files are not the point (its ``cgroup.procs`` lists real pids)."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from referee.harness import cgroup

SLEEP = [sys.executable, "-S", "-c", "import time; time.sleep(60)"]


def _reaped(process: subprocess.Popen) -> bool:
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        return False
    return True


def test_without_cgroup_kill_every_listed_process_is_killed_one_by_one(tmp_path):
    sleepers = [subprocess.Popen(SLEEP) for _ in range(2)]
    try:
        (tmp_path / "cgroup.kill").mkdir()                      # cannot be written: an old kernel
        (tmp_path / "cgroup.procs").write_text("".join(f"{p.pid}\n" for p in sleepers))
        group = cgroup.BotCgroup(str(tmp_path))
        assert group.pids() == [p.pid for p in sleepers]
        group.kill()
        assert all(_reaped(p) for p in sleepers)
    finally:
        for process in sleepers:
            process.kill()
            process.wait()


def test_a_cgroup_gone_or_unreadable_is_empty_and_removed_quietly(tmp_path):
    gone = cgroup.BotCgroup(str(tmp_path / "bot.9"))
    assert gone.pids() == [] and gone.wait_empty() is True
    gone.remove()                                               # nothing to remove: no error
    (tmp_path / "bot.8").mkdir()
    (tmp_path / "bot.8" / "cgroup.procs").write_text("not a pid\n")
    assert cgroup.BotCgroup(str(tmp_path / "bot.8")).pids() == []


def test_a_run_folder_that_cannot_hold_a_bot_cgroup_turns_cgroups_off(monkeypatch, tmp_path):
    monkeypatch.setattr(cgroup, "_unavailable", False)
    monkeypatch.setattr(cgroup, "run_folder", lambda: str(tmp_path / "missing"))
    assert cgroup.bot_cgroup(os.getpid()) is None
    assert cgroup._unavailable is True


def _parent_with_child() -> tuple[subprocess.Popen, int]:
    """A process that started a child (its pid printed), both sleeping."""
    parent = subprocess.Popen([sys.executable, "-S", "-c",
                               "import subprocess, sys, time\n"
                               f"child = subprocess.Popen({SLEEP!r})\n"
                               "print(child.pid, flush=True)\ntime.sleep(60)"],
                              stdout=subprocess.PIPE, text=True)
    return parent, int(parent.stdout.readline())


@pytest.mark.parametrize("wrapped", [False, True], ids=["many pids", "wrapped at pid_max"])
def test_children_started_before_the_move_are_found_past_many_pids(monkeypatch, wrapped):
    parent, child = _parent_with_child()
    try:
        # the last pid the kernel gave: far past the bot (the /proc listing), or "wrapped" to a
        # number below it, so everything above the bot counts as started after it
        last = child + cgroup._FEW_PIDS + 1000 if not wrapped else 1
        monkeypatch.setattr(cgroup, "_last_pid", lambda: last)
        assert child in cgroup._started_before_the_move(parent.pid, b"")
    finally:
        parent.kill()
        parent.wait()
        os.kill(child, 9)


def test_a_marked_process_that_left_the_bot_is_found_and_an_unmarked_one_is_not(monkeypatch):
    marked = subprocess.Popen(SLEEP, env={**os.environ, "BOTARENA_BOT": "test.1"})
    unmarked = subprocess.Popen(SLEEP)
    try:
        time.sleep(0.1)                                         # both have exec'd
        bot = min(marked.pid, unmarked.pid) - 1
        monkeypatch.setattr(cgroup, "_last_pid", lambda: max(marked.pid, unmarked.pid))
        found = cgroup._started_before_the_move(bot, b"BOTARENA_BOT=test.1")
        assert marked.pid in found and unmarked.pid not in found
    finally:
        for process in (marked, unmarked):
            process.kill()
            process.wait()
