"""The same seed plays the same game: built-in bots left without --seed get one from the game
seed and their seat, recorded in the replay and the results file; other bots are left alone."""
from __future__ import annotations

import json
import sys

from tests.conftest import run_cli
from tools.arena.botspec import bot_seed, for_game, resolve_bot

TIMING_KEYS = {"latency_ms", "cpu_ms", "margin_ms", "stderr", "stderr_bytes", "latencies_ms",
               "warnings"}   # warnings: a machine too busy to give a CPU at once


def _without_timings(value):
    """``value`` without the fields that measure time (they differ from run to run)."""
    if isinstance(value, dict):
        return {key: _without_timings(item) for key, item in value.items() if key not in TIMING_KEYS}
    if isinstance(value, list):
        return [_without_timings(item) for item in value]
    return value


def test_two_plays_with_one_seed_give_identical_replays(tmp_path):
    replays = []
    for name in ("a.json", "b.json"):
        done = run_cli("play", "tictactoe", "random", "random", "--seed", "11", "--quiet",
                       "--replay", str(tmp_path / name))
        assert done.returncode == 0, done.stderr
        replays.append(_without_timings(json.loads((tmp_path / name).read_text())))
    assert replays[0] == replays[1]
    seeds = [str(bot_seed(11, seat)) for seat in (0, 1)]
    for seat, player in enumerate(replays[0]["players"]):
        assert player["bot"] == f"random --seed {seeds[seat]}"
        assert player["argv"][-2:] == ["--seed", seeds[seat]]


def test_only_built_in_bots_without_a_seed_are_seeded(tmp_path):
    own = tmp_path / "own_bot.py"
    own.write_text("print('x')\n")
    untouched = [resolve_bot("tictactoe", "random --seed 5"), resolve_bot("tictactoe", "random --se=5"),
                 resolve_bot("tictactoe", str(own)), resolve_bot("tictactoe", f"{sys.executable} -V")]
    for spec in untouched:
        assert for_game(spec, 11, 0) == spec
    for text in ("random", "mcts --iterations 5", "minimax"):   # minimax takes --seed and ignores it
        seeded = for_game(resolve_bot("tictactoe", text), 11, 1)
        assert seeded.argv[-2:] == ("--seed", str(bot_seed(11, 1)))
    assert bot_seed(11, 0) != bot_seed(11, 1) != bot_seed(12, 1)


def test_a_match_plays_the_same_games_again_and_records_the_seeds(tmp_path):
    runs = []
    for name in ("a.jsonl", "b.jsonl"):
        done = run_cli("match", "tictactoe", "random", "random --seed 4", "-n", "4", "--seed", "3",
                       "--jobs", "1", "--quiet", "--out", str(tmp_path / name))
        assert done.returncode == 0, done.stderr
        records = [json.loads(line) for line in (tmp_path / name).read_text().splitlines()]
        runs.append(sorted((_without_timings(record) for record in records),
                           key=lambda record: (record["pair"], record["seats"])))
    assert runs[0] == runs[1]
    for record in runs[0]:
        seat = record["seats"].index("random")
        assert record["commands"][seat] == f"random --seed {bot_seed(record['seed'], seat)}"
        assert record["commands"][1 - seat] == "random --seed 4"
