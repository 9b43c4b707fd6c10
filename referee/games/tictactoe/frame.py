"""What the HTML replay viewer draws of a tic-tac-toe position: plain JSON made by the rules."""
from __future__ import annotations

from typing import Any

from referee.games.tictactoe.rules import LINES, TicTacToeState

DRAWING = "tictactoe"


def frame(state: TicTacToeState, before: TicTacToeState | None = None,
          actions: dict[int, Any] | None = None) -> dict[str, Any]:
    """Marks ('.', '0', '1' per cell, row by row), the last move, the winning line's cells."""
    cells = "".join("0" if state.boards[0] >> cell & 1 else "1" if state.boards[1] >> cell & 1
                    else "." for cell in range(9))
    winning = [cell for line in LINES if state.winner is not None
               and state.boards[state.winner] & line == line for cell in range(9) if line >> cell & 1]
    data = {"cells": cells, "last": state.last_move, "line": winning[:3]}
    if before is not None:
        data["label"] = "X" if before.to_move == 0 else "O"
    return data
