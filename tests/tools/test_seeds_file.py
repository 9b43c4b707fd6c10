"""``--seeds FILE`` on match, league, sweep and tune: the games are played on exactly the file's
seeds (CodinGame's: big, negative), each in both seat orders; a bad line is one line naming it."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from referee.api import UsageError
from tests.conftest import run_cli
from tools.arena.seeds import parse_seed_line, read_seeds

SEEDS = [-2634497367583446500, 42, 9223372036854775807, -9223372036854775808]
FILE = """\
# seeds from CodinGame replays
-2634497367583446500
seed=42

9223372036854775807   # the largest Java long
  SEED = -9223372036854775808
"""
QUICK = ("--quiet", "--jobs", "1")


@pytest.fixture
def seeds_file(tmp_path) -> Path:
    path = tmp_path / "seeds.txt"
    path.write_text(FILE)
    return path


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_seeds_file_is_read_in_order_comments_and_blanks_skipped(seeds_file):
    assert read_seeds(str(seeds_file)).seeds == tuple(SEEDS)
    assert [parse_seed_line(text) for text in ("", "  # note", "+7", "seed=-3 # x")] == \
        [None, None, 7, -3]


@pytest.mark.parametrize("text, line, reason", [
    ("1\n2\nabc\n", 3, "'abc' is not a seed (not a whole number"),
    ("1.5\n", 1, "'1.5' is not a seed"),
    ("1 2\n", 1, "'1 2' is not a seed"),
    ("9223372036854775808\n", 1, "'9223372036854775808' is not a seed (outside the signed 64-bit"),
])
def test_a_bad_line_is_named_with_its_number(tmp_path, text, line, reason):
    path = tmp_path / "seeds.txt"
    path.write_text(text)
    with pytest.raises(UsageError, match=re.escape(f"line {line}: {reason}")):
        read_seeds(str(path))


def test_match_plays_each_seed_in_both_seat_orders(seeds_file, tmp_path):
    out = tmp_path / "games.jsonl"
    done = run_cli("match", "tictactoe", "random", "mcts --iterations 4", "--seeds",
                   str(seeds_file), "--out", str(out), *QUICK)
    assert done.returncode == 0, done.stderr
    assert f"seeds {seeds_file} (4)" in done.stdout
    played = sorted((record["pair"], tuple(record["seats"]), record["seed"])
                    for record in _records(out))
    assert played == sorted((pair, seats, seed) for pair, seed in enumerate(SEEDS)
                            for seats in (("random", "mcts --iterations 4"),
                                          ("mcts --iterations 4", "random")))
    # -n caps the games (the first seeds) or goes round the list again
    fewer = run_cli("match", "tictactoe", "random", "random", "--seeds", str(seeds_file), "-n",
                    "2", "--json", *QUICK)
    assert json.loads(fewer.stdout)["games"] == 2
    more = tmp_path / "more.jsonl"
    assert run_cli("match", "tictactoe", "random", "random", "--seeds", str(seeds_file), "-n",
                   "10", "--out", str(more), *QUICK).returncode == 0
    assert [record["seed"] for record in _records(more) if record["pair"] == 4] == [SEEDS[0]] * 2


def test_a_run_resumes_only_with_the_same_seeds(seeds_file, tmp_path):
    out = tmp_path / "games.jsonl"
    assert run_cli("match", "tictactoe", "random", "random", "--seeds", str(seeds_file),
                   "--out", str(out), *QUICK).returncode == 0
    again = run_cli("match", "tictactoe", "random", "random", "--seeds", str(seeds_file),
                    "--out", str(out), "--json", *QUICK)
    assert again.returncode == 0 and json.loads(again.stdout)["games"] == 8
    other = tmp_path / "other.txt"
    other.write_text("1\n2\n")
    refused = run_cli("match", "tictactoe", "random", "random", "--seeds", str(other),
                      "--out", str(out), *QUICK)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "was played with the --seeds list" in refused.stderr
    derived = run_cli("match", "tictactoe", "random", "random", "--out", str(out), *QUICK)
    assert derived.returncode == 2 and "not without" in derived.stderr


@pytest.mark.parametrize("command", [
    ["league", "tictactoe", "random", "mcts --iterations 2", "mcts --iterations 4"],
    ["sweep", "tictactoe", "mcts --iterations {2,4}", "--vs", "random"],
    ["tune", "tictactoe", "mcts --iterations {2..6}", "--vs", "random", "--iterations", "2",
     "-n", "4"],
    ["match", "number_maze", "random", "greedy"],               # one player: one game a seed
])
def test_league_sweep_tune_and_solo_games_play_only_the_files_seeds(command, seeds_file,
                                                                    tmp_path):
    out = tmp_path / "games.jsonl"
    done = run_cli(*command, "--seeds", str(seeds_file), "--out", str(out), *QUICK, timeout=600)
    assert done.returncode == 0, done.stderr
    records = _records(out)
    assert records and {record["seed"] for record in records} <= set(SEEDS)
    if command[0] in ("league", "sweep"):        # every seed, each in both seat orders
        for matchup in {frozenset(record["seats"]) for record in records}:
            games = [record for record in records if frozenset(record["seats"]) == matchup]
            assert sorted(record["seed"] for record in games) == sorted(SEEDS * 2)
    if command[1] == "number_maze":
        assert sorted(record["seed"] for record in records) == sorted(SEEDS * 2)   # 2 bots


@pytest.mark.parametrize("args, message", [
    (["--seeds", "missing.txt"], "--seeds 'missing.txt' cannot be read"),
    (["--seeds", "{file}", "--seed", "3"], "--seed and --seeds: give one"),
    (["--seeds", "{empty}"], "holds no seed"),
    (["--seeds", "{bad}"], "line 2: 'x' is not a seed"),
])
def test_bad_seeds_options_are_one_line(tmp_path, seeds_file, args, message):
    (tmp_path / "empty.txt").write_text("# nothing\n\n")
    (tmp_path / "bad.txt").write_text("1\nx\n")
    args = [arg.format(file=seeds_file, empty=tmp_path / "empty.txt", bad=tmp_path / "bad.txt")
            for arg in args]
    for command in ("match", "league", "sweep", "tune"):
        bots = {"match": ["random", "random"], "league": ["random", "random"],
                "sweep": ["mcts --iterations {2,4}", "--vs", "random"],
                "tune": ["mcts --iterations {2..6}", "--vs", "random"]}[command]
        done = run_cli(command, "tictactoe", *bots, *args)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, (command, done.stderr)
        assert message in done.stderr, (command, done.stderr)


def test_the_python_api_plays_the_settings_seeds_and_refuses_a_base_seed_beside_them(tmp_path):
    """``Settings.seeds`` is --seeds for a script: pair k plays the k-th seed, both seat orders;
    with ``seed`` too, the command line's line."""
    from tools.arena.headtohead import play_head_to_head
    from tools.arena.seeds import SeedList
    from tools.arena.settings import Settings

    out = tmp_path / "api.jsonl"
    settings = Settings("tictactoe", seeds=SeedList((7, -5), "mine"), jobs=1, quiet=True,
                        results=str(out))
    result = play_head_to_head(settings, "minimax", "random", games=4)
    assert result.summary["games"] == 4
    assert sorted(record["seed"] for record in _records(out)) == [-5, -5, 7, 7]
    assert result.status_lines[0].startswith("seeds mine (2)")
    with pytest.raises(UsageError, match="--seed and --seeds: give one"):
        play_head_to_head(Settings("tictactoe", seed=1, seeds=SeedList((7,), "mine")),
                          "minimax", "random", games=2)
