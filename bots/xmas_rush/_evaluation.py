"""The Xmas Rush evaluation the search bots share: reachability of quest items, normalized to [0, 1].

A seat's *material* (in quest units) counts what it has and what the board offers it:

- 1 per quest completed;
- ``REACHABLE`` per revealed quest item it can walk to now (the next MOVE collects it);
- ``ON_HAND`` per revealed quest item on its own hand tile (its next push can place it);
- up to ``NEAR`` per revealed quest item out of reach, less the nearer it is (Manhattan steps
  from the reachable area);
- ``AREA`` times the share of the board it can reach (room to manoeuvre).

The value for a seat is the logistic, over ``SCALE`` quests, of what it gained since the search's
root (``Evaluation(root)``) measured as its lead's gain plus ``PROGRESS`` times its own gain: the
root is worth 0.5 and UCB1's constant sees differences of the size searches produce. On the lead
alone, a push that helps both players as much as the opponent's (or none at all) scores like a
push that changes nothing, and two such bots block each other's line until the ten-stale-turns
draw; the progress term breaks that tie towards moving on. Values are in [0, 1].
"""
from __future__ import annotations

import math

from bots.xmas_rush._model import RINGS, SearchState
from referee.games.xmas_rush.board import reachable
from referee.games.xmas_rush.rules import HAND

REACHABLE = 0.6
ON_HAND = 0.25
NEAR = 0.2
AREA = 0.1
SCALE = 0.5
PROGRESS = 0.5
FAR = 12                        # Manhattan steps beyond which an item out of reach earns nothing


# per distance from an item out of reach: what reaching that close to it is worth
_NEAR_BONUS = tuple(NEAR * max(FAR - distance, 0) / FAR for distance in range(2 * 7 - 1))


def material(state: SearchState, seat: int) -> float:
    """The seat's material in quest units (see the module docstring)."""
    east, south = state.connections()
    reach = reachable(east, south, state.pos[seat])
    value = state.score[seat] + AREA / 49 * reach.bit_count()
    for cell in state.quest_cells[seat]:
        if cell >= 0:
            if reach >> cell & 1:
                value += REACHABLE
            else:
                distance = 0
                for ring in RINGS[cell]:
                    if reach & ring:
                        value += _NEAR_BONUS[distance]
                        break
                    distance += 1
        elif cell == HAND[seat]:
            value += ON_HAND
    return value


def lead(state: SearchState) -> float:
    """Seat 0's material minus seat 1's."""
    return material(state, 0) - material(state, 1)


def ranked_pushes(state: SearchState, seat: int) -> list[int]:
    """The 28 push codes, best first by the seat's material after its push alone (ties: code
    order): the order in which a search whose time may run out should look at them."""
    values = []
    for code in range(28):
        child = state.clone()
        child.push(seat, code)
        child.collect_under()
        values.append((-material(child, seat), code))
    values.sort()
    return [code for _, code in values]


class Evaluation:
    """``evaluation(state, seat)`` in [0, 1]: the logistic of what the seat gained since ``root``
    (see the module docstring).

    Remembers the last position it scored, because searches ask for both seats in a row.
    """

    __slots__ = ("base", "scale", "progress", "_last", "_last_key", "_last_gains")

    def __init__(self, root: SearchState | None = None, scale: float = SCALE,
                 progress: float = PROGRESS) -> None:
        self.base = (material(root, 0), material(root, 1)) if root is not None else (0.0, 0.0)
        self.scale = scale
        self.progress = progress
        self._last = None
        self._last_key = None
        self._last_gains = (0.0, 0.0)

    def __call__(self, state: SearchState, seat: int) -> float:
        key = (state.board, state.pos)     # the board changes with every push and collection
        if state is self._last and key == self._last_key:
            gains = self._last_gains
        else:
            gains = (material(state, 0) - self.base[0], material(state, 1) - self.base[1])
            self._last, self._last_key, self._last_gains = state, key, gains
        mine, theirs = (gains[1], gains[0]) if seat else gains
        exponent = -(mine - theirs + self.progress * mine) / self.scale
        if exponent > 60:
            return 0.0
        return 1.0 / (1.0 + math.exp(exponent))


__all__ = ["Evaluation", "lead", "material", "ranked_pushes"]
