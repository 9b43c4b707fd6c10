"""Reading Calculation's protocol in a bot."""
from __future__ import annotations

from bots.runtime import read_line, read_lines
from referee.games.calculation.codec import state_from_lines
from referee.games.calculation.rules import FOUNDATIONS, WASTE_PILES, CalculationState


def read_init() -> None:
    foundations, piles = map(int, read_line().split())
    if (foundations, piles) != (FOUNDATIONS, WASTE_PILES):
        raise SystemExit(f"{foundations} foundations and {piles} waste piles are not supported")


def read_turn() -> CalculationState:
    """The visible position; its stock is the unseen cards in sorted (not the real) order."""
    return state_from_lines(read_lines(1 + FOUNDATIONS + WASTE_PILES))
