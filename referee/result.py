"""A played game's result: per player and per game, ranks, the end reason, JSON.

``settle`` ranks the seats (faulted ones last) and words the end reason; ``MatchResult.ending``
says how the game ended (rules, a fault, the referee failed) without parsing that text.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.api import Ending, FaultRecord, TurnRecord


@dataclass
class PlayerResult:
    bot: str
    score: float
    rank: int
    fault: FaultRecord | None
    latencies_ms: list[float]
    cpu_ms: list[float]
    pdata: dict[str, str]
    stderr_bytes: int
    margin_ms: float | None = None      # smallest (budget - latency) over its turns; < 0: used grace
    max_wait_ms: float = 0.0            # longest wait for a CPU in one turn (machine overload)
    waits_ms: list[float | None] = field(default_factory=list)   # per answer, like latencies_ms

    def latency_summary(self) -> dict[str, float]:
        return latency_summary(self.latencies_ms)

    def __repr__(self) -> str:
        fault = (f"{self.fault.kind.value} at turn {self.fault.turn}: {self.fault.detail}"
                 if self.fault else None)
        return (f"PlayerResult({self.bot!r}, score={self.score:g}, rank={self.rank}, "
                f"fault={fault!r}, answers={len(self.latencies_ms)})")

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "score": self.score, "rank": self.rank,
                "fault": self.fault.to_json() if self.fault else None,
                "latency_ms": self.latency_summary(),
                "cpu_ms": latency_summary(self.cpu_ms),
                "margin_ms": None if self.margin_ms is None else round(self.margin_ms, 3),
                "pdata": _pdata_values(self.pdata), "stderr_bytes": self.stderr_bytes}


@dataclass
class MatchResult:
    game: str
    seed: int
    options: dict[str, Any]
    turns: int
    reason: str
    winner: int | None
    players: list[PlayerResult]
    records: list[TurnRecord] = field(default_factory=list)
    wall_s: float = 0.0
    referee_error: str | None = None    # set when the referee failed: the game has no result
    warnings: list[str] = field(default_factory=list)
    # an answer was read past its deadline and when it was written cannot be told: not a sure
    # result (match, league, sweep and tune play such a game again; see referee.harness.arrival)
    timing_uncertain: bool = False
    frames: int | None = None           # a referee whose steps are frames: their count
    game_file: str | None = None        # a game file's game: the file's path (``game`` its name)

    def __repr__(self) -> str:
        """A few lines, not every turn (the records are a replay's worth: ``print(result)`` in a
        test shows who won and why)."""
        seats = "".join(f"\n  seat {seat}: {player!r}," for seat, player in enumerate(self.players))
        error = f", referee_error={self.referee_error.splitlines()[0]!r}" if self.referee_error else ""
        return (f"MatchResult({self.game!r}, seed={self.seed}, turns={self.turns}, "
                f"reason={self.reason!r}, winner={self.winner}{error},{seats}\n)")

    def answers(self, seat: int) -> list[str]:
        """Every answer line of ``seat``, in order (from the records: played with record=True)."""
        return [exchange.output for record in self.records for exchange in record.seats
                if exchange.seat == seat and exchange.output is not None]

    def inputs(self, seat: int) -> list[list[str]]:
        """Every input block ``seat`` was sent, in order (from the records, as ``answers``)."""
        return [exchange.input for record in self.records for exchange in record.seats
                if exchange.seat == seat]

    @property
    def ending(self) -> Ending:
        if self.referee_error is not None:
            return Ending.REFEREE_ERROR
        return Ending.FAULT if any(player.fault for player in self.players) else Ending.RULES

    def to_json(self) -> dict[str, Any]:
        data = {"game": self.game, "seed": self.seed, "options": self.options,
                "turns": self.turns, "reason": self.reason, "winner": self.winner,
                "players": [player.to_json() for player in self.players]}
        if self.frames is not None:
            data["frames"] = self.frames
        if self.game_file is not None:
            data["game_file"] = self.game_file
        if self.referee_error is not None:
            data["referee_error"] = self.referee_error
        if self.warnings:
            data["warnings"] = self.warnings
        if self.timing_uncertain:
            data["timing_uncertain"] = True
        return data


def latency_summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {"p50": 0.0, "p99": 0.0, "max": 0.0}
    ordered = sorted(values)
    def pick(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3)
    return {"p50": pick(0.5), "p99": pick(0.99), "max": round(ordered[-1], 3)}


def _pdata_values(pdata: dict[str, str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for key, text in pdata.items():
        try:
            values[key] = int(text)
        except ValueError:
            try:
                values[key] = float(text)
            except ValueError:
                values[key] = text
    return values


def rank_seats(scores: Sequence[float], faulted: Sequence[bool]) -> list[int]:
    """Rank 0 is best; equal keys share a rank; a faulted seat ranks below every other."""
    keys = [(bool(faulted[seat]), -scores[seat]) for seat in range(len(scores))]
    return [sum(1 for other in keys if other < key) for key in keys]


def settle(scores: Sequence[float], faults: Sequence[FaultRecord | None],
           end_reason: Callable[[], str],
           ranks: Sequence[int] | None = None) -> tuple[list[int], str, int | None]:
    """Ranks (``ranks`` if the referee gave them), end reason and winner (None: a draw, or one
    player) of a game that ended."""
    if ranks is None:
        ranks = rank_seats(scores, [fault is not None for fault in faults])
    else:
        ranks = list(ranks)
    if any(faults):
        reason = "fault: " + ", ".join(f"seat {seat} {fault.kind.value}"
                                      for seat, fault in enumerate(faults) if fault)
    else:
        reason = end_reason()
    winner = ranks.index(0) if len(scores) > 1 and ranks.count(0) == 1 else None
    return ranks, reason, winner
