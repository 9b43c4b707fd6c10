"""The greedy policy the Calculation bots share: where a card blocks the least.

A card's distance is how many cards its nearest foundation still needs before it (0: it fits
now). A card may go on a pile whose top is needed no sooner than itself; among those the
policy takes the tightest fit (the smallest distance gap), an empty pile counting as a gap of
``empty_gap``. When every top is needed sooner, it buries the top that is needed last.
"""
from __future__ import annotations

from referee.games.calculation.rules import (FOUNDATIONS, FROM_WASTE, FULL_SIZE, SEQUENCES, TO_WASTE,
                                             CalculationState)

EMPTY_GAP = 4

# POSITION[f][card]: where the card sits in foundation f's sequence (1 to 13).
POSITION = tuple({card: position for position, card in enumerate(SEQUENCES[f]) if position}
                 for f in range(FOUNDATIONS))
FAR = FULL_SIZE        # the distance of a card no foundation needs any more


def distance(card: int, foundations: list[int]) -> int:
    """Cards its nearest foundation must take before ``card`` (0 when it fits now)."""
    best = FAR
    for f in range(FOUNDATIONS):
        gap = POSITION[f][card] - foundations[f] - 1
        if 0 <= gap < best:
            best = gap
    return best


def waste_pile_for(card: int, foundations: list[int], wastes: list[list[int]],
                   empty_gap: int = EMPTY_GAP) -> int:
    """The waste pile where ``card`` blocks the least (see the module docstring)."""
    mine = distance(card, foundations)
    best_pile, best_key = 0, None
    for pile, cards in enumerate(wastes):
        if not cards:
            key = (0, empty_gap, 0)
        else:
            below = distance(cards[-1], foundations)
            if below >= mine:
                key = (0, below - mine, len(cards))
            else:
                key = (1, -below, len(cards))
        if best_key is None or key < best_key:
            best_pile, best_key = pile, key
    return best_pile


def greedy_action(state: CalculationState, empty_gap: int = EMPTY_GAP) -> int:
    """A waste-to-foundation move, else building the current card, else the best waste pile."""
    actions = state.legal_actions()
    for action in actions:
        if action >= FROM_WASTE:
            return action
    for action in actions:
        if action < TO_WASTE:
            return action
    return TO_WASTE + waste_pile_for(state.current, state.foundations, state.wastes, empty_gap)
