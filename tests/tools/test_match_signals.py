"""A running ``botarena match`` killed with SIGKILL resumes exactly; SIGTERM stops it cleanly,
with the summary of what finished and no bot process left behind."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil

from tests.conftest import ROOT, run_cli

BOT_A = "random --seed 31"
BOT_B = "random --seed 32"
GAMES = "40"


def _start(out: Path, bot_a: str = BOT_A, bot_b: str = BOT_B) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tools.cli", "match", "tictactoe", bot_a, bot_b,
                             "-n", GAMES, "--seed", "17", "--jobs", "2", "--out", str(out)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for_lines(out: Path, count: int, process: subprocess.Popen, limit_s: float = 60) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if out.exists() and out.read_bytes().count(b"\n") >= count:
            return
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    raise AssertionError(f"fewer than {count} games finished in {limit_s} s")


def _keys(out: Path) -> list[tuple]:
    return [(record["pair"], tuple(record["seats"]))
            for record in map(json.loads, out.read_text().splitlines())]


def test_resume_after_sigkill_is_exact(tmp_path):
    out = tmp_path / "games.jsonl"
    process = _start(out)
    try:
        _wait_for_lines(out, 10, process)
    finally:
        process.kill()
        process.communicate(timeout=30)
    assert process.returncode == -signal.SIGKILL
    kept = out.read_bytes()
    kept = kept[:kept.rfind(b"\n") + 1]                 # the whole lines written before the kill
    killed_at = kept.count(b"\n")
    assert 10 <= killed_at < int(GAMES)

    done = run_cli("match", "tictactoe", BOT_A, BOT_B, "-n", GAMES, "--jobs", "2", "--out",
                   str(out), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == int(GAMES) and summary["seed"] == 17
    assert out.read_bytes().startswith(kept), "no finished game lost or rewritten"
    keys = _keys(out)
    assert len(keys) == len(set(keys)) == int(GAMES), "every game once, none twice"
    assert {pair for pair, _ in keys} == set(range(int(GAMES) // 2))


def test_sigterm_stops_cleanly_with_no_bot_left(tmp_path):
    out = tmp_path / "games.jsonl"
    process = _start(out, "random --seed 41", "random --seed 42")
    bots: list[psutil.Process] = []
    try:
        _wait_for_lines(out, 6, process)
        deadline = time.monotonic() + 30
        while not bots and time.monotonic() < deadline:   # catch games in flight
            bots = [child for child in psutil.Process(process.pid).children(recursive=True)
                    if "bots.tictactoe.random_bot" in " ".join(_cmdline(child))]
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert bots, "bots were running when the signal came"
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "interrupted:" in stdout and "run the same command again to resume" in stdout
    finished = out.read_bytes().count(b"\n")
    assert f"{finished} games" in stdout.splitlines()[0], "the summary counts what finished"
    time.sleep(0.2)
    alive = [bot for bot in bots if _alive(bot)]
    assert not alive, f"bot processes left behind: {alive}"
    assert not _bots_with_seeds("--seed 41", "--seed 42")


def _cmdline(process: psutil.Process) -> list[str]:
    try:
        return process.cmdline()
    except psutil.Error:
        return []


def _alive(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _bots_with_seeds(*marks: str) -> list[psutil.Process]:
    """Bot processes anywhere with this test's seeds (an orphan is re-parented, so search all)."""
    found = []
    for candidate in psutil.process_iter(["cmdline"]):
        line = " ".join(candidate.info["cmdline"] or [])
        if "bots.tictactoe.random_bot" in line and any(line.endswith(mark) for mark in marks):
            if _alive(candidate):
                found.append(candidate)
    return found
