"""What the HTML replay viewer draws of a number maze: plain JSON made by the rules."""
from __future__ import annotations

from typing import Any

from referee.games.maze import grid_lines
from referee.games.number_maze.rules import NumberMazeState

DRAWING = "number_maze"


def frame(state: NumberMazeState, before: NumberMazeState | None = None,
          actions: dict[int, Any] | None = None) -> dict[str, Any]:
    """Rows ('#' wall, '.' empty, '1'-'9' points), the character's cell and score, where it came from."""
    data = {"rows": grid_lines(state.grid, state.points), "cells": [state.cell],
            "scores": [state.score], "turns_left": state.turns - state.turn}
    if before is not None:
        data["from"] = [before.cell]
    return data
