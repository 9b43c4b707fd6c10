"""Twenty-one, botarena's example game for game files: both referees here play it by these rules.

Two players take turns adding 1, 2 or 3 to a running total that starts at 0; whoever brings the
total to the target (21 unless the game's ``target`` parameter says otherwise) wins. The seed
picks who moves first. Protocol, for the bots:

- Initialization (once): ``myId target`` (my seat, 0 or 1; the total to reach).
- Each turn: ``total opponentLastAdd`` (the running total; what the opponent added last, 0 if
  nothing yet).
- Answer: ``1``, ``2`` or ``3``, and never past the target. Anything else loses the game.

Scores: 1 for the winner, 0 for the other; a player that answered wrong (or not at all) is
deactivated and scores -1 (the SDK referee's convention).
"""
from __future__ import annotations

import random

DEFAULT_TARGET = 21
LARGEST_ADD = 3


class TwentyOne:
    """One game: whose turn it is, the total, each seat's last add, and how it ended."""

    def __init__(self, seed: int, target: int = DEFAULT_TARGET) -> None:
        if target < 1:
            raise ValueError(f"target {target}: must be at least 1")
        self.target = target
        self.total = 0
        self.to_play = random.Random(seed).randrange(2)     # the seed picks who starts
        self.last_add = [0, 0]
        self.winner: int | None = None
        self.loser_by_fault: int | None = None

    def init_lines(self, seat: int) -> list[str]:
        return [f"{seat} {self.target}"]

    def turn_lines(self, seat: int) -> list[str]:
        return [f"{self.total} {self.last_add[1 - seat]}"]

    def play(self, seat: int, answer: str) -> str:
        """Apply ``seat``'s answer; a sentence saying what happened (for summaries and logs)."""
        add = int(answer) if answer.strip() in ("1", "2", "3") else 0
        if add == 0 or self.total + add > self.target:
            self.fault(seat)
            return f"player {seat} answered {answer!r}: not 1 to {LARGEST_ADD} within the target"
        self.total += add
        self.last_add[seat] = add
        self.to_play = 1 - seat
        if self.total == self.target:
            self.winner = seat
            return f"player {seat} adds {add}: {self.total}, the target, wins"
        return f"player {seat} adds {add}: {self.total}"

    def fault(self, seat: int) -> None:
        """``seat`` answered wrong or not in time: it loses, the other wins."""
        self.loser_by_fault = seat
        self.winner = 1 - seat

    @property
    def over(self) -> bool:
        return self.winner is not None

    def scores(self) -> list[int]:
        return [-1 if seat == self.loser_by_fault else int(seat == self.winner) for seat in (0, 1)]
