"""Calculation (計算), the one-player card patience. Stdlib only: the referee and the bots share it.

Suits never matter, so a card is its rank: 1 (ace) to 13 (king), four of each. An ace, a 2, a 3
and a 4 start the four foundations, which build by +1, +2, +3 and +4 modulo 13 up to a king:

    foundation 0:  A 2 3 4 5 6 7 8 9 10 J Q K
    foundation 1:  2 4 6 8 10 Q A 3 5 7 9 J K
    foundation 2:  3 6 9 Q 2 5 8 J A 4 7 10 K
    foundation 3:  4 8 Q 3 7 J 2 6 10 A 5 9 K

The other 48 cards, shuffled, form the stock. Its top card (the current card) goes onto a
foundation where it fits or onto any of four waste piles, and then the next card is turned.
The top card of a waste pile may move onto a foundation where it fits at any time. The game
ends when the stock is spent and no waste top fits; it is won with all 52 cards on the
foundations. Score: cards on the foundations (4 to 52).

Actions are small ints: ``f`` (0-3) builds the current card on foundation ``f``; ``4 + w`` puts
it on waste pile ``w``; ``8 + 4 * w + f`` moves the top of waste pile ``w`` to foundation ``f``.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

RANKS = 13
FOUNDATIONS = 4
WASTE_PILES = 4
FULL_SIZE = 13                       # cards on a finished foundation
DECK_SIZE = 52
TO_WASTE = 4                         # first action that puts the current card on a waste pile
FROM_WASTE = 8                       # first action that moves a waste top to a foundation


def foundation_card(foundation: int, position: int) -> int:
    """The rank of the ``position``-th card (1-based) of foundation ``foundation`` (step f + 1)."""
    return (foundation + 1) * position % RANKS or RANKS


# SEQUENCES[f][k]: the k-th card of foundation f (1-based); NEEDS[f][size]: the card that fits
# next on a foundation of that size (0 once it is complete).
SEQUENCES = tuple(tuple(foundation_card(f, k) for k in range(FULL_SIZE + 1)) for f in range(FOUNDATIONS))
NEEDS = tuple(tuple(SEQUENCES[f][size + 1] if size < FULL_SIZE else 0 for size in range(FULL_SIZE + 1))
              for f in range(FOUNDATIONS))
BASES = tuple(SEQUENCES[f][1] for f in range(FOUNDATIONS))        # A, 2, 3, 4


def build_action(foundation: int) -> int:
    return foundation


def waste_action(pile: int) -> int:
    return TO_WASTE + pile


def move_action(pile: int, foundation: int) -> int:
    return FROM_WASTE + FOUNDATIONS * pile + foundation


def new_stock(seed: int) -> list[int]:
    """The 48 stock cards shuffled by ``seed``; the last one is turned first."""
    cards = [rank for rank in range(1, RANKS + 1) for _ in range(4)]
    for base in BASES:
        cards.remove(base)
    random.Random(seed).shuffle(cards)
    return cards


class CalculationState:
    """A deal in progress. ``stock`` holds the unturned cards, next one last (hidden from bots)."""

    __slots__ = ("foundations", "wastes", "current", "stock", "turn")

    def __init__(self, stock: list[int], foundations: list[int] | None = None,
                 wastes: list[list[int]] | None = None, current: int | None = None, turn: int = 0):
        self.foundations = foundations if foundations is not None else [1] * FOUNDATIONS
        self.wastes = wastes if wastes is not None else [[] for _ in range(WASTE_PILES)]
        self.stock = stock
        self.current = current if current is not None else (stock.pop() if stock else 0)
        self.turn = turn

    @classmethod
    def deal(cls, seed: int) -> CalculationState:
        return cls(new_stock(seed))

    def clone(self) -> CalculationState:
        other = type(self).__new__(type(self))
        other.foundations = self.foundations[:]
        other.wastes = [pile[:] for pile in self.wastes]
        other.current = self.current
        other.stock = self.stock[:]
        other.turn = self.turn
        return other

    def needs(self) -> list[int]:
        """The card each foundation takes next (0 for a complete one)."""
        return [NEEDS[f][size] for f, size in enumerate(self.foundations)]

    # -- the State interface --------------------------------------------------
    def acting_seats(self) -> tuple[int, ...]:
        return () if self.is_over() else (0,)

    def legal_actions(self, seat: int = 0) -> list[int]:
        needs = self.needs()
        actions: list[int] = []
        current = self.current
        if current:
            actions.extend(f for f in range(FOUNDATIONS) if needs[f] == current)
            actions.extend(range(TO_WASTE, TO_WASTE + WASTE_PILES))
        for pile, cards in enumerate(self.wastes):
            if cards:
                top = cards[-1]
                actions.extend(FROM_WASTE + FOUNDATIONS * pile + f
                               for f in range(FOUNDATIONS) if needs[f] == top)
        return actions

    def is_legal(self, action: int) -> bool:
        if action < TO_WASTE:
            return (0 <= action and self.current != 0
                    and NEEDS[action][self.foundations[action]] == self.current)
        if action < FROM_WASTE:
            return self.current != 0
        pile, foundation = divmod(action - FROM_WASTE, FOUNDATIONS)
        if pile >= WASTE_PILES or not self.wastes[pile]:
            return False
        return NEEDS[foundation][self.foundations[foundation]] == self.wastes[pile][-1]

    def place(self, action: int) -> bool:
        """Unchecked move without turning a card; True if it used the current card (turn one next)."""
        self.turn += 1
        if action < TO_WASTE:
            self.foundations[action] += 1
            self.current = 0
            return True
        if action < FROM_WASTE:
            self.wastes[action - TO_WASTE].append(self.current)
            self.current = 0
            return True
        pile, foundation = divmod(action - FROM_WASTE, FOUNDATIONS)
        self.wastes[pile].pop()
        self.foundations[foundation] += 1
        return False

    def play(self, action: int) -> None:
        """Unchecked move; turns the next stock card when the current one was used."""
        if self.place(action):
            self.current = self.stock.pop() if self.stock else 0

    def apply(self, actions: Sequence[int]) -> None:
        self.play(actions[0])

    def is_over(self) -> bool:
        if self.current:
            return False
        needs = self.needs()
        return not any(cards and cards[-1] in needs for cards in self.wastes)

    def placed(self) -> int:
        return sum(self.foundations)

    def is_won(self) -> bool:
        return self.placed() == DECK_SIZE

    def scores(self) -> tuple[float]:
        return (float(self.placed()),)

    def end_reason(self) -> str:
        if not self.is_over():
            return ""
        return "won: all 52 cards on the foundations" if self.is_won() else \
            f"stuck with {DECK_SIZE - self.placed()} cards off the foundations"

    # -- what a player can know -----------------------------------------------
    def unseen_counts(self) -> list[int]:
        """How many cards of each rank (index 1-13) are still unturned, from the visible cards only."""
        counts = [0] + [4] * RANKS
        for f, size in enumerate(self.foundations):
            for position in range(1, size + 1):
                counts[SEQUENCES[f][position]] -= 1
        for cards in self.wastes:
            for card in cards:
                counts[card] -= 1
        if self.current:
            counts[self.current] -= 1
        return counts

    def unseen_cards(self) -> list[int]:
        """The unturned cards as a sorted list (their order is what a player cannot know)."""
        counts = self.unseen_counts()
        return [rank for rank in range(1, RANKS + 1) for _ in range(counts[rank])]

    def determinized(self, rng: random.Random) -> CalculationState:
        """A copy whose stock is a random order of the unseen cards (a guess at the hidden stock)."""
        other = self.clone()
        other.stock = self.unseen_cards()
        rng.shuffle(other.stock)
        return other
