"""What a game author and the tests use: players in this process, and the conformance check.

``ScriptedPlayer(answer)`` plays through the match loop with no process: ``answer`` gets a
turn's input lines and returns the answer line, so
``play_match(load_game("tictactoe"), [ScriptedPlayer(f), ScriptedPlayer(g)], seed=1)`` plays a
whole game in this process. ``answer`` may also return an :class:`~referee.api.Answer` (to give
the latency, CPU time and wait the loop records) or raise :class:`~referee.api.BotFault` (a
crash, a timeout); an answer later than its deadline is a timeout, as from a bot process.
"""
from __future__ import annotations

import time
from typing import Callable, Sequence

from referee.api import Answer, BotFault, Fault

__all__ = ["ScriptedPlayer"]


class ScriptedPlayer:
    """A player in this process, answering with ``answer(input lines)`` (see the module)."""

    def __init__(self, answer: Callable[[list[str]], str | Answer], name: str = "scripted", *,
                 following: str | None = None):
        self.name = name
        self.pdata: dict[str, str] = {}
        self.stderr_total_bytes = 0
        self.stderr = ""                # what take_stderr() hands over next: a test may set it
        self.following = following      # the line line_following() reports (quoted), if any
        self.inputs: list[list[str]] = []   # every input block it was sent, in order
        self.closed = self.input_ended = False
        self._answer = answer
        self._pending: list[str] = []
        self._lines: list[str] = []     # the rest of a multi-line answer

    def send(self, lines: Sequence[str], timeout_s: float) -> float:
        if self.closed or self.input_ended:
            raise BotFault(Fault.CRASH, "closed its input")
        self._pending.extend(lines)
        return time.perf_counter()

    def read_line(self, started: float, timeout_s: float) -> Answer:
        if not self._lines:
            block, self._pending = self._pending, []
            self.inputs.append(block)
            given = self._answer(block)
            if isinstance(given, Answer):
                if given.latency_ms > timeout_s * 1000:
                    raise BotFault(Fault.TIMEOUT, f"no answer within {timeout_s * 1000:.0f} ms")
                return given
            self._lines = str(given).split("\n")
        line = self._lines.pop(0)
        return Answer(line, (time.perf_counter() - started) * 1000, None, None)

    def take_stderr(self) -> str:
        text, self.stderr = self.stderr, ""
        return text

    def line_following(self) -> str | None:
        return None if self.following is None else repr(self.following)

    def end_input(self) -> None:
        self.input_ended = True

    def close(self) -> None:
        self.closed = True
