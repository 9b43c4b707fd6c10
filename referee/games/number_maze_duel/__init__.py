"""number_maze_duel: seed 003's simultaneous two-player number maze."""
from __future__ import annotations

from typing import Any

from referee.api import Game, OptionSpec, TimeControl, TurnOrder
from referee.games.number_maze_duel import codec
from referee.games.number_maze_duel.rules import NumberMazeDuelState


class NumberMazeDuel(Game):
    name = "number_maze_duel"
    description = "Simultaneous two-player number maze, mirrored; both collect a cell stepped on together"
    turn_order = TurnOrder.SIMULTANEOUS
    seats = (2, 2)
    time_control = TimeControl(first_turn_ms=1000, turn_ms=50)
    codec = codec
    option_specs = (OptionSpec("height", 5, "rows", 2, 30), OptionSpec("width", 5, "columns", 2, 30),
                    OptionSpec("turns", 20, "turns in a game", 1, 1000))

    def new_state(self, seed: int, options: dict[str, Any]) -> NumberMazeDuelState:
        return NumberMazeDuelState.generate(seed, options["height"], options["width"], options["turns"])


GAME = NumberMazeDuel()
