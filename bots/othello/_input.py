"""Reading Othello's protocol in a bot: the init block, then one position per turn."""
from __future__ import annotations

from bots.runtime import read_line, read_lines
from referee.games.othello.codec import SIZE, moves_from_lines, state_from_lines
from referee.games.othello.rules import OthelloState


def read_init() -> int:
    """Our id (0: black); the board size line is read and must be 8."""
    my_id = int(read_line())
    size = int(read_line())
    if size != SIZE:
        raise SystemExit(f"board size {size} is not supported (only {SIZE})")
    return my_id


def read_turn(my_id: int) -> tuple[OthelloState, list[int]]:
    """The position (us to move) and the legal moves the referee listed."""
    lines = read_lines(SIZE)
    lines.append(read_line())
    lines.extend(read_lines(int(lines[-1])))
    return state_from_lines(my_id, lines), moves_from_lines(lines)
