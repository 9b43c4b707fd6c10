"""The referee seam's types (referee/api.py once the `seams` branch lands; provisional here)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from referee.api import Fault

try:                                            # the seam, once merged
    from referee.api import RefereeError, RefereeOutcome, Reply, Request  # type: ignore[attr-defined]
except ImportError:                             # provisional, same shapes as /tmp/seam_spec.md
    class RefereeError(Exception):              # type: ignore[no-redef]
        """The referee failed: the game is recorded as a referee error."""

        def __init__(self, message: str, detail: str = ""):
            super().__init__(message)
            self.detail = detail

    @dataclass(frozen=True, slots=True)
    class Request:                              # type: ignore[no-redef]
        seat: int
        lines: tuple[str, ...]
        answer_lines: int = 1
        budget_ms: int = 50
        grace_ms: int = 0

    @dataclass(frozen=True, slots=True)
    class Reply:                                # type: ignore[no-redef]
        seat: int
        lines: tuple[str, ...]
        latency_ms: float | None
        fault: Fault | None = None

    @dataclass(frozen=True, slots=True)
    class RefereeOutcome:                       # type: ignore[no-redef]
        scores: Sequence[float]
        reason: str
        turns: int
        ranks: Sequence[int] | None = None

__all__ = ["RefereeError", "RefereeOutcome", "Reply", "Request"]
