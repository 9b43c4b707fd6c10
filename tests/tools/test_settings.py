"""One settings object: a match, a league, a sweep and a tuning run played from Python with
real bots and no command line, the same games as the command line plays, and every command's
per-bot limits reaching the bots (``tune`` once dropped --sandbox and --no-line-buffering)."""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

from tests.conftest import ROOT, run_cli
from tests.fixtures.hostile import hostile_argv
from tools.arena.headtohead import play_head_to_head
from tools.arena.league import play_league
from tools.arena.settings import BotLimits, Settings
from tools.arena.sweep import play_sweep
from tools.stats import SprtSettings
from tools.tune.tuners import TuneSpec, tune

# budgets no loaded machine misses: these tests are about what is played, not timing
STRONG = "alphabeta --iterations 300"      # a fixed budget of nodes: the same moves, loaded or not
CALM = Settings("tictactoe", first_turn_ms=30000, turn_ms=30000, seed=11, jobs=2, quiet=True)

PYTHON_MATCH = """
import json, sys
from tools.arena.headtohead import play_head_to_head
from tools.arena.settings import Settings
settings = Settings("tictactoe", first_turn_ms=30000, turn_ms=30000, seed=11, jobs=2, quiet=True)
result = play_head_to_head(settings, "alphabeta --iterations 300", "random --seed 1", games=4)
print(json.dumps({"summary": result.summary,
                  "cli": sorted(name for name in sys.modules if name.startswith("tools.cli"))}))
"""


def test_a_match_from_python_plays_the_games_the_command_line_plays():
    done = subprocess.run([sys.executable, "-c", PYTHON_MATCH], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    from_python = json.loads(done.stdout)
    assert from_python["cli"] == [], "the command line was loaded to play from Python"
    cli = run_cli("match", "tictactoe", STRONG, "random --seed 1", "-n", "4", "--seed", "11",
                  "--jobs", "2", "--first-turn-ms", "30000", "--turn-ms", "30000", "--json")
    assert cli.returncode == 0, cli.stderr
    summary = from_python["summary"]
    assert summary["games"] == 4 and summary["seed"] == 11
    same = ("games", "wins", "draws", "losses", "pentanomial", "by_seat", "faults", "seed")
    assert {key: summary[key] for key in same} == \
        {key: json.loads(cli.stdout)[key] for key in same}


def test_a_match_keeps_its_games_in_the_results_file_and_resumes_from_it(tmp_path):
    results = tmp_path / "games.jsonl"
    settings = Settings("tictactoe", first_turn_ms=30000, turn_ms=30000, jobs=2, quiet=True,
                        results=str(results))
    first = play_head_to_head(settings, STRONG, "random --seed 1", games=2)
    assert len(results.read_text().splitlines()) == 2 and not first.interrupted
    again = play_head_to_head(settings, STRONG, "random --seed 1", games=4)
    assert len(results.read_text().splitlines()) == 4
    assert again.summary["games"] == 4 and again.summary["seed"] == first.summary["seed"]
    assert any(str(results) in line for line in again.status_lines)


def test_an_sprt_from_python_stops_as_soon_as_it_decides(tmp_path):
    crasher = tmp_path / "crasher.py"
    crasher.write_text("import sys\nsys.exit(3)\n")
    result = play_head_to_head(CALM, "random --seed 1", str(crasher), games=200,
                               sprt=SprtSettings(elo0=0, elo1=200))
    # every pair won: H1 after 8 (see test_match_command); games in flight then still count
    assert result.summary["sprt"]["result"] == "H1"
    assert result.summary["sprt"]["decided_at_pairs"] == 8 and result.summary["games"] < 30


def test_limits_reach_the_bots_of_a_match_from_python():
    capped = Settings("tictactoe", first_turn_ms=3000, turn_ms=5000, seed=1, jobs=1, quiet=True,
                      limits=BotLimits(memory_mb=200))
    hungry = shlex.join(hostile_argv("eat_memory", 1))       # on its first turn
    result = play_head_to_head(capped, hungry, "random --seed 1", games=2)
    assert result.summary["wins"] == 0 and result.summary["losses"] == 2
    faults = result.tally.faults[result.tally.first]
    assert dict(faults) == {"crash": 2}, faults
    assert "memory limit (200 MB)" in result.summary["first_faults"][hungry]["detail"]


def test_a_league_and_a_sweep_from_python():
    league = play_league(CALM, [STRONG, "random --seed 1", "random --seed 2"], games=2,
                         anchor="random --seed 1")
    assert league.matchups == 3 and league.standings.games == 6
    assert sorted(rating.name for rating in league.ratings) == \
        sorted([STRONG, "random --seed 1", "random --seed 2"])
    assert next(rating.elo for rating in league.ratings if rating.name == "random --seed 1") == 0
    assert league.to_json()["anchor"] == "random --seed 1"
    sweep = play_sweep(CALM, "random --seed {1,2}", vs=STRONG, games=2)
    assert sweep.names == ["seed"] and [row["games"] for row in sweep.rows] == [2, 2]
    assert sweep.best in ("random --seed 1", "random --seed 2")


def test_a_race_from_python():
    spec = TuneSpec("random --seed {1,2,3}", STRONG, method="race", rounds=1, pairs=1, games=2)
    result = tune(CALM, spec)
    assert not result.interrupted
    assert result.summary["race_games"] == 6 and result.games == 6 + 2
    assert result.tuned in ("random --seed 1", "random --seed 2", "random --seed 3")
    assert result.summary["verification"]["opponent"]["games"] == 2


NEVER_FLUSHES = """import sys
while True:
    if not sys.stdin.readline():
        break
    cells = [sys.stdin.readline().strip() for _ in range(int(sys.stdin.readline()))]
    print(cells[0])
"""


def test_tune_starts_its_bots_with_the_limits_given(tmp_path):
    """--no-line-buffering reaches a tuning run's bots: a bot that never flushes times out."""
    bot = tmp_path / "never_flushes.py"
    bot.write_text(NEVER_FLUSHES)
    results = tmp_path / "tune.jsonl"
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    done = run_cli("tune", "tictactoe", "random --seed {1,2}", "--vs", str(bot), "--method",
                   "race", "--rounds", "1", "--pairs", "1", "-n", "0", "--seed", "3", "--jobs",
                   "2", "--first-turn-ms", "2500", "--turn-ms", "300", "--no-line-buffering",
                   "--out", str(results), "--json", env=environment)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert len(records) == 4
    for record in records:
        seat = record["seats"].index(str(bot))
        fault = record["players"][seat]["fault"]
        assert fault is not None and fault["kind"] == "timeout", record
        assert "drop --no-line-buffering" in fault["detail"]
