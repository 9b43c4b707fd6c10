"""What the HTML replay viewer draws of an Othello position: plain JSON made by the rules."""
from __future__ import annotations

from typing import Any

from referee.games.othello.codec import board_lines
from referee.games.othello.rules import OthelloState

DRAWING = "othello"


def frame(state: OthelloState, before: OthelloState | None = None,
          actions: dict[int, Any] | None = None) -> dict[str, Any]:
    """Discs ('.', '0', '1' per square, a1 first), the last move, the side to move's moves."""
    data = {"board": "".join(board_lines(*state.boards)), "last": state.last_move,
            "to_move": None if state.over else state.to_move,
            "moves": state.legal_actions(), "discs": list(state.discs())}
    if before is not None:
        mover = before.to_move
        data["label"] = "black" if mover == 0 else "white"
        if not state.over and state.to_move == mover and actions:
            data["note"] = ("white" if mover == 0 else "black") + " has no move: passes"
    return data
