"""Time and work budgets for anytime searches: a Deadline, and a Budget that also counts iterations."""
from __future__ import annotations

import math
import time
from typing import Any

_clock = time.perf_counter


class Deadline:
    """A point in ``time.perf_counter()`` time after which a search should stop and answer."""

    __slots__ = ("at",)

    def __init__(self, at: float) -> None:
        self.at = at

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        return cls(_clock() + seconds)

    @classmethod
    def after_ms(cls, milliseconds: float) -> Deadline:
        return cls(_clock() + milliseconds / 1000)

    @classmethod
    def never(cls) -> Deadline:
        return cls(math.inf)

    def expired(self) -> bool:
        return _clock() >= self.at

    def remaining(self) -> float:
        """Seconds left (never negative; ``inf`` for a deadline that never comes)."""
        return max(self.at - _clock(), 0.0)

    def share(self, fraction: float) -> Deadline:
        """A deadline ``fraction`` of the remaining time from now (itself if it never comes)."""
        if self.at == math.inf:
            return self
        return Deadline(_clock() + self.remaining() * fraction)

    def __repr__(self) -> str:
        return f"Deadline(remaining={self.remaining() * 1000:.1f} ms)"


CLOCK_INTERVAL_S = 0.0002     # read the clock about this often, however long an iteration takes


class Budget:
    """An iteration limit and a deadline, whichever ends first.

    ``spend()`` is called before each iteration (or node) and returns False once the budget is
    exhausted, so ``iterations=N`` runs exactly N of them. Reading the clock costs more than a
    cheap iteration, so the clock is read on the first call and then about every 0.2 ms: every
    iteration when they are slow (a long playout), at most every ``check_every`` when fast.
    """

    __slots__ = ("deadline_at", "limit", "used", "check_every", "_next_check", "_checked_at",
                 "_checked_used", "exhausted")

    def __init__(self, deadline: Deadline | None = None, iterations: int | None = None,
                 check_every: int = 64) -> None:
        if deadline is None and iterations is None:
            raise ValueError("a search needs a deadline, an iteration budget, or both")
        if iterations is not None and iterations < 0:
            raise ValueError(f"iterations must be >= 0, got {iterations}")
        self.deadline_at = deadline.at if deadline is not None else math.inf
        self.limit = iterations if iterations is not None else math.inf
        self.used = 0
        self.check_every = check_every
        self._next_check = 0 if self.deadline_at != math.inf else math.inf
        self._checked_at = _clock()
        self._checked_used = 0
        self.exhausted = False

    def spend(self) -> bool:
        """True if one more iteration may run now (and count it); False once exhausted."""
        used = self.used
        if used >= self.limit:
            self.exhausted = True
            return False
        if used >= self._next_check:
            now = _clock()
            if now >= self.deadline_at:
                self.exhausted = True
                return False
            self._next_check = used + self._stride(now, used)
        self.used = used + 1
        return True

    def _stride(self, now: float, used: int) -> int:
        """How many iterations to run before the next clock read, from the pace since the last."""
        elapsed, done = now - self._checked_at, used - self._checked_used
        self._checked_at, self._checked_used = now, used
        if done <= 0 or elapsed <= 0:
            return 1
        return max(1, min(self.check_every, int(CLOCK_INTERVAL_S * done / elapsed)))

    def available(self) -> bool:
        """True while neither limit is reached (reads the clock)."""
        if self.exhausted or self.used >= self.limit or _clock() >= self.deadline_at:
            self.exhausted = True
            return False
        return True

    @classmethod
    def bounded_or_not(cls, deadline: Deadline | None, iterations: int | None) -> Budget:
        """A budget that may also be no budget at all (for searches that end by themselves)."""
        return cls(Deadline.never() if deadline is None and iterations is None else deadline, iterations)

    def split(self, fraction: float) -> Budget:
        """A budget for a sub-search: ``fraction`` of the remaining time and iterations."""
        deadline = None
        if self.deadline_at != math.inf:
            deadline = Deadline(_clock() + max(self.deadline_at - _clock(), 0.0) * fraction)
        iterations = None
        if self.limit != math.inf:
            iterations = int(max(self.limit - self.used, 0) * fraction)
        if deadline is None and iterations is None:
            deadline = Deadline.never()
        return Budget(deadline, iterations, self.check_every)


def turn_budget(iterations: int | None, deadline_at: float) -> dict[str, Any]:
    """Keyword arguments for a search: a fixed ``iterations`` budget if given (deterministic,
    no clock), else the deadline at ``deadline_at`` (``time.perf_counter()`` seconds)."""
    if iterations is not None:
        return {"iterations": iterations}
    return {"deadline": Deadline(deadline_at)}
