"""What the HTML replay viewer draws of a Calculation deal: plain JSON made by the rules."""
from __future__ import annotations

from typing import Any

from referee.games.calculation.codec import action_text
from referee.games.calculation.rules import FOUNDATIONS, FROM_WASTE, SEQUENCES, CalculationState

DRAWING = "calculation"


def frame(state: CalculationState, before: CalculationState | None = None,
          actions: dict[int, Any] | None = None) -> dict[str, Any]:
    """Foundations (size, top card, next card), waste piles, the card turned up, cards unturned."""
    data = {"foundations": [{"size": size, "top": SEQUENCES[f][size], "next": need}
                            for f, (size, need) in enumerate(zip(state.foundations, state.needs()))],
            "wastes": [list(cards) for cards in state.wastes], "current": state.current,
            "stock": len(state.stock), "placed": state.placed()}
    if before is not None and actions:
        data["label"] = action_text(actions[0]).split()[0]
        data["action"] = action_text(actions[0])
        action = actions[0]
        data["played"] = before.current if action < FROM_WASTE else \
            before.wastes[(action - FROM_WASTE) // FOUNDATIONS][-1]
    return data
