"""number_maze: seed 003's one-player number-collecting maze."""
from __future__ import annotations

from typing import Any

from referee.api import Game, OptionSpec, TimeControl, TurnOrder
from referee.games.number_maze import codec
from referee.games.number_maze.rules import NumberMazeState


class NumberMaze(Game):
    name = "number_maze"
    description = "One-player maze: collect the most points (1-9 on cells) in a fixed number of turns"
    turn_order = TurnOrder.SINGLE
    seats = (1, 1)
    time_control = TimeControl(first_turn_ms=1000, turn_ms=50)
    codec = codec
    option_specs = (OptionSpec("height", 7, "rows", 2, 30), OptionSpec("width", 7, "columns", 2, 30),
                    OptionSpec("turns", 16, "turns in a game", 1, 1000))

    def new_state(self, seed: int, options: dict[str, Any]) -> NumberMazeState:
        return NumberMazeState.generate(seed, options["height"], options["width"], options["turns"])


GAME = NumberMaze()
