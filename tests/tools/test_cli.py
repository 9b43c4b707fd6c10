"""The command line through real subprocesses: full games, the JSON contract, exit codes."""
from __future__ import annotations

import json

import pytest

from referee.games import game_names, load_game
from tests.conftest import ROOT, run_cli
from tools.arena.botspec import builtin_bots

GAMES_WITH_RANDOM = [name for name in game_names() if "random" in builtin_bots(name)]


def _play_json(*args: str) -> dict:
    done = run_cli("play", *args, "--json")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, "exactly one JSON object on stdout"
    return json.loads(lines[0])


@pytest.mark.parametrize("name", GAMES_WITH_RANDOM)
def test_full_game_between_random_bots(name):
    game = load_game(name)
    bots = [f"random --seed {seat + 1}" for seat in range(game.seats[0])]
    # generous budgets: what is tested is a whole game through the CLI, not the bots' speed on a
    # machine at load 20 (where a random bot's 1000 ms first turn was seen to time out)
    budgets = ("--first-turn-ms", "20000", "--turn-ms", "5000")
    result = _play_json(name, *bots, "--seed", "12", *budgets)
    assert result["game"] == name and result["seed"] == 12
    assert isinstance(result["turns"], int) and result["turns"] > 0
    assert result["reason"] and "referee_error" not in result      # (no fault: see below)
    assert len(result["players"]) == len(bots)
    for player, bot in zip(result["players"], bots):
        assert player["bot"] == bot and player["fault"] is None
        assert set(player["latency_ms"]) == {"p50", "p99", "max"}
        assert isinstance(player["score"], (int, float)) and isinstance(player["rank"], int)
        assert isinstance(player["pdata"], dict)
    if len(bots) == 1:
        assert result["winner"] is None
    again = _play_json(name, *bots, "--seed", "12", *budgets)
    assert [p["score"] for p in again["players"]] == [p["score"] for p in result["players"]]


def test_winner_and_ranks_agree():
    result = _play_json("tictactoe", "random --seed 1", "random --seed 2", "--seed", "5")
    ranks = [player["rank"] for player in result["players"]]
    if result["winner"] is None:
        assert ranks == [0, 0]
    else:
        assert ranks[result["winner"]] == 0 and sorted(ranks) == [0, 1]


def test_pdata_lands_in_json(tmp_path):
    bot = tmp_path / "pdata_bot.py"
    bot.write_text("import sys\n"
                   "while True:\n"
                   "    sys.stdin.readline(); n = int(sys.stdin.readline())\n"
                   "    cells = [sys.stdin.readline().strip() for _ in range(n)]\n"
                   "    print('[PDATA] depth = 3', file=sys.stderr)\n"
                   "    print(f'[PDATA] left = {n}', file=sys.stderr, flush=True)\n"
                   "    print(cells[0], flush=True)\n")
    result = _play_json("tictactoe", str(bot), "random --seed 1", "--seed", "1")
    pdata = result["players"][0]["pdata"]
    assert pdata["depth"] == 3 and isinstance(pdata["left"], int)


def test_readable_summary_and_replay_rerun(tmp_path):
    replay = tmp_path / "game.json"
    # roomy turns (kept in the replay, so the re-run has them too): at load 25 a 50 ms turn
    # timed out in one run and not the other, and the re-run was not identical
    done = run_cli("play", "number_maze_duel", "random --seed 1", "random --seed 2", "--seed", "3",
                   "--first-turn-ms", "30000", "--turn-ms", "30000", "--replay", str(replay))
    assert done.returncode == 0, done.stderr
    assert "result:" in done.stdout and "seat 0" in done.stdout and "seat 1" in done.stdout
    data = json.loads(replay.read_text())
    assert data["format"] == "botarena-replay" and data["version"] == 1
    first = data["turns"][0]["seats"][0]
    assert set(first) >= {"seat", "input", "output", "latency_ms", "stderr"}
    assert first["input"][0] == "5 5 20"               # the initialization block comes first
    verified = run_cli("replay", str(replay), "--verify")
    assert verified.returncode == 0 and "agrees" in verified.stdout
    rerun = run_cli("replay", str(replay), "--run", "--json")
    assert rerun.returncode == 0, rerun.stderr
    assert json.loads(rerun.stdout)["identical"] is True


def test_listing_commands():
    games = run_cli("games")
    assert games.returncode == 0 and all(name in games.stdout for name in game_names())
    bots = run_cli("bots", "tictactoe")
    assert bots.returncode == 0 and "random" in bots.stdout and "--seed" in bots.stdout


@pytest.mark.parametrize("args, message", [
    (("play", "chess", "random", "random"), "unknown game 'chess'"),
    (("play", "tictactoe", "random"), "takes 2 bot(s)"),
    (("play", "tictactoe", "random", "no_such_bot"), "unknown bot 'no_such_bot'"),
    (("play", "tictactoe", "random", "missing/file.py"), "no file"),
    (("play", "tictactoe", "random", "./missing_program"), "no file"),
    (("play", "tictactoe", "random", "random --depth 3"), "unrecognized arguments"),
    (("play", "tictactoe", "random", "random", "--seed", "x"), "invalid int value"),
    (("play", "number_maze", "random", "--option", "size"), "expected KEY=VALUE"),
    (("play", "number_maze", "random", "--option", "size=3"), "has no option 'size'"),
    (("play", "number_maze", "random", "--option", "height=abc"), "expected int"),
    (("play", "number_maze", "random", "--option", "height=0"), "must be >= 2"),
    (("play", "tictactoe", "random", "random", "--turn-ms", "0"), "must be positive"),
    (("bots", "chess"), "unknown game"),
    (("bench", "nope"), "invalid choice: 'nope'"),
    (("replay", "/nonexistent/replay.json"), "no replay file"),
    (("match", "tictactoe", "random", "random", "-n", "2", "--out", "/proc/x/y.jsonl"),
     "cannot be written"),
    (("sweep", "tictactoe", "mcts --c {0.5,1}", "--vs", "random", "-n", "2", "--out", "/proc/x/y"),
     "cannot be written"),
    (("league", "tictactoe", "random", "mcts", "-n", "2", "--out", "/proc/x/y"), "cannot be written"),
])
def test_usage_errors_are_one_line_and_exit_2(args, message):
    done = run_cli(*args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_not_executable_bot_is_a_usage_error(tmp_path):
    script = tmp_path / "bot"
    script.write_text("#!/bin/sh\necho 0 0\n")
    done = run_cli("play", "tictactoe", "random", str(script))
    assert done.returncode == 2 and "not executable" in done.stderr and "Traceback" not in done.stderr


def test_console_script_is_declared_installed_and_runs():
    import subprocess
    import sys
    import tomllib
    from importlib.metadata import entry_points
    from pathlib import Path

    import tools.cli
    with open(ROOT / "pyproject.toml", "rb") as handle:        # a commented-out line is gone
        declared = tomllib.load(handle)["project"]["scripts"]
    assert declared == {"botarena": "tools.cli:main"}
    installed = [point for point in entry_points(group="console_scripts") if point.name == "botarena"]
    assert [point.value for point in installed] == ["tools.cli:main"], "reinstall: pip install -e ."
    assert installed[0].load() is tools.cli.main
    script = Path(sys.executable).parent / "botarena"
    done = subprocess.run([str(script), "games"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "tictactoe" in done.stdout, done.stderr
