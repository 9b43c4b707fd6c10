"""What the two number mazes share: the grid, its walls, its points, moves and the text form.

Walls are the pillars at odd (row, col), so every open cell is connected and has an open
neighbour. Cells are numbered ``row * width + col``; a direction is 0 UP, 1 RIGHT, 2 DOWN, 3 LEFT.
"""
from __future__ import annotations

import random

from referee.api import InvalidAction

DIRECTIONS = ("UP", "RIGHT", "DOWN", "LEFT")
DIRECTION_INDEX = {name: index for index, name in enumerate(DIRECTIONS)}
MIRRORED_DIRECTION = (0, 3, 2, 1)       # the same move seen in a left-right mirror


class MazeGrid:
    """The static part of a maze: size, walls, and for each cell its legal moves."""

    __slots__ = ("height", "width", "walls", "moves", "targets")

    def __init__(self, height: int, width: int):
        self.height = height
        self.width = width
        self.walls = frozenset(row * width + col for row in range(1, height, 2)
                               for col in range(1, width, 2))
        self.moves: list[tuple[int, ...]] = []      # per cell: the legal directions
        self.targets: list[tuple[int, ...]] = []    # per cell: the cell each direction leads to, or -1
        steps = ((-1, 0), (0, 1), (1, 0), (0, -1))
        for cell in range(height * width):
            row, col = divmod(cell, width)
            targets = []
            for d_row, d_col in steps:
                r, c = row + d_row, col + d_col
                inside = 0 <= r < height and 0 <= c < width and r * width + c not in self.walls
                targets.append(r * width + c if inside else -1)
            self.targets.append(tuple(targets))
            self.moves.append(tuple(d for d, target in enumerate(targets) if target >= 0))

    def open_cells(self) -> list[int]:
        return [cell for cell in range(self.height * self.width) if cell not in self.walls]


def random_points(grid: MazeGrid, rng: random.Random, mirrored: bool) -> list[int]:
    """Points 0-9 on every open cell (walls hold 0); mirrored left-right when asked."""
    points = [0] * (grid.height * grid.width)
    for cell in grid.open_cells():
        row, col = divmod(cell, grid.width)
        if mirrored and col >= (grid.width + 1) // 2:
            points[cell] = points[row * grid.width + grid.width - 1 - col]
        else:
            points[cell] = rng.randrange(10)
    return points


def grid_lines(grid: MazeGrid, points: list[int]) -> list[str]:
    """One line per row: '#' wall, '.' no points, '1'-'9' points."""
    lines = []
    walls = grid.walls
    for row in range(grid.height):
        base = row * grid.width
        lines.append("".join("#" if base + col in walls else (str(points[base + col]) if points[base + col]
                                                                else ".") for col in range(grid.width)))
    return lines


def points_from_lines(lines: list[str]) -> list[int]:
    """The points of every cell, row after row, from grid lines (walls and '.' hold 0)."""
    return [0 if char in "#." else int(char) for line in lines for char in line]


def parse_direction(grid: MazeGrid, cell: int, line: str) -> int:
    word = line.strip()
    if word not in DIRECTION_INDEX:
        raise InvalidAction(f"expected UP, RIGHT, DOWN or LEFT, got {line!r}")
    direction = DIRECTION_INDEX[word]
    if grid.targets[cell][direction] < 0:
        raise InvalidAction(f"{word} from row {cell // grid.width} col {cell % grid.width} "
                            "runs into a wall or off the board")
    return direction
