"""``botarena league``: round robin and gauntlet schedules, ratings, the score matrix, resume."""
from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli
from tests.tools.test_match_command import CALM
from tools.arena.standings import Standings, gauntlet, round_robin

BOTS = ["random --seed 1", "random --seed 2", "random --seed 3"]


def _league(*args: str) -> dict:
    done = run_cli("league", "tictactoe", *args, *CALM, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_schedules():
    assert round_robin("abc") == [("a", "b"), ("a", "c"), ("b", "c")]
    assert gauntlet("b", "abc") == [("b", "a"), ("b", "c")]
    jobs = list(Standings(list("abc"), round_robin("abc")).jobs(games=4, base_seed=1))
    assert len(jobs) == 12
    assert [job.seats for job in jobs[:6]] == [("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"),
                                                ("b", "c"), ("c", "b")], "matchups interleaved"
    assert len({job.seed for job in jobs}) == 2, "pair k has the same seed in every matchup"


def test_round_robin_ratings_and_matrix(crasher, tmp_path):
    out = tmp_path / "league.jsonl"
    summary = _league(*BOTS[:2], crasher, "-n", "4", "--seed", "6", "--out", str(out))
    assert summary["games"] == 12 and len(out.read_text().splitlines()) == 12
    ratings = summary["ratings"]
    assert ratings[-1]["bot"] == crasher and ratings[-1]["score"] == 0
    assert ratings[-1]["faults"] == {"crash": 8}
    assert [r["elo"] for r in ratings] == sorted((r["elo"] for r in ratings), reverse=True)
    assert sum(r["elo"] for r in ratings) == pytest.approx(0, abs=0.2), "mean 0"
    for rating in ratings:
        low, high = rating["elo_ci95"]
        assert low <= rating["elo"] <= high
        assert rating["games"] == 8
    matrix = summary["matrix"]
    for row in matrix:
        for column, cell in matrix[row].items():
            assert cell["games"] == 4
            assert cell["score"] + matrix[column][row]["score"] == pytest.approx(1)
    assert matrix[BOTS[0]][crasher]["score"] == 1


def test_gauntlet_with_anchor(crasher):
    summary = _league(*BOTS, "--gauntlet", crasher, "--anchor", crasher, "-n", "2")
    assert summary["games"] == 6, "the gauntlet bot against each of 3 others"
    assert summary["anchor"] == crasher
    by_bot = {r["bot"]: r for r in summary["ratings"]}
    assert by_bot[crasher]["elo"] == 0 and by_bot[crasher]["games"] == 6
    assert all(by_bot[bot]["elo"] > 0 for bot in BOTS)
    assert set(summary["matrix"][BOTS[0]]) == {crasher}, "no games between the others"


def test_text_table_and_matrix(crasher):
    done = run_cli("league", "tictactoe", *BOTS[:2], crasher, "-n", "2", "--seed", "1", *CALM)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "Bradley-Terry, mean 0" in text and "score of row vs column" in text
    table = text.splitlines()
    assert table[-4].startswith(" 3  " + crasher) or crasher in table[4]
    assert "crash 4" in text


def test_league_resume_plays_only_the_missing_games(tmp_path):
    out = tmp_path / "league.jsonl"
    _league(*BOTS, "-n", "2", "--seed", "2", "--out", str(out))
    summary = _league(*BOTS, "-n", "4", "--out", str(out))
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert summary["games"] == 12 == len(records)
    assert len({(r["pair"], tuple(r["seats"])) for r in records}) == 12


def test_league_refuses_unknown_anchor():
    done = run_cli("league", "tictactoe", *BOTS[:2], "--anchor", "nobody")
    assert done.returncode == 2 and "--anchor 'nobody'" in done.stderr
