"""What the HTML replay viewer draws of a number maze duel: plain JSON made by the rules."""
from __future__ import annotations

from typing import Any

from referee.games.maze import grid_lines
from referee.games.number_maze_duel.rules import NumberMazeDuelState

DRAWING = "number_maze"            # the same picture as number_maze, with two characters


def frame(state: NumberMazeDuelState, before: NumberMazeDuelState | None = None,
          actions: dict[int, Any] | None = None) -> dict[str, Any]:
    """Rows ('#' wall, '.' empty, '1'-'9' points), both characters' cells and scores, where from."""
    data = {"rows": grid_lines(state.grid, state.points), "cells": list(state.cells),
            "scores": list(state.score), "turns_left": state.turns - state.turn}
    if before is not None:
        data["from"] = list(before.cells)
    return data
