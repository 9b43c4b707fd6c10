"""Othello's CodinGame-style protocol.

Initialization block (once): ``id`` (0: black, moves first; 1: white), then ``boardSize`` (8).
Each turn: ``boardSize`` lines of ``boardSize`` characters, rank 1 (top) first, file a on the
left: ``.`` empty, ``0`` a disc of player 0, ``1`` a disc of player 1; then ``actionCount`` and
``actionCount`` lines, one legal move each (``d3``: file letter a-h, rank digit 1-8), in square
order (a1, b1, ..., h8). A player without a legal move is not asked: its turn is passed.
Answer: one legal move such as ``d3``; words after the first are ignored (a message).
"""
from __future__ import annotations

from referee.api import InvalidAction
from referee.games.othello.rules import FULL, OthelloState, flips

SIZE = 8
FILES = "abcdefgh"
CELL_CHARS = ".01"


def square_text(square: int) -> str:
    row, col = divmod(square, SIZE)
    return f"{FILES[col]}{row + 1}"


def square_from_text(text: str) -> int | None:
    """The square of ``d3``-style text (either case), or None if it names no square."""
    text = text.lower()
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        return None
    return (int(text[1]) - 1) * SIZE + FILES.index(text[0])


def board_lines(black: int, white: int) -> list[str]:
    lines = []
    for row in range(SIZE):
        chars = []
        for col in range(SIZE):
            bit = 1 << (row * SIZE + col)
            chars.append("0" if black & bit else "1" if white & bit else ".")
        lines.append("".join(chars))
    return lines


def init_lines(state: OthelloState, seat: int) -> list[str]:
    return [str(seat), str(SIZE)]


def turn_lines(state: OthelloState, seat: int) -> list[str]:
    moves = [square_text(square) for square in state.legal_actions()]
    return [*board_lines(*state.boards), str(len(moves)), *moves]


def parse_action(state: OthelloState, seat: int, line: str) -> int:
    words = line.split()
    if not words:
        raise InvalidAction(f"expected a move such as 'd3', got {line!r}")
    square = square_from_text(words[0])
    if square is None:
        raise InvalidAction(f"{words[0]!r} is not a square (expected a1..h8) in {line!r}")
    mine, theirs = state.mine_theirs()
    if (mine | theirs) >> square & 1:
        raise InvalidAction(f"square {words[0]!r} is already taken")
    if not flips(mine, theirs, square):
        raise InvalidAction(f"{words[0]!r} turns no disc: not a legal move")
    return square


def action_text(square: int) -> str:
    return square_text(square)


def boards_from_lines(rows: list[str]) -> tuple[int, int]:
    """Player 0's and player 1's boards from the ``boardSize`` board lines."""
    black = white = 0
    for row, text in enumerate(rows[:SIZE]):
        for col, char in enumerate(text[:SIZE]):
            if char == "0":
                black |= 1 << (row * SIZE + col)
            elif char == "1":
                white |= 1 << (row * SIZE + col)
    return black & FULL, white & FULL


def state_from_lines(my_id: int, turn: list[str]) -> OthelloState:
    """The full position a bot can rebuild from its id and one turn block (no hidden information).

    The bot is asked only when it has a move, so the side to move is ``my_id``.
    """
    black, white = boards_from_lines(turn)
    state = OthelloState.from_boards(black, white, my_id)
    state.turn = (black | white).bit_count() - 4
    return state


def moves_from_lines(turn: list[str]) -> list[int]:
    """The legal moves listed after the board lines."""
    count = int(turn[SIZE])
    moves = []
    for text in turn[SIZE + 1:SIZE + 1 + count]:
        square = square_from_text(text)
        if square is None:
            raise ValueError(f"the move list names {text!r}, not a square like d3")
        moves.append(square)
    return moves


