"""Game files through the command line: play, match (2 and 4 players), league, sweep, tune,
--cluster, replays, the viewer and the SDK log; bad files and options refused with one line."""
from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli
from tests.referee.external.gamefiles import brutal_game, digit_bot, sdk_game


def _json(process) -> dict:
    assert process.returncode == 0, process.stderr
    return json.loads(process.stdout)


def test_play_a_game_file_as_json_and_psyleague(tmp_path):
    path = sdk_game(tmp_path, "--monitoring", parameters={"turns": 3})
    result = _json(run_cli("play", str(path), digit_bot("--digit", "4"), digit_bot("--digit", "2"),
                           digit_bot("--digit", "4"), "--seed", "5", "--json"))
    assert result["game"] == "digits" and result["options"]["turns"] == "3"
    assert [player["score"] for player in result["players"]] == [12, 6, 12]
    assert [player["rank"] for player in result["players"]] == [0, 2, 0]
    league_view = _json(run_cli("play", str(path), digit_bot(), digit_bot("--digit", "9"),
                                "--seed", "5", "--psyleague"))
    assert league_view["ranks"] == [1, 0]


def test_options_reach_the_referee_and_bad_ones_are_one_line(tmp_path):
    path = sdk_game(tmp_path, parameters={"turns": 3})
    result = _json(run_cli("play", str(path), digit_bot("--digit", "1"), digit_bot("--digit", "2"),
                           "--option", "turns=5", "--json"))
    assert [player["score"] for player in result["players"]] == [5, 10]
    for args, message in [(("--option", "seed=3"), "the seed is --seed"),
                          (("--turn-ms", "80"), "sends its own time limits"),
                          ((digit_bot(),), "takes 2 to 4 bot(s), got 5")]:
        process = run_cli("play", str(path), *[digit_bot()] * 4, *args)
        assert process.returncode == 2 and message in process.stderr, process.stderr
        assert process.stderr.count("\n") == 1 and "Traceback" not in process.stderr


def test_a_broken_game_file_is_one_line_and_exit_2(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text('protocol = "codingame"\nplayers = 2\n')
    for args in (("play", str(broken), "a", "b"), ("match", str(broken), "a", "b"),
                 ("games", str(broken)), ("play", str(tmp_path / "none.toml"), "a", "b")):
        process = run_cli(*args)
        assert process.returncode == 2 and process.stderr.count("\n") == 1, process.stderr
        assert process.stderr.startswith("botarena: ") and "game file" in process.stderr


def test_match_on_a_two_player_game_file_counts_referee_errors_as_void(tmp_path):
    good = sdk_game(tmp_path, parameters={"turns": 2}, name="good")
    summary = _json(run_cli("match", str(good), digit_bot("--digit", "7"), digit_bot("--digit", "3"),
                            "-n", "4", "--jobs", "2", "--seed", "1", "--json"))
    assert (summary["wins"], summary["losses"], summary["void"]) == (4, 0, 0)
    failing = sdk_game(tmp_path, "--fail-at", "2", parameters={"turns": 3}, name="failing")
    process = run_cli("match", str(failing), digit_bot("--digit", "7"), digit_bot("--digit", "3"),
                      "-n", "4", "--jobs", "2", "--seed", "1")
    assert process.returncode == 0, process.stderr
    assert "no games finished" in process.stdout and "void" not in process.stderr


def test_match_on_a_four_player_game_seats_a_everywhere(tmp_path):
    path = sdk_game(tmp_path, players="4", parameters={"turns": 2})
    out = tmp_path / "runs.jsonl"
    process = run_cli("match", str(path), digit_bot("--digit", "6"), digit_bot("--digit", "3"),
                      "-n", "8", "--jobs", "2", "--seed", "2", "--out", str(out))
    assert process.returncode == 0, process.stderr
    assert "4-player game: BOT_A took each seat once per seed" in process.stdout
    assert ": 8 games, 24 pairwise results (wins, draws, losses below)" in process.stdout
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 8
    a = digit_bot("--digit", "6")
    assert sorted(record["seats"].index(a) for record in records) == [0, 0, 1, 1, 2, 2, 3, 3]
    summary = _json(run_cli("match", str(path), a, digit_bot("--digit", "3"), "-n", "8",
                            "--jobs", "2", "--out", str(out), "--json"))   # resumed: no game
    assert summary["games"] == 8 and summary["results"] == 24        # 8 games x 3 opponents
    assert summary["wins"] == 24
    assert [row["wins"] for row in summary["by_seat"]] == [6, 6, 6, 6]
    assert sum(summary["pentanomial"]) == 12 and summary["players"] == 4


def test_league_of_four_player_games_rates_from_pairwise_results(tmp_path):
    path = brutal_game(tmp_path, "--turns", "2", players="4")
    bots = [digit_bot("--digit", str(digit)) for digit in (1, 5, 9)]
    process = run_cli("league", str(path), *bots, "-n", "4", "--jobs", "2", "--seed", "3")
    assert process.returncode == 0, process.stderr
    assert "3 bots, 3 lineups of 4 (each rotated through the seats per seed), 12 games, " \
        "60 pairwise results" in process.stdout
    assert "wins of row vs column (draws not counted, as brutaltester shows):" in process.stdout
    summary = _json(run_cli("league", str(path), *bots, "-n", "4", "--jobs", "2", "--seed", "3",
                            "--json"))
    assert [rating["bot"] for rating in summary["ratings"]] == bots[::-1]
    assert (summary["games"], summary["results"]) == (12, 60)
    assert [rating["games"] for rating in summary["ratings"]] == [12, 12, 12]   # each sat in all
    assert [rating["results"] for rating in summary["ratings"]] == [40, 40, 40]
    cell = summary["matrix"][bots[2]][bots[0]]        # 9s against 1s: pairwise results
    assert cell["results"] == 20 and cell["wins"] > 10    # (a timeout under load draws the rest)


def test_sweep_and_tune_on_a_game_file(tmp_path):
    path = sdk_game(tmp_path, parameters={"turns": 2})
    process = run_cli("sweep", str(path), digit_bot("--digit", "{2,8}"), "--vs",
                      digit_bot("--digit", "5"), "-n", "2", "--jobs", "2", "--seed", "1", "--json")
    points = {point["bot"]: point for point in _json(process)["points"]}
    assert points[digit_bot("--digit", "8")]["score"] == 1.0
    process = run_cli("tune", str(path), digit_bot("--digit", "{0..9}"), "--vs",
                      digit_bot("--digit", "5"), "--iterations", "2", "--pairs", "1", "-n", "2",
                      "--jobs", "2", "--seed", "1")
    assert process.returncode == 0, process.stderr
    four = sdk_game(tmp_path, players="4", name="four")
    process = run_cli("sweep", str(four), digit_bot("--digit", "{2,8}"), "--vs", digit_bot(), "-n", "2")
    assert process.returncode == 2 and "sweep plays two-player games" in process.stderr


def test_a_match_on_a_local_cluster(tmp_path):
    pytest.importorskip("distributed", reason="optional: Dask (pip install 'botarena[cluster]')")
    path = sdk_game(tmp_path, parameters={"turns": 2})
    summary = _json(run_cli("match", str(path), digit_bot("--digit", "7"), digit_bot("--digit", "3"),
                            "-n", "4", "--cluster", "local:2", "--seed", "1", "--json",
                            timeout=300))
    assert (summary["games"], summary["wins"]) == (4, 4)


def test_replay_run_view_and_sdk_log(tmp_path):
    path = sdk_game(tmp_path, "--monitoring", "--idle", "1", parameters={"turns": 3})
    replay, page, log = tmp_path / "game.json", tmp_path / "game.html", tmp_path / "log.json"
    bots = [digit_bot("--digit", "7", "--stderr"), digit_bot("--digit", "2")]
    process = run_cli("play", str(path), *bots, "--seed", "9", "--replay", str(replay),
                      "--view", str(page), "--sdk-log", str(log))
    assert process.returncode == 0, process.stderr
    recorded = json.loads(replay.read_text())
    assert recorded["game_file"] == str(path)
    again = run_cli("replay", str(replay), "--run")
    assert again.returncode == 0 and "identical to the recording" in again.stdout, again.stderr
    verify = run_cli("replay", str(replay), "--verify")
    assert verify.returncode == 2 and "--run instead" in verify.stderr
    html = page.read_text()
    assert "lucky seven" in html and "an external referee" in html
    sdk = json.loads(log.read_text())
    frames = len(sdk["views"])
    assert frames == recorded["result"]["frames"] and len(sdk["summaries"]) == frames
    assert sdk["scores"] == {"0": 14, "1": 4}
    assert sdk["uinput"] == ["seed=9\nfirst_ms=3000\nturn_ms=400\nturns=3\n"]
    assert sdk["outputs"]["0"][0] is None and len(sdk["outputs"]["0"]) == frames
    assert sdk["outputs"]["0"][1] == ""             # the frame with no player executed
    assert sdk["outputs"]["0"][2] == "7\n" and sdk["outputs"]["1"][2] is None
    assert sdk["errors"]["0"][2].startswith("bot 0 turn 2")
    assert {"turn": frames - 1, "text": "lucky seven", "event": 0} in sdk["tooltips"]
    # as the SDK's runner writes them: players without a nickname, the referee's stderr a
    # string a frame, every message body ended by a newline
    assert sdk["agents"][1] == {"index": 1, "name": "Player 1", "agentId": 1, "avatar":
                                "https://static.codingame.com/servlet/fileservlet?id="
                                "16085846089817&format=viewer_avatar"}
    assert sdk["errors"]["referee"] == [""] * frames and sdk["outputs"]["referee"] == [""] * frames
    assert sdk["metadata"] == '{"turns": 3}\n' and "failCause" not in sdk
    converted = tmp_path / "again.json"
    assert run_cli("replay", str(replay), "--sdk-log", str(converted)).returncode == 0
    assert json.loads(converted.read_text()) == sdk


def test_games_describes_a_game_file(tmp_path):
    process = run_cli("games", str(sdk_game(tmp_path, parameters={"turns": 3})))
    assert process.returncode == 0
    assert "codingame protocol, 2-4 players, time limits from the referee" in process.stdout
    assert "--option turns=3" in process.stdout


def test_a_huge_score_is_a_void_game_and_the_results_file_resumes(tmp_path):
    """Issue 31, item 5: SCORES of 1e300 crashed match with an OverflowError after the games,
    and one over 1e15 went into --out, whose own resume then refused the file."""
    path = sdk_game(tmp_path, "--score", "0=1e300", parameters={"turns": 1})
    out = tmp_path / "runs.jsonl"
    args = ("match", str(path), digit_bot("--digit", "7"), digit_bot("--digit", "3"), "-n", "2",
            "--seed", "1", "--out", str(out))
    for _ in range(2):                                  # the second run resumes the file
        process = run_cli(*args)
        assert process.returncode == 0, process.stderr
        assert "Traceback" not in process.stderr and "Error" not in process.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 2 and all("SCORES line '0 1e300'" in record["reason"]
                                     for record in records)


def test_after_a_fault_match_names_the_game_files_path_to_re_run_it(tmp_path):
    """A file named like a built-in game: its name would replay the built-in game instead."""
    path = sdk_game(tmp_path, name="xmas_rush", parameters={"turns": 3})
    process = run_cli("match", str(path), digit_bot("--digit", "7", "--crash-at", "3"),
                      digit_bot("--digit", "3"), "-n", "2", "--seed", "1")
    assert process.returncode == 0, process.stderr
    assert "first fault of" in process.stdout and " at turn 3: " in process.stdout, process.stdout
    assert f"re-run it: botarena play {path} " in process.stdout, process.stdout


def test_a_referee_that_cannot_start_is_one_line_in_play_and_match(tmp_path):
    """Issue 31: it was called "a bug in the game's code", printed three times, with seat lines
    of a game that never began; match said only "no games finished"."""
    path = sdk_game(tmp_path, "--trace-at=0")
    bots = (digit_bot("--digit", "1"), digit_bot("--digit", "2"))
    for command in ("play", "match"):
        process = run_cli(command, str(path), *bots, *(("-n", "2") if command == "match" else ()))
        assert process.returncode == 2, process.stderr
        assert process.stdout == "" and process.stderr.count("\n") == 1, process.stderr
        assert process.stderr.startswith("botarena: the referee of digits could not start: "
                                         "exited with code 1: java.lang.ClassNotFoundException: "
                                         "com.codingame.game.Player"), process.stderr
