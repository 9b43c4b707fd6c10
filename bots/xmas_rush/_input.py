"""Reading Xmas Rush input blocks into rules states, counting the game turns the input does not give."""
from __future__ import annotations

from bots.runtime import read_line
from referee.games.xmas_rush.codec import read_turn_block, state_from_lines
from referee.games.xmas_rush.rules import XmasRushState


class TurnReader:
    """Reads one block per call; the state it returns has the receiver as seat 0."""

    def __init__(self, level: int = 6):
        self.level = level
        self.turn = -1

    def read(self, first_line: str | None = None) -> XmasRushState:
        """The next block; ``first_line``: its first line, already read (to start a clock on it)."""
        pending = [] if first_line is None else [first_line]
        lines = read_turn_block(lambda: pending.pop() if pending else read_line())
        self.turn += 1
        if self.turn & 1 != int(lines[0]):       # out of step (should not happen): trust the input
            self.turn += 1
        return state_from_lines(lines, turn=self.turn, level=self.level)
