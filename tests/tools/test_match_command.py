"""``botarena match`` through real subprocesses: the summary contract, pairs and seeds, SPRT,
faults, the results file and its checks on resume."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tools.arena.runner import derive_seed
from tools.cli.match import sprt_text

RANDOM = "random --seed 1"
OTHER = "random --seed 2"
# budgets no loaded machine misses: these tests are about counting, not timing
CALM = ("--first-turn-ms", "30000", "--turn-ms", "30000")


def _match(*args: str) -> dict:
    done = run_cli("match", "tictactoe", *args, *CALM, "--json")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, "exactly one JSON object on stdout"
    return json.loads(lines[0])


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_summary_counts_add_up_over_seat_swapped_pairs(tmp_path):
    out = tmp_path / "games.jsonl"
    summary = _match("random", RANDOM, "-n", "11", "--seed", "4", "--jobs", "2", "--out", str(out))
    assert summary["games"] == 12, "11 games round up to 6 whole pairs"
    assert summary["wins"] + summary["draws"] + summary["losses"] == 12
    assert summary["score"] == pytest.approx((summary["wins"] + summary["draws"] / 2) / 12, abs=1e-4)
    assert len(summary["elo_ci95"]) == 2 and 0 <= summary["los"] <= 1
    assert sum(summary["pentanomial"]) == 6 and summary["elo_model"] == "pentanomial"
    assert [row["seat"] for row in summary["by_seat"]] == [0, 1]
    assert sum(row["wins"] + row["draws"] + row["losses"] for row in summary["by_seat"]) == 12
    assert set(summary["latency_ms"]) == {"random", RANDOM}
    assert summary["seed"] == 4 and summary["interrupted"] is False

    records = _records(out)
    assert len(records) == 12
    by_pair: dict[int, list[dict]] = {}
    for record in records:
        by_pair.setdefault(record["pair"], []).append(record)
        assert [player["bot"] for player in record["players"]] == record["seats"]
        assert record["base_seed"] == 4 and record["game"] == "tictactoe"
    assert sorted(by_pair) == list(range(6))
    for pair, games in by_pair.items():
        assert sorted(tuple(game["seats"]) for game in games) == [("random", RANDOM), (RANDOM, "random")]
        assert {game["seed"] for game in games} == {derive_seed(4, pair)}


def test_the_same_seed_plays_the_same_games():
    first = _match(RANDOM, OTHER, "-n", "6", "--seed", "8")
    second = _match(RANDOM, OTHER, "-n", "6", "--seed", "8", "--jobs", "1")
    keys = ("wins", "draws", "losses", "pentanomial", "by_seat")
    assert {key: first[key] for key in keys} == {key: second[key] for key in keys}


def test_sprt_stops_early_when_one_bot_always_wins(crasher):
    summary = _match("random", crasher, "-n", "200", "--sprt", "elo0=0,elo1=200", "--seed", "1",
                     "--jobs", "2")
    sprt = summary["sprt"]
    assert sprt["result"] == "H1" and sprt["llr"] >= sprt["bounds"][1]
    assert sprt["bounds"] == [pytest.approx(-2.944, abs=1e-3), pytest.approx(2.944, abs=1e-3)]
    # every pair won: the LLR grows by log(L(200) / L(0)) = 0.418 per pair: 7 pairs give 2.927,
    # short of the bound 2.944, so H1 after 8 (games in flight then still finish and count:
    # the 2 playing, and, since a game's successor starts while its bots are cleaned up, under
    # load a few that started and ended before the deciding result was counted)
    assert sprt["decided_at_pairs"] == 8
    assert 16 <= summary["games"] <= 22 and summary["losses"] == 0
    assert summary["faults"][crasher] == {"crash": summary["games"]}
    assert summary["faults"]["random"] == {}
    reverse = _match(crasher, "random", "-n", "200", "--sprt", "elo0=0,elo1=200")
    assert reverse["sprt"]["result"] == "H0" and reverse["games"] < 20


def test_sprt_text_prints_llr_and_bounds(crasher):
    done = run_cli("match", "tictactoe", "random", crasher, "-n", "30", "--sprt", "elo1=200", *CALM)
    assert done.returncode == 0, done.stderr
    assert "LLR" in done.stdout and "-2.944" in done.stdout and "+2.944" in done.stdout
    assert "H1 accepted after 8 pairs" in done.stdout


def test_an_undecided_sprt_asks_for_a_larger_n_only_when_n_was_the_limit():
    """A run stopped with Ctrl-C at 26 of 1000 games said 'raise -n' beside 'interrupted: run the
    same command again to resume'."""
    sprt = {"elo0": 0, "elo1": 20, "alpha": 0.05, "beta": 0.05, "llr": -0.046,
            "bounds": [-2.944, 2.944], "result": None, "decided_at_pairs": None}
    assert sprt_text(sprt).endswith("  no decision yet (play more games: raise -n)")
    assert sprt_text(sprt, interrupted=True).endswith(
        "LLR -0.046 (bounds -2.944, +2.944)  no decision yet (the run was interrupted first)")


def test_resume_keeps_finished_games_and_plays_the_rest(tmp_path):
    out = tmp_path / "games.jsonl"
    _match("random", RANDOM, "-n", "4", "--seed", "3", "--out", str(out))
    before = out.read_bytes()
    summary = _match("random", RANDOM, "-n", "10", "--out", str(out))
    assert summary["games"] == 10 and summary["seed"] == 3, "the file's base seed is reused"
    assert out.read_bytes().startswith(before), "finished games stay as they were"
    records = _records(out)
    assert len({(record["pair"], tuple(record["seats"])) for record in records}) == 10 == len(records)
    again = _match("random", RANDOM, "-n", "10", "--out", str(out))
    assert again["games"] == 10 and len(_records(out)) == 10, "nothing replayed"


def test_a_truncated_last_line_is_dropped_and_replayed(tmp_path):
    out = tmp_path / "games.jsonl"
    _match(RANDOM, OTHER, "-n", "4", "--seed", "5", "--out", str(out))
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:3]) + lines[3][:40])        # a SIGKILL mid-write
    done = run_cli("match", "tictactoe", RANDOM, OTHER, "-n", "4", "--out", str(out), *CALM,
                   "--json")
    assert done.returncode == 0, done.stderr
    assert "truncated" in done.stderr
    assert json.loads(done.stdout)["games"] == 4
    assert len(_records(out)) == 4


@pytest.mark.parametrize("change, message", [
    (("number_maze_duel", "random", RANDOM), "holds tictactoe games"),
    (("tictactoe", "random", OTHER), "not of the bots asked for"),
    (("tictactoe", "random", RANDOM, "--seed", "99"), "--seed 3"),
    (("tictactoe", "random", RANDOM, "--grace-ms", "77"), "time control"),
])
def test_resume_refuses_a_file_of_another_run_and_leaves_it_untouched(tmp_path, change, message):
    out = tmp_path / "games.jsonl"
    _match("random", RANDOM, "-n", "2", "--seed", "3", "--out", str(out))
    before = out.read_bytes()
    done = run_cli("match", *change, "-n", "4", "--out", str(out), *CALM)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr
    assert out.read_bytes() == before


def test_a_file_that_is_not_a_results_file_is_refused(tmp_path):
    out = tmp_path / "notes.jsonl"
    out.write_text("hello\n")
    done = run_cli("match", "tictactoe", "random", RANDOM, "-n", "2", "--out", str(out))
    assert done.returncode == 2 and "not a botarena results line" in done.stderr
    assert out.read_text() == "hello\n"


@pytest.mark.parametrize("args, message", [
    (("-n", "0"), "-n 0"),
    (("--jobs", "0"), "--jobs 0"),
    (("--sprt", "elo0=10,elo1=0"), "elo1"),
    (("--sprt", "nonsense"), "--sprt"),
])
def test_bad_arguments_give_one_line(args, message):
    done = run_cli("match", "tictactoe", "random", RANDOM, *args)
    assert done.returncode == 2 and message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_self_play_names_the_copies_apart():
    summary = _match("random", "random", "-n", "2")
    assert (summary["bot_a"], summary["bot_b"]) == ("random", "random #2")
    assert summary["games"] == 2


def test_text_summary_names_every_figure(crasher):
    done = run_cli("match", "tictactoe", "random", crasher, "-n", "4", "--seed", "2", *CALM)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    for word in ("wins 4", "Elo", "LOS", "draw ratio", "pairs 2", "in seat 0", "in seat 1",
                 "p50", "p99", "max", "crash 4", "seed 2", "first fault of"):
        assert word in text, word
    rerun = text.split("re-run it: ")[1].splitlines()[0]
    assert rerun.startswith("botarena play tictactoe ") and "--seed " in rerun
    assert "--first-turn-ms 30000" in rerun and rerun.endswith("--replay fault.json")
