"""``botarena ladder``: the folder (config, bots, lock), the run (resume, bots joining, no game
twice), the table, bad input; real processes for SIGKILL and a bot added from another terminal."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.tools.test_bad_input import run_in_process
from tools.arena.results import record_key
from tools.cli.ladder import parse_duration
from tools.ladder.folder import LadderFolder
from tools.ladder.run import Book, LadderRun

CALM = ("--first-turn-ms", "30000", "--turn-ms", "30000")
SLOW_BOT = """\
import sys, time
while True:
    if not sys.stdin.readline():
        break
    cells = [sys.stdin.readline().strip() for _ in range(int(sys.stdin.readline()))]
    time.sleep(0.1)
    print(cells[0], flush=True)
"""


def _ladder(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """``botarena ladder FOLDER ARGS`` in a forked copy of this process (fast)."""
    argv = ["ladder", str(folder), *args]
    status, out, err = run_in_process(*argv)
    return subprocess.CompletedProcess(argv, status, out, err)


def _records(folder: Path) -> list[dict]:
    path = folder / "results.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.fixture
def ladder(tmp_path) -> Path:
    """A tictactoe ladder of two random bots (seeded: the same games each time)."""
    folder = tmp_path / "ladder"
    assert _ladder(folder, "init", "tictactoe", "--seed", "3", *CALM).returncode == 0
    for name, bot in (("one", "random --seed 1"), ("two", "random --seed 2")):
        done = _ladder(folder, "add", name, bot)
        assert done.returncode == 0, done.stderr
    return folder


def _run_settings(folder: Path):
    import dataclasses
    return dataclasses.replace(LadderFolder(folder).settings(), jobs=1, quiet=True)


def test_init_add_run_show_list_remove(ladder, tmp_path):
    script = tmp_path / "mine.py"
    script.write_text(SLOW_BOT.replace("time.sleep(0.1)", "pass"))
    done = _ladder(ladder, "add", "mine", str(script))
    assert done.returncode == 0 and "kept as 'bots/mine/mine.py'" in done.stdout
    script.write_text("raise SystemExit(1)\n")        # the user edits it: the ladder kept its copy
    done = _ladder(ladder, "run", "-n", "8", "--jobs", "2", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "8 games played this run" in done.stdout
    records = _records(ladder)
    assert len(records) == 8 and len({record_key(r) for r in records}) == 8
    assert not any(player.get("fault") for r in records for player in r["players"])
    table = json.loads(_ladder(ladder, "show", "--json").stdout)
    assert table["games"] == 8 and table["newest"] == "mine"
    assert [entry["rank"] for entry in table["ratings"]] == [1, 2, 3]
    assert {entry["bot"] for entry in table["ratings"] if entry["newest"]} == {"mine"}
    assert sum(entry["games"] for entry in table["ratings"]) == 16
    text = _ladder(ladder, "show").stdout
    assert "mine *" in text and "wins of row vs column" in text
    one = json.loads(_ladder(ladder, "show", "--bot", "one", "--json").stdout)
    assert {row["opponent"] for row in one["opponents"]} == {"two", "mine"}
    assert sum(row["games"] for row in one["opponents"]) == one["games"]
    assert "Elo difference" in _ladder(ladder, "show", "--bot", "one").stdout
    assert _ladder(ladder, "remove", "mine").returncode == 0
    table = json.loads(_ladder(ladder, "show", "--json").stdout)
    assert {entry["bot"] for entry in table["ratings"]} == {"one", "two"}
    assert table["results"] == 8, "a removed bot's games stay in the file"
    listing = json.loads(_ladder(ladder, "list", "--json").stdout)["bots"]
    assert [(bot["name"], bot["removed"]) for bot in listing] == [
        ("one", False), ("two", False), ("mine", True)]


@pytest.mark.parametrize("args, message", [
    (["init", "tictactoe"], "holds a ladder already"),
    (["add", "one", "random"], "was added already"),
    (["add", "bad name", "random"], "bot name 'bad name'"),
    (["add", "three", "./no_such_bot"], "no file './no_such_bot'"),
    (["add", "three", "nonsense_bot"], "unknown bot"),
    (["remove", "nobody"], "no bot 'nobody'"),
    (["run", "--for", "soon"], "--for 'soon'"),
    (["run", "-n", "0"], "-n 0"),
    (["show", "--bot", "nobody"], "no bot 'nobody'"),
])
def test_bad_input_is_one_line_and_exit_2(ladder, args, message):
    done = _ladder(ladder, *args)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and message in done.stderr, done.stderr


def test_a_folder_that_is_no_ladder(tmp_path):
    done = _ladder(tmp_path / "none", "show")
    assert done.returncode == 2 and "is not a ladder" in done.stderr
    done = _ladder(tmp_path / "solo", "init", "number_maze")
    assert done.returncode == 0
    done = _ladder(tmp_path / "solo", "run", "-n", "2")
    assert done.returncode == 2 and "single-player game" in done.stderr


def test_durations():
    assert parse_duration("90") == 90 and parse_duration("90s") == 90
    assert parse_duration("10m") == 600 and parse_duration("1h30m") == 5400
    for text in ("", "m", "1d", "0s"):
        with pytest.raises(Exception, match="--for"):
            parse_duration(text)


def test_a_second_run_is_refused_in_one_line(ladder):
    with LadderFolder(ladder).run_lock():
        done = _ladder(ladder, "run", "-n", "2")
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
        assert "is running already (process " in done.stderr and str(os.getpid()) in done.stderr
        shown = json.loads(_ladder(ladder, "show", "--json").stdout)
        assert shown["running"] == os.getpid()
    assert LadderFolder(ladder).running() is None
    assert _records(ladder) == [], "the refused run played nothing"


def test_a_unit_cut_short_is_completed_first_on_its_seed(ladder):
    assert _ladder(ladder, "run", "-n", "3", "--jobs", "1").returncode == 0
    records = _records(ladder)
    assert [record_key(r)[0] for r in records] == [0, 0, 1], "seat-swapped pairs, in order"
    book = Book()
    for record in records:
        book.add(record)
    assert list(book.unfinished({"one", "two"})) == [(1, [tuple(reversed(records[2]["seats"]))])]
    assert _ladder(ladder, "run", "-n", "1", "--jobs", "1").returncode == 0
    last = _records(ladder)[-1]
    assert last["pair"] == 1 and last["seats"] == list(reversed(records[2]["seats"]))
    assert last["seed"] == records[2]["seed"]
    assert _ladder(ladder, "run", "-n", "2", "--jobs", "1").returncode == 0
    assert [record_key(r)[0] for r in _records(ladder)[4:]] == [2, 2], "new pairs past the file's"


def test_a_bot_added_during_a_run_joins_at_its_next_game(ladder):
    run = LadderRun(LadderFolder(ladder), _run_settings(ladder))
    jobs = run.jobs()
    first = next(jobs)
    assert set(first.seats) == {"one", "two"}
    assert _ladder(ladder, "add", "new", "random --seed 3").returncode == 0
    second = next(jobs)
    assert second.pair == first.pair and set(second.seats) == {"one", "two"}, "its pair first"
    assert "new" in next(jobs).seats, "the newcomer, with no games yet, plays next"


def test_a_removed_bot_plays_no_new_game(ladder):
    assert _ladder(ladder, "add", "three", "random --seed 3").returncode == 0
    run = LadderRun(LadderFolder(ladder), _run_settings(ladder))
    jobs = run.jobs()
    next(jobs)
    assert _ladder(ladder, "remove", "three").returncode == 0
    later = [next(jobs) for _ in range(6)]
    assert all("three" not in job.seats for job in later)


# -- real processes: SIGKILL, another terminal ------------------------------------------------

def _start_run(folder: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tools.cli", "ladder", str(folder), "run",
                             *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def _wait_for(condition, seconds: float = 120) -> None:
    """Poll ``condition`` (a guard against a hang, not a timing the test relies on)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.05)


@pytest.mark.full
def test_sigkill_mid_game_then_resume_loses_and_repeats_no_game(ladder, tmp_path):
    slow = tmp_path / "slow.py"
    slow.write_text(SLOW_BOT)
    assert _ladder(ladder, "add", "slow", str(slow)).returncode == 0
    process = _start_run(ladder, "--jobs", "2", "--quiet")
    try:
        _wait_for(lambda: len(_records(ladder)) >= 3)
    finally:
        process.send_signal(signal.SIGKILL)
        process.communicate()
    before = (ladder / "results.jsonl").read_bytes()
    kept = [json.loads(line) for line in before.splitlines(keepends=True) if line.endswith(b"\n")]
    done = _ladder(ladder, "run", "-n", "6", "--jobs", "2", "--quiet")
    assert done.returncode == 0, done.stderr
    after = _records(ladder)
    assert after[:len(kept)] == kept, "every finished game kept, in place"
    assert len(after) == len(kept) + 6
    assert len({record_key(r) for r in after}) == len(after), "no game twice"
    table = json.loads(_ladder(ladder, "show", "--json").stdout)
    assert table["results"] == len(after)


@pytest.mark.full
def test_a_bot_added_from_another_terminal_plays_and_a_second_run_is_refused(ladder, tmp_path):
    slow = tmp_path / "slow.py"
    slow.write_text(SLOW_BOT)
    assert _ladder(ladder, "add", "slow", str(slow)).returncode == 0
    process = _start_run(ladder, "--jobs", "1", "--quiet")
    try:
        _wait_for(lambda: len(_records(ladder)) >= 1)
        second = _ladder(ladder, "run", "-n", "1")
        assert second.returncode == 2 and "is running already" in second.stderr
        assert _ladder(ladder, "add", "late", "random --seed 9").returncode == 0
        _wait_for(lambda: any("late" in r["seats"] for r in _records(ladder)))
    finally:
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=120)
    assert process.returncode == 130
    assert "late" in out and "stopped (run again to go on)" in out
    records = _records(ladder)
    assert len({record_key(r) for r in records}) == len(records)


def test_a_bot_without_games_has_no_score_yet(ladder):
    """A bot just added has the fit's prior (Elo about 0), not a score of 50 % it never played."""
    assert _ladder(ladder, "add", "new", "random --seed 4").returncode == 0
    table = json.loads(_ladder(ladder, "show", "--json").stdout)
    assert [entry["score"] for entry in table["ratings"]] == [None, None, None]
    row = next(line for line in _ladder(ladder, "show").stdout.splitlines() if " new *" in line)
    assert row.split()[-2:] == ["-", "-"], row              # score, faults
    assert json.loads(_ladder(ladder, "show", "--bot", "new", "--json").stdout)["score"] is None
    assert _ladder(ladder, "show", "--bot", "new").stdout.splitlines()[1].endswith(", 0 games")


def test_list_says_which_bot_is_the_newest_and_which_are_removed(ladder):
    """list marked the newest bot with a bare '*' that nothing on its page explained."""
    assert _ladder(ladder, "add", "three", "random --seed 5").returncode == 0
    assert _ladder(ladder, "remove", "one").returncode == 0
    lines = _ladder(ladder, "list").stdout.splitlines()
    assert lines[0].endswith("random --seed 1 (removed)") and lines[1].endswith("random --seed 2")
    assert lines[2].endswith("random --seed 5 (newest)")


def test_a_python_bot_with_a_syntax_error_is_refused_when_added(ladder, tmp_path):
    """It would crash on its first line in every game the scheduler gave it: one line now, as
    for a C++ bot that does not compile, and nothing kept."""
    script = tmp_path / "typo.py"
    script.write_text("import sys\ndef main(:\n    pass\n")
    done = _ladder(ladder, "add", "typo", str(script))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"botarena: bot {str(script)!r} has a syntax error (typo.py "
                                  "line 2: ")                 # then Python's own words
    assert done.stderr.endswith("): fix it and add it again\n") and done.stderr.count("\n") == 1
    assert not (ladder / "bots" / "typo").exists()
    assert "typo" not in (ladder / "bots.jsonl").read_text()
