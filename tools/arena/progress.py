"""Progress of a long run on stderr: a tqdm bar on a terminal, plain lines elsewhere.

On a terminal the bar redraws in place. In a log file, under nohup or in CI a bar is noise (or
nothing at all until the end), so a line is printed instead, like cutechess's "Score of A vs B":
every tenth of the run and at least every ``BOTARENA_PROGRESS_SECONDS`` (default 30) seconds,
checked as games finish (0 prints a line after every game, which the tests use).
"""
from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable
from typing import TextIO

from tools.arena.printable import printable

PROGRESS_SECONDS_VARIABLE = "BOTARENA_PROGRESS_SECONDS"
DEFAULT_PROGRESS_SECONDS = 30.0


def progress_seconds() -> float:
    """The longest wait between two progress lines, from the environment (bad values: default)."""
    text = os.environ.get(PROGRESS_SECONDS_VARIABLE, "")
    try:
        value = float(text)
    except ValueError:
        return DEFAULT_PROGRESS_SECONDS
    return value if value >= 0 and math.isfinite(value) else DEFAULT_PROGRESS_SECONDS


class TerminalBar:
    """A tqdm bar over the games of a run (only made when stderr is a terminal)."""

    def __init__(self, total: int, initial: int, description: str, stream: TextIO):
        from tqdm import tqdm
        self._bar = tqdm(total=total, initial=initial, unit="game", file=stream, leave=False,
                         desc=description, dynamic_ncols=True, smoothing=0.05)

    def set_total(self, total: int) -> None:
        """A new total (a tuner learns its own as it goes)."""
        self._bar.total = total
        self._bar.refresh()

    def update(self, finished: int, text: str) -> None:
        self._bar.set_postfix_str(text, refresh=False)
        self._bar.update(finished - self._bar.n)

    def close(self) -> None:
        self._bar.close()


class ProgressLines:
    """One plain line per tenth of the run, or after ``seconds`` without one."""

    def __init__(self, total: int, initial: int, description: str, stream: TextIO,
                 seconds: float | None = None, clock: Callable[[], float] = time.monotonic):
        self.total = total
        self.description = description
        self.stream = stream
        self.seconds = progress_seconds() if seconds is None else seconds
        self.step = max(1, math.ceil(total / 10))
        self._clock = clock
        self._last_time = clock()
        self._last_count = initial

    def set_total(self, total: int) -> None:
        self.total = total
        self.step = max(1, math.ceil(total / 10))

    def update(self, finished: int, text: str) -> None:
        crossed = finished // self.step > self._last_count // self.step or finished == self.total
        if not crossed and self._clock() - self._last_time < self.seconds:
            return
        self._last_time, self._last_count = self._clock(), finished
        line = f"botarena: {self.description}: {finished}/{self.total} games"
        print(printable(line + (f"  {text}" if text else "")), file=self.stream, flush=True)

    def close(self) -> None:
        pass


def open_progress(total: int, initial: int, description: str, *, quiet: bool,
                  stream: TextIO | None = None) -> TerminalBar | ProgressLines | None:
    """A bar on a terminal, lines elsewhere, None with ``quiet``."""
    stream = stream or sys.stderr
    if quiet:
        return None
    if stream.isatty():
        return TerminalBar(total, initial, description, stream)
    return ProgressLines(total, initial, description, stream)
