"""Calculation (seed 004): the one-player patience; the stock order is hidden from the bot."""
from __future__ import annotations

from typing import Any

from referee.api import Game, TimeControl, TurnOrder
from referee.games.calculation import codec
from referee.games.calculation.rules import CalculationState


class Calculation(Game):
    name = "calculation"
    description = ("One-player patience (Keisan): foundations build by +1..+4 to K via 4 waste piles; "
                   "score = cards on foundations (52 = won)")
    turn_order = TurnOrder.SINGLE
    seats = (1, 1)
    time_control = TimeControl(first_turn_ms=1000, turn_ms=100)
    codec = codec

    def new_state(self, seed: int, options: dict[str, Any]) -> CalculationState:
        return CalculationState.deal(seed)


GAME = Calculation()
