"""Othello on two 64-bit bitboards. Stdlib only: the referee and the bots search with this code.

Squares are numbered ``row * 8 + col`` with row 0 at the top (rank 1) and col 0 on the left
(file a), so ``d3`` is square 19 and bit ``1 << 19``. Seat 0 plays black and moves first.
A player without a legal move passes automatically; the game ends when neither can move.

The hot functions (``legal_moves``, ``flips``, ``random_playout``) work on plain ints
``(mine, theirs)`` so that search code can call them without building states.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence

FULL = (1 << 64) - 1
NOT_EDGE_FILES = 0x7E7E7E7E7E7E7E7E     # files b..g: a run of flipped discs never wraps a row
START_BLACK = (1 << 28) | (1 << 35)      # e4, d5
START_WHITE = (1 << 27) | (1 << 36)      # d4, e5
DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _ray(square: int, d_row: int, d_col: int) -> int:
    """The squares beyond ``square`` in one direction, as a mask."""
    row, col = divmod(square, 8)
    mask = 0
    row, col = row + d_row, col + d_col
    while 0 <= row < 8 and 0 <= col < 8:
        mask |= 1 << (row * 8 + col)
        row, col = row + d_row, col + d_col
    return mask


def _ray_table() -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Per square: the rays of two or more squares that run towards higher bits, then lower bits.

    A ray of one square can never flip anything, so it is left out.
    """
    table = []
    for square in range(64):
        up: list[int] = []
        down: list[int] = []
        for d_row, d_col in DIRECTIONS:
            ray = _ray(square, d_row, d_col)
            if ray.bit_count() >= 2:
                (up if ray > (1 << square) else down).append(ray)
        table.append((tuple(up), tuple(down)))
    return tuple(table)


RAYS = _ray_table()


def legal_moves(mine: int, theirs: int) -> int:
    """The mask of the squares where the side owning ``mine`` may play.

    Kogge-Stone fills with doubling, one pair of lines per direction: ``t`` grows the run of
    opponent discs next to our discs (1, 2, then 4 and 6 squares long, ``pair`` marking two
    opponent discs in a row); the square just past a run is a move if it is empty. Opponent
    discs on files a and h are masked out of the sideways and diagonal runs so no run wraps
    around a row; bits shifted past either end of the board fall off the 64-bit masks.
    """
    inner = theirs & NOT_EDGE_FILES
    moves = 0
    t = inner & (mine << 1); t |= inner & (t << 1); pair = inner & (inner << 1)
    t |= pair & (t << 2); t |= pair & (t << 2); moves |= t << 1
    t = inner & (mine >> 1); t |= inner & (t >> 1); pair = inner & (inner >> 1)
    t |= pair & (t >> 2); t |= pair & (t >> 2); moves |= t >> 1
    t = theirs & (mine << 8); t |= theirs & (t << 8); pair = theirs & (theirs << 8)
    t |= pair & (t << 16); t |= pair & (t << 16); moves |= t << 8
    t = theirs & (mine >> 8); t |= theirs & (t >> 8); pair = theirs & (theirs >> 8)
    t |= pair & (t >> 16); t |= pair & (t >> 16); moves |= t >> 8
    t = inner & (mine << 9); t |= inner & (t << 9); pair = inner & (inner << 9)
    t |= pair & (t << 18); t |= pair & (t << 18); moves |= t << 9
    t = inner & (mine >> 9); t |= inner & (t >> 9); pair = inner & (inner >> 9)
    t |= pair & (t >> 18); t |= pair & (t >> 18); moves |= t >> 9
    t = inner & (mine << 7); t |= inner & (t << 7); pair = inner & (inner << 7)
    t |= pair & (t << 14); t |= pair & (t << 14); moves |= t << 7
    t = inner & (mine >> 7); t |= inner & (t >> 7); pair = inner & (inner >> 7)
    t |= pair & (t >> 14); t |= pair & (t >> 14); moves |= t >> 7
    return moves & ~(mine | theirs) & FULL


def flips(mine: int, theirs: int, square: int) -> int:
    """The opponent discs a disc on ``square`` would turn (0 when the move is illegal).

    Along each ray the first square that is not an opponent disc decides: if it is ours,
    every square between it and ``square`` (all opponent discs) turns.
    """
    flipped = 0
    up, down = RAYS[square]
    for ray in up:                      # the nearest square is the lowest bit of the ray
        stops = ray & ~theirs
        if stops:
            first = stops & -stops
            if first & mine:
                flipped |= ray & (first - 1)
    for ray in down:                    # the nearest square is the highest bit of the ray
        stops = ray & ~theirs
        if stops:
            first = 1 << (stops.bit_length() - 1)
            if first & mine:
                flipped |= ray & ~((first << 1) - 1)
    return flipped


def squares_of(mask: int) -> list[int]:
    """The set squares of ``mask`` in increasing order."""
    squares = []
    while mask:
        low = mask & -mask
        squares.append(low.bit_length() - 1)
        mask ^= low
    return squares


def random_playout(mine: int, theirs: int, rng_random: Callable[[], float],
                   max_plies: int = 64) -> tuple[int, int, bool, bool]:
    """Play uniformly random moves (passing when forced) from ``(mine, theirs)``, ``mine`` to move.

    Stops at the end of the game or after ``max_plies`` moves. Returns the final boards in the
    same order (``mine`` first), whether the side of ``mine`` is to move, and whether the game
    is over. ``rng_random`` is a bound ``random.Random().random``.
    """
    legal, flips_of = legal_moves, flips
    first_to_move = True
    plies = 0
    passed = False
    while plies < max_plies:
        moves = legal(mine, theirs)
        if not moves:
            if passed:
                break
            passed = True
            mine, theirs = theirs, mine
            first_to_move = not first_to_move
            continue
        passed = False
        for _ in range(int(rng_random() * moves.bit_count())):
            moves &= moves - 1
        bit = moves & -moves
        turned = flips_of(mine, theirs, bit.bit_length() - 1)
        mine, theirs = theirs ^ turned, mine | turned | bit
        first_to_move = not first_to_move
        plies += 1
    else:
        passed = not legal(mine, theirs) and not legal(theirs, mine)
    if first_to_move:
        return mine, theirs, True, passed
    return theirs, mine, False, passed


class OthelloState:
    """A position: both boards, the side to move (0 = black), the turn counter, the last move."""

    __slots__ = ("boards", "to_move", "turn", "last_move", "passes", "over", "moves")

    def __init__(self) -> None:
        self.boards = [START_BLACK, START_WHITE]
        self.to_move = 0
        self.moves = legal_moves(START_BLACK, START_WHITE)     # the side to move's legal moves
        self.turn = 0
        self.last_move = -1          # the last square played (-1 before the first move)
        self.passes = 0              # automatic passes so far
        self.over = False

    @classmethod
    def from_boards(cls, black: int, white: int, to_move: int) -> OthelloState:
        """A position from its boards; if ``to_move`` cannot play, the pass is applied."""
        state = cls()
        state.boards = [black & FULL, white & FULL]
        state.to_move = to_move
        state._settle()
        return state

    def clone(self) -> OthelloState:
        other = type(self).__new__(type(self))
        other.boards = self.boards[:]
        other.moves = self.moves
        other.to_move = self.to_move
        other.turn = self.turn
        other.last_move = self.last_move
        other.passes = self.passes
        other.over = self.over
        return other

    def mine_theirs(self) -> tuple[int, int]:
        """The boards of the side to move and of its opponent."""
        seat = self.to_move
        return self.boards[seat], self.boards[1 - seat]

    def moves_mask(self) -> int:
        """The side to move's legal moves as a mask (0 once the game is over)."""
        return self.moves

    # -- the State interface --------------------------------------------------
    def acting_seats(self) -> tuple[int, ...]:
        return () if self.over else (self.to_move,)

    def legal_actions(self, seat: int | None = None) -> list[int]:
        return squares_of(self.moves_mask())

    def play(self, square: int) -> None:
        """Unchecked move for the side to move; then passes for a side that cannot move."""
        seat = self.to_move
        mine, theirs = self.boards[seat], self.boards[1 - seat]
        turned = flips(mine, theirs, square)
        self.boards[seat] = mine | turned | 1 << square
        self.boards[1 - seat] = theirs ^ turned
        self.to_move = 1 - seat
        self.turn += 1
        self.last_move = square
        self._settle()

    def _settle(self) -> None:
        """Pass for a side to move without a move; end the game when neither side can move."""
        mine, theirs = self.mine_theirs()
        moves = legal_moves(mine, theirs)
        if not moves:
            moves = legal_moves(theirs, mine)
            if moves:
                self.to_move = 1 - self.to_move
                self.passes += 1
            else:
                self.over = True
        self.moves = moves

    def playout(self, rng_random: Callable[[], float], max_plies: int = 64) -> None:
        """Random moves to the end, or for ``max_plies`` moves (fast: no per-move bookkeeping)."""
        if self.over:
            return
        before = (self.boards[0] | self.boards[1]).bit_count()
        mine, theirs, same_side, _ = random_playout(*self.mine_theirs(), rng_random, max_plies)
        seat = self.to_move
        self.boards[seat], self.boards[1 - seat] = mine, theirs
        self.turn += (mine | theirs).bit_count() - before
        if not same_side:
            self.to_move = 1 - seat
        self._settle()

    def apply(self, actions: Sequence[int]) -> None:
        self.play(actions[0])

    def is_over(self) -> bool:
        return self.over

    def discs(self) -> tuple[int, int]:
        return self.boards[0].bit_count(), self.boards[1].bit_count()

    def scores(self) -> tuple[float, float]:
        """Disc counts: the side with more discs wins, equal counts draw."""
        black, white = self.discs()
        return float(black), float(white)

    def winner(self) -> int | None:
        black, white = self.discs()
        if not self.over or black == white:
            return None
        return 0 if black > white else 1

    def end_reason(self) -> str:
        if not self.over:
            return ""
        return "board full" if (self.boards[0] | self.boards[1]) == FULL else "no legal move for either"


def play_random_game(seed: int) -> OthelloState:
    """A whole game of uniformly random moves (tests and benchmarks)."""
    rng = random.Random(seed)
    state = OthelloState()
    while not state.over:
        state.play(rng.choice(state.legal_actions()))
    return state
