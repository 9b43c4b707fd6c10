"""Number maze duel (seed 003's simultaneous game): two characters collect points at once.

The maze is mirrored left-right and so are the starts. Both move every turn; a cell's
points go to whoever steps on it, to both if both step on it in the same turn. After
``turns`` turns the higher score wins. Stdlib only; search code uses it directly.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from referee.games.maze import MazeGrid, random_points


class NumberMazeDuelState:
    __slots__ = ("grid", "points", "cells", "score", "turn", "turns")

    def __init__(self, grid: MazeGrid, points: list[int], cells: list[int], turns: int,
                 score: list[int] | None = None, turn: int = 0):
        self.grid = grid
        self.points = points
        self.cells = cells
        self.turns = turns
        self.score = score if score is not None else [0, 0]
        self.turn = turn

    @classmethod
    def generate(cls, seed: int, height: int, width: int, turns: int) -> NumberMazeDuelState:
        rng = random.Random(seed)
        grid = MazeGrid(height, width)
        points = random_points(grid, rng, mirrored=True)
        left = [cell for cell in grid.open_cells() if cell % width < width // 2]
        start = rng.choice(left)
        row, col = divmod(start, width)
        cells = [start, row * width + width - 1 - col]
        for cell in cells:
            points[cell] = 0
        return cls(grid, points, cells, turns)

    def clone(self) -> NumberMazeDuelState:
        return NumberMazeDuelState(self.grid, self.points[:], self.cells[:], self.turns,
                                   self.score[:], self.turn)

    def acting_seats(self) -> tuple[int, int]:
        return (0, 1)

    def legal_actions(self, seat: int) -> tuple[int, ...]:
        return self.grid.moves[self.cells[seat]]

    def step(self, direction0: int, direction1: int) -> None:
        """Unchecked simultaneous move (search code uses this)."""
        targets = self.grid.targets
        points = self.points
        cell0 = targets[self.cells[0]][direction0]
        cell1 = targets[self.cells[1]][direction1]
        self.cells[0] = cell0
        self.cells[1] = cell1
        self.score[0] += points[cell0]
        self.score[1] += points[cell1]
        points[cell0] = 0
        points[cell1] = 0
        self.turn += 1

    def apply(self, actions: Sequence[int]) -> None:
        self.step(actions[0], actions[1])

    def is_over(self) -> bool:
        return self.turn >= self.turns

    def scores(self) -> tuple[float, float]:
        return (float(self.score[0]), float(self.score[1]))

    def end_reason(self) -> str:
        return "turn limit" if self.is_over() else ""
