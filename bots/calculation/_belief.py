"""What the Calculation bots search: the deal as the player knows it, or one guess at the stock.

- ``Belief``: the unseen cards are counts, and turning the next card is a chance step (the
  ``bots.search.chance`` interface) whose outcomes are the ranks still unseen, each with
  probability count / cards left. Waste placements onto identical piles are listed once (in both classes).
- ``Deal``: a determinized deal, the unseen cards in one guessed stock order.

Both share ``build_first_playout``: waste tops and the current card go onto a foundation
whenever one takes them, any other current card onto a uniformly random waste pile or, with
a set probability, onto the greedy policy's pile (``bots.calculation._policy``).
"""
from __future__ import annotations

import functools

from bots.calculation._policy import waste_pile_for
from referee.games.calculation.rules import (
    DECK_SIZE,
    FOUNDATIONS,
    NEEDS,
    TO_WASTE,
    WASTE_PILES,
    CalculationState,
)


def distinct_actions(state: CalculationState) -> list[int]:
    """The rules' actions, with one waste placement per distinct pile (equal piles are equivalent)."""
    actions = []
    seen = []
    for action in CalculationState.legal_actions(state):
        if TO_WASTE <= action < TO_WASTE + WASTE_PILES:
            pile = state.wastes[action - TO_WASTE]
            if pile in seen:
                continue
            seen.append(pile)
        actions.append(action)
    return actions


class Belief(CalculationState):
    __slots__ = ("counts", "left")

    @classmethod
    def of(cls, state: CalculationState) -> Belief:
        belief = cls.__new__(cls)
        belief.foundations = state.foundations[:]
        belief.wastes = [pile[:] for pile in state.wastes]
        belief.current = state.current
        belief.stock = []
        belief.turn = state.turn
        belief.counts = state.unseen_counts()
        belief.left = sum(belief.counts)
        return belief

    def clone(self) -> Belief:
        other = CalculationState.clone(self)
        other.counts = self.counts[:]
        other.left = self.left
        return other

    def legal_actions(self, seat: int = 0) -> list[int]:
        return distinct_actions(self)

    def is_chance(self) -> bool:
        return self.current == 0 and self.left > 0

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self.left
        return [(rank, count / left) for rank, count in enumerate(self.counts) if count]

    def apply_chance(self, rank: int) -> None:
        self.current = rank
        self.counts[rank] -= 1
        self.left -= 1

    def play(self, action: int) -> None:
        self.place(action)             # the next card is turned by a chance step

    def apply(self, actions) -> None:
        self.place(actions[0])

    def is_over(self) -> bool:
        return self.left == 0 and CalculationState.is_over(self)

    def unseen_list(self) -> list[int]:
        return [rank for rank, count in enumerate(self.counts) for _ in range(count)]


class Deal(CalculationState):
    """One determinized deal: the visible position with the unseen cards in a guessed order."""

    __slots__ = ()

    def legal_actions(self, seat: int = 0) -> list[int]:
        return distinct_actions(self)

    @classmethod
    def guess(cls, belief: Belief, rng) -> Deal:
        deal = cls.__new__(cls)
        deal.foundations = belief.foundations[:]
        deal.wastes = [pile[:] for pile in belief.wastes]
        deal.current = belief.current
        deal.stock = belief.unseen_list()
        rng.shuffle(deal.stock)
        deal.turn = belief.turn
        return deal


def build_first_playout(state: CalculationState, rng, max_turns: int | None = None,
                        greedy_share: float = 0.0) -> None:
    """Finish the deal building whenever possible (``max_turns`` is ignored). Mutates ``state``.

    A card that fits nowhere goes onto the greedy policy's waste pile with probability
    ``greedy_share``, else onto a uniformly random one. A ``Belief`` draws its unseen cards
    in a random order; any other state takes its stock as it is.
    """
    if isinstance(state, Belief):
        cards = state.unseen_list()
        rng.shuffle(cards)
        state.counts = [0] * len(state.counts)
        state.left = 0
    else:
        cards = state.stock
    rand = rng.random
    foundations, wastes = state.foundations, state.wastes
    needs = [NEEDS[f][foundations[f]] for f in range(FOUNDATIONS)]
    current = state.current
    while True:
        moved = True
        while moved:
            moved = False
            for pile in wastes:
                if pile and pile[-1] in needs:
                    f = needs.index(pile.pop())
                    foundations[f] += 1
                    needs[f] = NEEDS[f][foundations[f]]
                    moved = True
        if not current:
            if not cards:
                break
            current = cards.pop()
        if current in needs:
            f = needs.index(current)
            foundations[f] += 1
            needs[f] = NEEDS[f][foundations[f]]
        elif greedy_share and rand() < greedy_share:
            wastes[waste_pile_for(current, foundations, wastes)].append(current)
        else:
            wastes[int(rand() * WASTE_PILES)].append(current)
        current = 0
    state.current = 0


def playout_with(greedy_share: float):
    """The library's ``playout(state, rng, max_turns)`` hook for a given ``greedy_share``."""
    if not greedy_share:
        return build_first_playout
    return functools.partial(build_first_playout, greedy_share=greedy_share)


def placed_fraction(state: CalculationState, seat: int = 0) -> float:
    return state.placed() / DECK_SIZE


def won(state: CalculationState, seat: int = 0) -> float:
    return 1.0 if state.placed() == DECK_SIZE else 0.0
