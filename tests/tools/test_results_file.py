"""The results file of ``match`` (``--out``), abused: two runs at once, files that are not ours,
devices, conflicting and malformed records, lines without end. Real CLI processes throughout."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli

RANDOM = "random --seed 1"
CALM = ("--first-turn-ms", "30000", "--turn-ms", "30000")


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def _keys(path: Path) -> list[tuple]:
    return [(record["pair"], tuple(record["seats"])) for record in map(json.loads, _lines(path))]


@pytest.fixture
def slow_bot(tmp_path) -> str:
    """A tictactoe bot taking the first valid cell after 0.1 s: a run lasts long enough to start
    another (or to delete this file) in the middle."""
    path = tmp_path / "slow.py"
    path.write_text("import sys, time\n"
                    "while True:\n"
                    "    if not sys.stdin.readline():\n"     # the opponent's last move
                    "        break\n"
                    "    cells = [sys.stdin.readline().strip() for _ in range(int(input()))]\n"
                    "    time.sleep(0.1)\n"
                    "    print(cells[0], flush=True)\n")
    return str(path)


def _start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tools.cli", "match", "tictactoe", *args, *CALM,
                             "--json", "--jobs", "1"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_two_runs_on_one_file_lose_no_game(tmp_path, slow_bot):
    """B starts while A is writing: B waits for A's lock, then reads all of A's games and plays
    only the rest. (Reading before locking lost A's later games, or played them twice.)"""
    out = tmp_path / "games.jsonl"
    first = _start("random", slow_bot, "-n", "6", "--seed", "2", "--out", str(out))
    deadline = time.monotonic() + 60
    while (not out.exists() or not out.read_text()) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert out.read_text(), "A wrote its first game"
    second = _start("random", slow_bot, "-n", "10", "--out", str(out))
    while out.read_bytes().count(b"\n") < 6 and time.monotonic() < deadline:
        time.sleep(0.01)
    written_by_first = out.read_bytes()     # B cannot write before A exits: A's six games
    first_out, first_err = first.communicate(timeout=120)
    second_out, second_err = second.communicate(timeout=120)
    assert first.returncode == 0, first_err
    assert second.returncode == 0, second_err
    assert json.loads(first_out)["games"] == 6
    assert "in use by another botarena run; waiting" in second_err
    assert json.loads(second_out)["games"] == 10
    keys = _keys(out)
    assert len(keys) == len(set(keys)) == 10, "every game once: none lost, none played twice"
    assert out.read_bytes().startswith(written_by_first), "A's games kept as A wrote them"
    assert not any(player["fault"] for line in _lines(out) for player in json.loads(line)["players"])


@pytest.mark.parametrize("content", ["hello", "notes\nmore notes\n", '{"a": 1}\n'])
def test_a_file_that_is_not_a_results_file_is_left_alone(tmp_path, content):
    out = tmp_path / "notes.txt"
    out.write_text(content)
    done = run_cli("match", "tictactoe", "random", RANDOM, "-n", "2", "--out", str(out))
    assert done.returncode == 2, done.stderr
    assert "line 1 is not a botarena results line" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert out.read_text() == content


def test_a_game_cut_off_as_the_first_line_is_dropped(tmp_path):
    out = tmp_path / "games.jsonl"
    out.write_text('{"game":"tictactoe","se')
    done = run_cli("match", "tictactoe", "random", RANDOM, "-n", "2", "--out", str(out), *CALM)
    assert done.returncode == 0, done.stderr
    assert "truncated" in done.stderr and len(_lines(out)) == 2


def _special_file(tmp_path: Path, target: str) -> str:
    """A FIFO, or a link to a device: a bug then replaces the link, never the device (as root)."""
    path = tmp_path / "special"
    if target == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(target)
    return str(path)


@pytest.mark.parametrize("target", ["/dev/full", "/dev/zero", "/dev/null", "fifo", "/dev/stdout"])
def test_anything_but_a_regular_file_is_refused(tmp_path, target):
    target = _special_file(tmp_path, target)
    done = run_cli("match", "tictactoe", "random", RANDOM, "-n", "2", "--out", target, timeout=30)
    assert done.returncode == 2, done.stderr
    assert "not a regular file" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert done.stdout == ""


def test_an_endless_line_is_an_error_naming_it(tmp_path):
    out = tmp_path / "games.jsonl"
    _match_into(out, "-n", "2")
    with out.open("a") as handle:
        handle.write('{"game":"tictactoe",' + "x" * (5 << 20) + "\n")
    done = run_cli("match", "tictactoe", "random", RANDOM, "-n", "2", "--out", str(out), *CALM)
    assert done.returncode == 2 and "line 3 is longer than 4 MB" in done.stderr


def _match_into(out: Path, *args: str) -> dict:
    done = run_cli("match", "tictactoe", "random", RANDOM, "--seed", "3", "--out", str(out), *args,
                   *CALM, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_game_recorded_twice_with_different_results_is_reported(tmp_path):
    out = tmp_path / "games.jsonl"
    _match_into(out, "-n", "2")
    first = json.loads(_lines(out)[0])
    twin = dict(first, players=[dict(player, rank=1 - player["rank"]) for player in first["players"]])
    twin["players"][0]["score"] += 1
    with out.open("a") as handle:
        handle.write(json.dumps(first) + "\n" + json.dumps(twin) + "\n")
    done = run_cli("match", "tictactoe", "random", RANDOM, "-n", "2", "--out", str(out), *CALM,
                   "--json")
    assert done.returncode == 0, done.stderr
    assert "1 game(s) recorded again with a different result, at line 4" in done.stderr
    assert json.loads(done.stdout)["games"] == 2, "each game counted once"


@pytest.mark.parametrize("change", [
    {"pair": {"a": 1}}, {"players": None}, {"players": [{}]}, {"seats": "ab"}, {"pair": True},
    {"players": [{"rank": 0, "score": 1, "fault": "x"}, {"rank": 1, "score": 0, "fault": None}]},
    {"latencies_ms": [["x"], []]}, {"seed": "1"},
])
def test_a_malformed_line_with_the_right_stamp_is_one_line(tmp_path, change):
    out = tmp_path / "games.jsonl"
    _match_into(out, "-n", "2")
    record = json.loads(_lines(out)[1])
    record.update(change)
    if change.get("players") is None and "players" in change:
        del record["players"]
    out.write_text(_lines(out)[0] + "\n" + json.dumps(record) + "\n")
    before = out.read_bytes()
    done = run_cli("match", "tictactoe", "random", RANDOM, "-n", "4", "--out", str(out), *CALM)
    assert done.returncode == 2, done.stderr
    assert "line 2 is not a botarena results line" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert out.read_bytes() == before


def test_an_empty_out_is_refused():
    done = run_cli("match", "tictactoe", "random", RANDOM, "-n", "2", "--out", "")
    assert done.returncode == 2 and "--out ''" in done.stderr


# -- the other files: replays read and written --------------------------------------------------

@pytest.mark.parametrize("target", ["/dev/zero", "fifo", "directory", "huge"])
def test_a_replay_that_is_not_a_bounded_regular_file_is_one_line(tmp_path, target):
    path = tmp_path / target
    if target == "directory":
        path.mkdir()
    elif target == "huge":
        with path.open("wb") as handle:
            handle.truncate(65 << 20)              # sparse: 65 MB of zero bytes
    else:
        path = _special_file(tmp_path, target)
    done = run_cli("replay", str(path), "--verify", timeout=30)
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


@pytest.mark.parametrize("command", [("play", "tictactoe", "random", "random", "--replay"),
                                     ("replay", "missing.json", "--out")])
@pytest.mark.parametrize("target", ["", "/dev/full", "fifo"])
def test_an_output_file_that_is_empty_or_a_device_is_refused(tmp_path, command, target):
    done = run_cli(*command, target and _special_file(tmp_path, target), timeout=30)
    assert done.returncode == 2, done.stderr
    assert ("give a file name" in done.stderr) and len(done.stderr.strip().splitlines()) == 1


# -- a bot that cannot start: a set-up error, not games lost by crashes ---------------------------

def test_a_bot_file_deleted_mid_match_stops_the_run_and_keeps_its_games(tmp_path, slow_bot):
    out = tmp_path / "games.jsonl"
    args = ("random", slow_bot, "-n", "10", "--seed", "4", "--out", str(out))
    run = _start(*args)
    deadline = time.monotonic() + 60
    while (not out.exists() or out.read_text().count("\n") < 2) and time.monotonic() < deadline:
        time.sleep(0.02)
    source = Path(slow_bot).read_text()
    Path(slow_bot).unlink()
    stdout, stderr = run.communicate(timeout=120)
    assert run.returncode == 2, stderr
    assert stderr.count("\n") == 1 and f"cannot start bot {slow_bot!r}" in stderr
    assert "is gone" in stderr and "run the same command again" in stderr
    records = [json.loads(line) for line in _lines(out)]
    assert 2 <= len(records) < 10
    assert all(player["fault"] is None for record in records for player in record["players"]), records
    Path(slow_bot).write_text(source)
    resumed = _start(*args)
    stdout, stderr = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, stderr
    assert json.loads(stdout)["games"] == 10 and len(_lines(out)) == 10


def test_a_bot_that_cannot_be_executed_is_named_and_nothing_is_counted(tmp_path):
    program = tmp_path / "bot"
    program.write_text("#!/bin/sh\necho 0 0\n")          # no execute permission
    out = tmp_path / "games.jsonl"
    done = run_cli("match", "tictactoe", "random", str(program), "-n", "4", "--out", str(out), *CALM)
    assert done.returncode == 2, done.stderr
    assert f"cannot start bot {str(program)!r}" in done.stderr and "not executable" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not _lines(out)
