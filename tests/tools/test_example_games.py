"""docs/examples/twenty_one: botarena's own example game files, with Python referees for both
protocols (the SDK's and ###) and two bots, play, match and view as the docs say, from the
repository's root."""
from __future__ import annotations

import json

import pytest

from tests.conftest import ROOT, run_cli

EXAMPLE = "docs/examples/twenty_one"
PERFECT, ADD_ONE = f"{EXAMPLE}/bots/perfect.py", f"{EXAMPLE}/bots/add_one.py"
GAME_FILES = ("game.toml", "brutaltester.toml")


@pytest.mark.parametrize("game_file", GAME_FILES)
def test_each_example_game_file_plays_a_game_the_perfect_bot_wins(game_file, tmp_path):
    replay = tmp_path / "game.json"
    done = run_cli("play", f"{EXAMPLE}/{game_file}", ADD_ONE, PERFECT, "--seed", "2",
                   "--replay", str(replay), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["winner"] == 1 and [player["fault"] for player in result["players"]] == [None, None]
    turns = json.loads(replay.read_text())["turns"]
    answers = [int(seat["output"]) for turn in turns for seat in turn["seats"]]
    assert sum(answers) == 21 and set(answers) <= {1, 2, 3}
    page = tmp_path / "game.html"
    viewed = run_cli("view", str(replay), "-o", str(page))
    assert viewed.returncode == 0, viewed.stderr
    assert "twenty_one" in page.read_text()


def test_the_sdk_example_takes_its_parameter_and_scores_a_wrong_answer_minus_one(tmp_path):
    wrong = tmp_path / "wrong.py"
    wrong.write_text("import sys\nfor line in sys.stdin:\n    print(4, flush=True)\n")
    done = run_cli("play", f"{EXAMPLE}/game.toml", str(wrong), PERFECT, "--seed", "1",
                   "--option", "target=25", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [player["score"] for player in result["players"]] == [-1, 1]
    assert result["options"]["target"] == "25"


def test_a_match_on_each_example_game_file(tmp_path):
    for game_file in GAME_FILES:
        out = tmp_path / f"{game_file}.jsonl"
        done = run_cli("match", f"{EXAMPLE}/{game_file}", PERFECT, ADD_ONE, "-n", "2",
                       "--out", str(out), "--quiet")
        assert done.returncode == 0, done.stderr
        games = [json.loads(line) for line in out.read_text().splitlines()]
        scores = [player["score"] for game in games for player in game["players"]
                  if player["bot"] == PERFECT]
        assert scores == [1, 1], games           # it wins from either seat


def test_the_example_files_are_where_the_docs_say():
    for name in ("rules.py", "sdk_referee.py", "brutal_referee.py", *GAME_FILES, "bots/perfect.py",
                 "bots/add_one.py"):
        assert (ROOT / EXAMPLE / name).is_file(), name
