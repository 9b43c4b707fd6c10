"""Tic-tac-toe rules on two 9-bit boards. Seat 0 moves first. Stdlib only.

Cells are numbered ``row * 3 + col``; an action is a cell number.
"""
from __future__ import annotations

from collections.abc import Sequence

LINES = (0b000000111, 0b000111000, 0b111000000, 0b001001001,
         0b010010010, 0b100100100, 0b100010001, 0b001010100)
FULL = 0b111111111


def has_line(board: int) -> bool:
    for line in LINES:
        if board & line == line:
            return True
    return False


class TicTacToeState:
    __slots__ = ("boards", "to_move", "turn", "last_move", "winner")

    def __init__(self) -> None:
        self.boards = [0, 0]
        self.to_move = 0
        self.turn = 0
        self.last_move = -1
        self.winner: int | None = None

    def clone(self) -> TicTacToeState:
        other = TicTacToeState.__new__(TicTacToeState)
        other.boards = self.boards[:]
        other.to_move = self.to_move
        other.turn = self.turn
        other.last_move = self.last_move
        other.winner = self.winner
        return other

    def acting_seats(self) -> tuple[int, ...]:
        return (self.to_move,)

    def legal_actions(self, seat: int | None = None) -> list[int]:
        taken = self.boards[0] | self.boards[1]
        return [cell for cell in range(9) if not taken >> cell & 1]

    def play(self, cell: int) -> None:
        """Unchecked fast move for the side to move (search code uses this)."""
        seat = self.to_move
        board = self.boards[seat] | 1 << cell
        self.boards[seat] = board
        self.last_move = cell
        self.turn += 1
        if has_line(board):
            self.winner = seat
        self.to_move = 1 - seat

    def apply(self, actions: Sequence[int]) -> None:
        self.play(actions[0])

    def is_over(self) -> bool:
        return self.winner is not None or (self.boards[0] | self.boards[1]) == FULL

    def scores(self) -> tuple[float, float]:
        if self.winner is None:
            return (0.5, 0.5) if self.is_over() else (0.0, 0.0)
        return (1.0, 0.0) if self.winner == 0 else (0.0, 1.0)

    def end_reason(self) -> str:
        if self.winner is not None:
            return "three in a row"
        return "board full" if self.is_over() else ""
