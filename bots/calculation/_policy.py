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

FAR = FULL_SIZE        # the distance of a card no foundation needs any more


def _gap_table() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """GAP[f][size][card]: cards foundation f of that size takes before ``card`` (FAR: never)."""
    table = []
    for f in range(FOUNDATIONS):
        position = {card: index for index, card in enumerate(SEQUENCES[f]) if index}
        table.append(tuple(tuple(position[card] - size - 1 if card and position[card] > size else FAR
                                 for card in range(FULL_SIZE + 1))
                           for size in range(FULL_SIZE + 1)))
    return tuple(table)


GAP = _gap_table()
_PILE_SLOTS = 64        # a key unit: longer piles never outweigh a better distance


def distance(card: int, foundations: list[int]) -> int:
    """Cards its nearest foundation must take before ``card`` (0 when it fits now)."""
    return min(GAP[f][size][card] for f, size in enumerate(foundations))


def waste_pile_for(card: int, foundations: list[int], wastes: list[list[int]],
                   empty_gap: int = EMPTY_GAP) -> int:
    """The waste pile where ``card`` blocks the least (see the module docstring).

    Keys, smallest best: a fit by its gap then the pile's length; an empty pile as a gap of
    ``empty_gap``; a top needed sooner after every fit, the later it is needed the better.
    """
    row0, row1, row2, row3 = (GAP[0][foundations[0]], GAP[1][foundations[1]],
                              GAP[2][foundations[2]], GAP[3][foundations[3]])
    mine = min(row0[card], row1[card], row2[card], row3[card])
    best_pile, best_key = 0, 1 << 30
    for pile, cards in enumerate(wastes):
        if cards:
            top = cards[-1]
            below = min(row0[top], row1[top], row2[top], row3[top])
            if below >= mine:
                key = (below - mine) * _PILE_SLOTS + len(cards)
            else:
                key = (2 * FAR - below) * _PILE_SLOTS + len(cards)
        else:
            key = empty_gap * _PILE_SLOTS
        if key < best_key:
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
