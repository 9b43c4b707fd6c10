"""A search bot's budgets default to its game's time control, read from the game (not a copy
of its numbers): change the game's, and the bots follow."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT

FOLLOWS = """
import json, sys
from referee.api import TimeControl
from referee.games import load_game
from tools.arena.botspec import bot_parser, builtin_bots
game = load_game(sys.argv[1])
type(game).time_control = TimeControl(first_turn_ms=1234, turn_ms=56)
budgets = {}
for name in builtin_bots(game.name):
    options = bot_parser(game.name, name).parse_args([])
    if hasattr(options, "turn_ms"):
        budgets[name] = [options.first_turn_ms, options.turn_ms]
print(json.dumps(budgets))
"""


# xmas_rush, othello and calculation bots default to budgets of their own, below the game's
@pytest.mark.parametrize("game", ["tictactoe", "number_maze", "number_maze_duel"])
def test_search_bots_default_to_the_games_time_control(game):
    done = subprocess.run([sys.executable, "-c", FOLLOWS, game], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    budgets = json.loads(done.stdout)
    assert budgets, f"no {game} bot takes --turn-ms"
    assert all(value == [1234, 56] for value in budgets.values()), budgets
