"""Single-player games: each bot plays every seed alone; bots are compared seed by seed."""
from __future__ import annotations

import json

from tests.conftest import run_cli
from tests.tools.test_match_command import CALM
from tools.arena.schedule import solo_jobs
from tools.arena.solo import SoloComparisons, combine
from tools.arena.tally import HeadToHead


def _solo(name: str, pair: int, score: float, fault: str | None = None) -> dict:
    return {"pair": pair, "seats": [name], "latencies_ms": [[1.0, 2.0]],
            "players": [{"bot": name, "score": score, "rank": 0,
                         "fault": {"kind": fault, "turn": 3, "detail": ""} if fault else None}]}


def test_combine_ranks_by_score_and_a_fault_loses():
    assert [p["rank"] for p in combine(_solo("a", 0, 9), _solo("b", 0, 4))["players"]] == [0, 1]
    assert [p["rank"] for p in combine(_solo("a", 0, 4), _solo("b", 0, 4))["players"]] == [0, 0]
    faulted = combine(_solo("a", 0, 9, fault="timeout"), _solo("b", 0, 1))
    assert [p["rank"] for p in faulted["players"]] == [1, 0]
    assert faulted["seats"] == ["a", "b"] and faulted["latencies_ms"] == [[1.0, 2.0], [1.0, 2.0]]


def test_a_faulted_solo_game_is_rerun_alone_with_its_seed():
    faulted = {**_solo("a", 0, 9, fault="timeout"), "game": "calculation", "seed": 77,
               "options": {}, "time_control": {"turn_ms": 100}}
    tally = HeadToHead("a", "b")
    tally.solo = True
    tally.add(combine(faulted, {**_solo("b", 0, 1), "game": "calculation", "seed": 77}))
    assert tally.first_faults["a"]["rerun"] == \
        "botarena play calculation a --seed 77 --turn-ms 100 --replay fault.json"


def test_comparisons_feed_each_matchup_once_per_seed_and_count_faults_once():
    fed = []
    comparisons = SoloComparisons([("a", "b"), ("a", "c"), ("b", "c")], fed.append)
    for record in (_solo("a", 0, 5, fault="crash"), _solo("b", 0, 6), _solo("c", 0, 7),
                   _solo("a", 1, 1)):
        comparisons.add(record)
    assert sorted(tuple(record["seats"]) for record in fed) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert dict(comparisons.faults) == {"a": {"crash": 1}}
    jobs = list(solo_jobs(["a", "b"], 2, base_seed=3))
    assert [job.key for job in jobs] == [(0, ("a",)), (0, ("b",)), (1, ("a",)), (1, ("b",))]
    assert jobs[0].seed == jobs[1].seed != jobs[2].seed


def test_match_on_a_single_player_game(tmp_path):
    out = tmp_path / "maze.jsonl"
    done = run_cli("match", "number_maze", "greedy", "random --seed 1", "-n", "6", "--seed", "2",
                   "--out", str(out), "--json", *CALM)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["solo"] is True and summary["games"] == 6 and summary["elo_model"] == "trinomial"
    assert summary["mean_score"]["greedy"]["mean"] > summary["mean_score"]["random --seed 1"]["mean"]
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 12 and all(len(record["seats"]) == 1 for record in records)
    text = run_cli("match", "number_maze", "greedy", "random --seed 1", "-n", "6", "--out", str(out),
                   *CALM).stdout
    assert "each bot alone" in text and "in seat" not in text and "mean score" in text


def test_league_plays_each_bot_once_per_seed(tmp_path):
    out = tmp_path / "maze_league.jsonl"
    done = run_cli("league", "number_maze", "greedy", "random --seed 1", "random --seed 2",
                   "-n", "4", "--out", str(out), "--json", *CALM)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert len(out.read_text().splitlines()) == 12, "3 bots x 4 seeds, not per matchup"
    assert summary["games"] == 12, "3 matchups x 4 seeds compared"
    assert summary["ratings"][0]["bot"] == "greedy"
