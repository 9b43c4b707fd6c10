"""The greedy policy the Calculation bots share: where a card blocks the least.

A card's distance is how many cards its nearest foundation still needs before it (0: it fits
now). Putting a card on a pile makes every card below it that is needed sooner wait: the
policy takes the pile where that lateness (summed over those cards, in distance) is least,
then the tightest fit on the top card (the smallest distance gap, an empty pile counting as a
gap of ``empty_gap``; a top needed sooner is buried the later it is needed, the better), then
the shorter pile. Playing deals 0-499 alone, summed lateness placed 34.8 cards and won 7.4 %,
against 33.0 and 3.6 % when only the top card counted (the fit rule alone).
"""
from __future__ import annotations

from referee.games.calculation.rules import (
    FOUNDATIONS,
    FROM_WASTE,
    FULL_SIZE,
    SEQUENCES,
    TO_WASTE,
    CalculationState,
)

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
_PILE_SLOTS = 64        # key units: a longer pile never outweighs a better fit,
_FIT_SLOTS = 4 * FAR    # and a better fit never outweighs less lateness


def distance(card: int, foundations: list[int]) -> int:
    """Cards its nearest foundation must take before ``card`` (0 when it fits now)."""
    return min(GAP[f][size][card] for f, size in enumerate(foundations))


def waste_pile_for(card: int, foundations: list[int], wastes: list[list[int]],
                   empty_gap: int = EMPTY_GAP) -> int:
    """The waste pile where ``card`` blocks the least (see the module docstring).

    Keys, smallest best: first the lateness the card would cause (over the pile's cards needed
    sooner than it, how much sooner), then the fit on the top card (the distance gap; an empty
    pile counts ``empty_gap``, a top needed sooner ranks by how soon), then the pile's length.
    """
    row0, row1, row2, row3 = (GAP[0][foundations[0]], GAP[1][foundations[1]],
                              GAP[2][foundations[2]], GAP[3][foundations[3]])
    mine = min(row0[card], row1[card], row2[card], row3[card])
    best_pile, best_key = 0, 1 << 60
    for pile, cards in enumerate(wastes):
        if cards:
            lateness = 0
            for below_card in cards:
                below = min(row0[below_card], row1[below_card], row2[below_card], row3[below_card])
                if below < mine:
                    lateness += mine - below
            # ``below`` is now the top card's distance.
            fit = below - mine if below >= mine else 2 * FAR - below
            key = (lateness * _FIT_SLOTS + fit) * _PILE_SLOTS + len(cards)
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
