"""``botarena play --psyleague`` against psyleague's play_game contract (arenas.md 1.2):
one JSON object on stdout, exit 0 even when a bot fails (psyleague stops on any other
status), ranks in trueskill's form, errors 0/1, and flat test_data/player_data values that
survive psyleague's int()-then-float() conversion."""
from __future__ import annotations

import json

from tests.conftest import run_cli

PDATA_BOT = """\
import sys
while True:
    if not sys.stdin.readline():
        break
    cells = [sys.stdin.readline().strip() for _ in range(int(sys.stdin.readline()))]
    sys.stderr.write("[PDATA] nodes = 12.5\\n[PDATA] depth = 3\\n")
    sys.stderr.flush()
    print(cells[0], flush=True)
"""


def _psyleague_number(value):
    """What psyleague's try_str_to_numeric does with a value (it must not raise)."""
    try:
        return int(value)
    except ValueError:
        try:
            return float(value)
        except ValueError:
            return value


def _play(*bots: str) -> dict:
    done = run_cli("play", "tictactoe", *bots, "--seed", "5", "--psyleague",
                   "--first-turn-ms", "30000", "--turn-ms", "30000")    # no timeout when loaded
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


def test_psyleague_object_with_pdata(tmp_path):
    bot = tmp_path / "first_cell.py"
    bot.write_text(PDATA_BOT)
    result = _play(str(bot), "random --seed 1")
    assert set(result) == {"ranks", "errors", "test_data", "player_data"}
    assert sorted(result["ranks"]) in ([0, 1], [0, 0])
    assert result["errors"] == [0, 0]
    assert result["test_data"]["seed"] == 5
    for values in [result["test_data"], *result["player_data"]]:
        for value in values.values():
            assert isinstance(value, (int, str)), "psyleague cuts floats to ints, lists crash it"
    data = {key: _psyleague_number(value) for key, value in result["player_data"][0].items()}
    assert data == {"nodes": 12.5, "depth": 3}
    assert result["player_data"][1] == {}


def test_a_crashing_bot_is_an_error_ranked_last_and_the_exit_status_stays_0(tmp_path):
    crasher = tmp_path / "crasher.py"
    crasher.write_text("raise SystemExit(1)\n")
    result = _play(str(crasher), "random --seed 1")
    assert result["errors"] == [1, 0]
    assert result["ranks"] == [1, 0]
