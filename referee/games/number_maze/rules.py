"""Number maze (seed 003's one-player game): collect the most points in a fixed number of turns.

One character moves UP/RIGHT/DOWN/LEFT onto an open cell each turn and takes the
cell's points (1-9), which then disappear. Stdlib only; search code uses it directly.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from referee.games.maze import MazeGrid, random_points


class NumberMazeState:
    __slots__ = ("grid", "points", "cell", "score", "turn", "turns")

    def __init__(self, grid: MazeGrid, points: list[int], cell: int, turns: int,
                 score: int = 0, turn: int = 0):
        self.grid = grid
        self.points = points
        self.cell = cell
        self.turns = turns
        self.score = score
        self.turn = turn

    @classmethod
    def generate(cls, seed: int, height: int, width: int, turns: int) -> NumberMazeState:
        rng = random.Random(seed)
        grid = MazeGrid(height, width)
        points = random_points(grid, rng, mirrored=False)
        cell = rng.choice(grid.open_cells())
        points[cell] = 0
        return cls(grid, points, cell, turns)

    def clone(self) -> NumberMazeState:
        return NumberMazeState(self.grid, self.points[:], self.cell, self.turns, self.score, self.turn)

    def acting_seats(self) -> tuple[int, ...]:
        return (0,)

    def legal_actions(self, seat: int = 0) -> tuple[int, ...]:
        return self.grid.moves[self.cell]

    def step(self, direction: int) -> None:
        """Unchecked move (search code uses this)."""
        cell = self.grid.targets[self.cell][direction]
        self.cell = cell
        self.score += self.points[cell]
        self.points[cell] = 0
        self.turn += 1

    def apply(self, actions: Sequence[int]) -> None:
        self.step(actions[0])

    def is_over(self) -> bool:
        return self.turn >= self.turns

    def scores(self) -> tuple[float]:
        return (float(self.score),)

    def end_reason(self) -> str:
        return "turn limit" if self.is_over() else ""
