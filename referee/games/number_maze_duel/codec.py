"""number_maze_duel's protocol, always from the receiver's point of view.

Initialization block (once): ``height width turns``.
Each turn: ``turnsLeft``; ``myScore myRow myCol``; ``opponentScore opponentRow opponentCol``;
then ``height`` lines of ``width`` characters: ``#`` wall, ``.`` nothing, ``1``-``9`` points.
Answer: ``UP``, ``RIGHT``, ``DOWN`` or ``LEFT`` (into an open cell).
"""
from __future__ import annotations

from referee.games.maze import DIRECTIONS, MazeGrid, grid_lines, parse_direction, points_from_lines
from referee.games.number_maze_duel.rules import NumberMazeDuelState


def init_lines(state: NumberMazeDuelState, seat: int) -> list[str]:
    return [f"{state.grid.height} {state.grid.width} {state.turns}"]


def turn_lines(state: NumberMazeDuelState, seat: int) -> list[str]:
    width = state.grid.width
    lines = [str(state.turns - state.turn)]
    for who in (seat, 1 - seat):
        row, col = divmod(state.cells[who], width)
        lines.append(f"{state.score[who]} {row} {col}")
    return lines + grid_lines(state.grid, state.points)


def parse_action(state: NumberMazeDuelState, seat: int, line: str) -> int:
    return parse_direction(state.grid, state.cells[seat], line)


def action_text(direction: int) -> str:
    return DIRECTIONS[direction]


def state_from_lines(init: list[str], turn: list[str]) -> NumberMazeDuelState:
    """The state seen by the receiver, who is seat 0 in it (the game has no secrets)."""
    height, width, turns = map(int, init[0].split())
    turns_left = int(turn[0])
    score0, row0, col0 = map(int, turn[1].split())
    score1, row1, col1 = map(int, turn[2].split())
    grid = MazeGrid(height, width)
    points = points_from_lines(turn[3:3 + height])
    return NumberMazeDuelState(grid, points, [row0 * width + col0, row1 * width + col1], turns,
                               [score0, score1], turns - turns_left)
