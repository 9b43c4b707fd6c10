"""The Othello evaluation the minimax family and the cut-off playouts share.

``heuristic(mine, theirs, my_moves, their_moves)`` scores a position for the side owning
``mine`` as a weighted sum of three terms:

- positional: the classic square weights below (X-squares next to a corner -50, C-squares -20,
  edges +5/+10, centre -1/-2), mine minus theirs;
- mobility: legal moves, mine minus theirs, times ``mobility_weight`` (default 5);
- corners: corner discs, mine minus theirs, times ``corner_weight`` (default 100; the square
  table gives corners 0 so this term alone prices them).

``Evaluation.value(state, seat)`` maps it into (0, 1) with a logistic curve for the search
library, where a finished game is worth exactly 1, 0.5 or 0 and so outranks any position.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from referee.games.othello.rules import OthelloState, legal_moves, squares_of

SQUARE_WEIGHTS = (
    0, -20, 10, 5, 5, 10, -20, 0,
    -20, -50, -2, -2, -2, -2, -50, -20,
    10, -2, -1, -1, -1, -1, -2, 10,
    5, -2, -1, -1, -1, -1, -2, 5,
    5, -2, -1, -1, -1, -1, -2, 5,
    10, -2, -1, -1, -1, -1, -2, 10,
    -20, -50, -2, -2, -2, -2, -50, -20,
    0, -20, 10, 5, 5, 10, -20, 0,
)
CORNERS = 1 << 0 | 1 << 7 | 1 << 56 | 1 << 63


def _weight_masks() -> tuple[tuple[int, int], ...]:
    """(weight, mask of the squares with that weight) for every non-zero weight."""
    masks: dict[int, int] = {}
    for square, weight in enumerate(SQUARE_WEIGHTS):
        if weight:
            masks[weight] = masks.get(weight, 0) | 1 << square
    return tuple(sorted(masks.items()))


WEIGHT_MASKS = _weight_masks()


def positional(board: int) -> int:
    """The sum of the square weights under ``board``'s discs."""
    return sum(weight * (board & mask).bit_count() for weight, mask in WEIGHT_MASKS)


@dataclass(frozen=True, slots=True)
class Evaluation:
    mobility_weight: float = 5.0
    corner_weight: float = 100.0
    scale: float = 100.0            # heuristic points per logistic unit in ``value``

    def heuristic(self, mine: int, theirs: int, my_moves: int, their_moves: int) -> float:
        total = 0
        for weight, mask in WEIGHT_MASKS:
            total += weight * ((mine & mask).bit_count() - (theirs & mask).bit_count())
        return (total + self.mobility_weight * (my_moves.bit_count() - their_moves.bit_count())
                + self.corner_weight * ((mine & CORNERS).bit_count() - (theirs & CORNERS).bit_count()))

    def of_state(self, state: OthelloState, seat: int) -> float:
        """The heuristic of an unfinished position for ``seat``."""
        mover = state.to_move
        mover_board, other_board = state.boards[mover], state.boards[1 - mover]
        mover_moves = state.moves
        other_moves = legal_moves(other_board, mover_board)
        if seat == mover:
            return self.heuristic(mover_board, other_board, mover_moves, other_moves)
        return self.heuristic(other_board, mover_board, other_moves, mover_moves)

    def value(self, state: OthelloState, seat: int) -> float:
        """The heuristic squashed into (0, 1): the library's ``evaluate(state, seat)``."""
        return 1.0 / (1.0 + math.exp(-self.of_state(state, seat) / self.scale))


def disc_value(state: OthelloState, seat: int) -> float:
    """Who leads on discs, as a result: 1 ahead, 0.5 level, 0 behind (seed 001's cut-off rule)."""
    mine, theirs = state.boards[seat].bit_count(), state.boards[1 - seat].bit_count()
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


# Search order: corners, then edges, centre, C-squares, X-squares last (alpha-beta cuts sooner).
MOVE_ORDER = tuple(sorted(range(64), key=lambda square: (-(100 if CORNERS >> square & 1 else
                                                           SQUARE_WEIGHTS[square]), square)))
_RANK = tuple(MOVE_ORDER.index(square) for square in range(64))


class OrderedState(OthelloState):
    """An Othello position whose ``legal_actions`` come best-first by square weight."""

    __slots__ = ()

    def legal_actions(self, seat: int | None = None) -> list[int]:
        return sorted(squares_of(self.moves), key=_RANK.__getitem__)

    @classmethod
    def of(cls, state: OthelloState) -> OrderedState:
        ordered = cls.__new__(cls)
        for name in OthelloState.__slots__:
            setattr(ordered, name, getattr(state, name))
        ordered.boards = state.boards[:]
        return ordered


def add_evaluation_arguments(parser) -> None:
    """--mobility-weight and --corner-weight, with Evaluation's defaults."""
    defaults = Evaluation()
    parser.add_argument("--mobility-weight", type=float, default=defaults.mobility_weight,
                        help=f"points per legal move of difference (default: {defaults.mobility_weight:g})")
    parser.add_argument("--corner-weight", type=float, default=defaults.corner_weight,
                        help=f"points per corner disc of difference (default: {defaults.corner_weight:g})")


def evaluation_from(options) -> Evaluation:
    return Evaluation(mobility_weight=options.mobility_weight, corner_weight=options.corner_weight)
