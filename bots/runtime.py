"""What every built-in bot needs: reading turns from stdin, answering, [PDATA], turn clocks.

Stdlib only: a bundled bot inlines this module.
"""
from __future__ import annotations

import sys
import time


def read_line() -> str:
    """The next input line; exits quietly when the referee closes the pipe."""
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.rstrip("\n")


def read_lines(count: int) -> list[str]:
    return [read_line() for _ in range(count)]


def answer(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def report(**figures) -> None:
    """Per-turn statistics on stderr in psyleague's ``[PDATA] key = value`` form."""
    sys.stderr.write("".join(f"[PDATA] {key} = {value}\n" for key, value in figures.items()))
    sys.stderr.flush()


class TurnClock:
    """Deadlines for a bot's turns: ``first_ms`` on its first turn, ``turn_ms`` after, less a margin."""

    def __init__(self, first_ms: float = 1000, turn_ms: float = 50, margin_ms: float = 10):
        self.first_ms = first_ms
        self.turn_ms = turn_ms
        self.margin_ms = margin_ms
        self.turns = 0
        self.started = 0.0

    def start_turn(self) -> float:
        """Mark the turn's start (call right after its first input line); returns the deadline."""
        self.started = time.perf_counter()
        budget = self.first_ms if self.turns == 0 else self.turn_ms
        self.turns += 1
        return self.started + max(budget - self.margin_ms, 1) / 1000

    def elapsed_ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000
