"""number_maze's protocol.

Initialization block (once): ``height width turns``.
Each turn: ``turnsLeft score``, then ``row col`` of the character, then ``height`` lines of
``width`` characters: ``#`` wall, ``.`` nothing, ``1``-``9`` points.
Answer: ``UP``, ``RIGHT``, ``DOWN`` or ``LEFT`` (into an open cell).
"""
from __future__ import annotations

from referee.games.maze import DIRECTIONS, MazeGrid, grid_lines, parse_direction, points_from_lines
from referee.games.number_maze.rules import NumberMazeState


def init_lines(state: NumberMazeState, seat: int) -> list[str]:
    return [f"{state.grid.height} {state.grid.width} {state.turns}"]


def turn_lines(state: NumberMazeState, seat: int) -> list[str]:
    row, col = divmod(state.cell, state.grid.width)
    return [f"{state.turns - state.turn} {state.score}", f"{row} {col}",
            *grid_lines(state.grid, state.points)]


def parse_action(state: NumberMazeState, seat: int, line: str) -> int:
    return parse_direction(state.grid, state.cell, line)


def action_text(direction: int) -> str:
    return DIRECTIONS[direction]


def state_from_lines(init: list[str], turn: list[str]) -> NumberMazeState:
    """The full state from the initialization line and one turn block (the game has no secrets)."""
    height, width, turns = map(int, init[0].split())
    turns_left, score = map(int, turn[0].split())
    row, col = map(int, turn[1].split())
    grid = MazeGrid(height, width)
    points = points_from_lines(turn[2:2 + height])
    return NumberMazeState(grid, points, row * width + col, turns, score, turns - turns_left)
