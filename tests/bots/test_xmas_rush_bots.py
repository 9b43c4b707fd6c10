"""xmas_rush end to end: the README demo, replays that verify, the built-in bots, CLI errors."""
from __future__ import annotations

import json
import random

from bots.xmas_rush import greedy
from referee.games.xmas_rush.board import DOWN, tile_from_pattern
from referee.games.xmas_rush.rules import Push
from tests.conftest import run_cli
from tests.referee.games.test_xmas_rush_rules import corridor_state

ROOMY = ("--first-turn-ms", "10000", "--turn-ms", "2000")


def test_demo_game_and_its_replay_verifies(tmp_path):
    replay = tmp_path / "demo.json"
    # the README demo, with roomy budgets so a loaded test machine cannot turn it into a timeout
    done = run_cli("play", "xmas_rush", "greedy --seed 1", "random --seed 2", "--seed", "1", "--replay",
                   str(replay), *ROOMY, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [player["fault"] for player in result["players"]] == [None, None]
    assert result["players"][0]["score"] > result["players"][1]["score"]    # greedy beats random here
    data = json.loads(replay.read_text())
    assert data["turns"][0]["seats"][0]["input"][0] == "0" and len(data["turns"][0]["seats"]) == 2
    verified = run_cli("replay", str(replay), "--verify")
    assert verified.returncode == 0 and "agrees" in verified.stdout
    data["turns"][3]["seats"][1]["input"][1] = "1111 1111 1111 1111 1111 1111 1111"
    replay.write_text(json.dumps(data))
    tampered = run_cli("replay", str(replay), "--verify")
    assert tampered.returncode == 1 and "turn 3 seat 1" in tampered.stdout


def test_wood_league_game_between_random_bots():
    done = run_cli("play", "xmas_rush", "random --seed 1", "random --seed 2", "--seed", "-5",
                   "--option", "league=1", *ROOMY, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["options"] == {"league": 1} and all(p["fault"] is None for p in result["players"])
    assert max(p["score"] for p in result["players"]) <= 1


def test_bad_seed_and_bad_league_are_usage_errors():
    for args in (["--seed", str(1 << 63)], ["--option", "league=0"], ["--option", "league=x"]):
        done = run_cli("play", "xmas_rush", "random", "random", *args)
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_greedy_push_brings_a_quest_item_within_reach():
    rows = corridor_state(items=["BOOK 3 2 0"], quests=["BOOK 0"], turn=0)
    horizontal = tile_from_pattern("0101")
    for x in range(7):                                     # row 2 is a corridor too, not joined to row 3
        rows.board = (rows.board & ~(15 << (9 * (14 + x)))) | (horizontal << (9 * (14 + x)))
    rows._conn = None
    assert not rows.reachable(0) >> 17 & 1
    assert greedy.best_push(rows, 0, random.Random(1)) == Push(3, DOWN)


def test_greedy_move_collects_then_heads_for_the_next_item():
    state = corridor_state(items=["BOOK 2 3 0", "KEY 6 0 0"], quests=["BOOK 0", "KEY 0"])
    move = greedy.choose_move(state)
    assert move.target == 27 and str(move) == "MOVE " + " ".join(["RIGHT"] * 6)
