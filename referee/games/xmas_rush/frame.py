"""What the HTML replay viewer draws of an Xmas Rush position: plain JSON made by the rules."""
from __future__ import annotations

from typing import Any

from referee.games.xmas_rush.board import CELLS, DIRECTION_NAMES, item_name, item_owner
from referee.games.xmas_rush.rules import Move, Push, XmasRushState

DRAWING = "xmas_rush"


def frame(state: XmasRushState, before: XmasRushState | None = None,
          actions: dict[int, Any] | None = None) -> dict[str, Any]:
    """The position after a turn, with that turn's pushes or walked paths (``before``: the
    position the turn started from, ``actions``: the seats' parsed actions)."""
    items = sorted([cell, item_name(code), item_owner(code)]
                   for code, cell in state.item_cells().items())
    players = [{"cell": state.pos[seat], "score": state.score[seat],
                "quests": [item_name(code) for code in state.quests[seat]],
                "deck": len(state.decks[seat]), "hand": state.hands[seat] & 15}
               for seat in (0, 1)]
    data = {"tiles": [state.tile(cell) for cell in range(CELLS)], "items": items,
            "players": players}
    if before is not None:
        data["label"] = "PUSH" if before.is_push_turn() else "MOVE"
        data["marks"] = {str(seat): _mark(before, seat, action)
                         for seat, action in (actions or {}).items()}
    return data


def _mark(before: XmasRushState, seat: int, action: Push | Move) -> dict[str, Any]:
    if isinstance(action, Push):
        return {"push": [action.line, DIRECTION_NAMES[action.direction]]}
    path = [before.pos[seat]]
    for count in range(1, len(action.steps) + 1):
        cell = before.walk_target(seat, action.steps[:count])
        if cell == path[-1]:
            break                                   # the rules stop a move at its first wall
        path.append(cell)
    return {"path": path}
