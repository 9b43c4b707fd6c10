"""The one match loop, and the only place bot faults are caught and recorded."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from referee.api import (Fault, FaultRecord, Game, InvalidAction, SeatTurn, TimeControl,
                         TurnRecord)
from referee.process import DEFAULT_MEMORY_MB, BotFault, BotProcess

REPLAY_STDERR_CHARS = 2000      # stderr tail kept per turn and seat in a replay


@dataclass(frozen=True)
class PlayerSpec:
    """How to start one bot: its display name, argv and extra environment."""

    name: str
    argv: tuple[str, ...]
    env: dict[str, str] | None = None


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

    def latency_summary(self) -> dict[str, float]:
        return latency_summary(self.latencies_ms)

    def to_json(self) -> dict:
        return {"bot": self.bot, "score": self.score, "rank": self.rank,
                "fault": self.fault.to_json() if self.fault else None,
                "latency_ms": self.latency_summary(),
                "cpu_ms": latency_summary(self.cpu_ms),
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

    def to_json(self) -> dict:
        return {"game": self.game, "seed": self.seed, "options": self.options,
                "turns": self.turns, "reason": self.reason, "winner": self.winner,
                "players": [player.to_json() for player in self.players]}


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


def play_match(game: Game, players: Sequence[PlayerSpec], *, seed: int,
               options: dict[str, Any] | None = None, time_control: TimeControl | None = None,
               memory_mb: int | None = DEFAULT_MEMORY_MB, record: bool = True,
               on_turn: Callable[[int], None] | None = None) -> MatchResult:
    """Play one game between bot processes and return its result (with the replay records)."""
    options = dict(options) if options is not None else game.parse_options({})
    clock = time_control or game.time_control
    count = len(players)
    state = game.new_state(seed, options, count)
    started_at = time.perf_counter()
    faults: list[FaultRecord | None] = [None] * count
    latencies: list[list[float]] = [[] for _ in range(count)]
    cpu: list[list[float]] = [[] for _ in range(count)]
    answered = [0] * count
    records: list[TurnRecord] = []
    bots: list[BotProcess] = []
    try:
        for spec in players:
            bots.append(BotProcess(list(spec.argv), name=spec.name, env=spec.env, memory_mb=memory_mb))
        while not state.is_over():
            turn = state.turn
            turn_record = TurnRecord(turn=turn)
            actions = []
            for seat in state.acting_seats():
                lines = game.turn_lines(state, seat)
                if answered[seat] == 0:
                    lines = game.init_lines(state, seat) + lines
                seat_turn = SeatTurn(seat=seat, input=lines, output=None, latency_ms=None)
                turn_record.seats.append(seat_turn)
                bot = bots[seat]
                timeout_s = (clock.budget_ms(answered[seat]) + clock.grace_ms) / 1000
                try:
                    started = bot.send(lines, timeout_s)
                    answer = bot.read_line(started, timeout_s)
                    seat_turn.output, seat_turn.latency_ms = answer.line, round(answer.latency_ms, 3)
                    seat_turn.cpu_ms = None if answer.cpu_ms is None else round(answer.cpu_ms, 1)
                    latencies[seat].append(answer.latency_ms)
                    if answer.cpu_ms is not None:
                        cpu[seat].append(answer.cpu_ms)
                    answered[seat] += 1
                    actions.append(game.parse_action(state, seat, answer.line))
                except BotFault as fault:
                    faults[seat] = FaultRecord(fault.kind, turn, fault.detail)
                except InvalidAction as invalid:
                    faults[seat] = FaultRecord(Fault.BAD_OUTPUT, turn, str(invalid))
                seat_turn.stderr = bot.take_stderr()[-REPLAY_STDERR_CHARS:]
                if faults[seat] is not None and game.turn_order is not game.turn_order.SIMULTANEOUS:
                    break
            if record:
                records.append(turn_record)
            if any(faults):
                break
            state.apply(actions)
            if on_turn is not None:
                on_turn(state.turn)
    finally:
        for bot in bots:
            bot.close()
    scores = [float(score) for score in state.scores()]
    faulted = [fault is not None for fault in faults]
    ranks = rank_seats(scores, faulted)
    winner = None
    if count > 1 and ranks.count(0) == 1:
        winner = ranks.index(0)
    if any(faulted):
        reason = "fault: " + ", ".join(f"seat {seat} {faults[seat].kind.value}"
                                      for seat in range(count) if faults[seat])
    else:
        reason = state.end_reason()
    results = [PlayerResult(bot=spec.name, score=scores[seat], rank=ranks[seat], fault=faults[seat],
                            latencies_ms=latencies[seat], cpu_ms=cpu[seat],
                            pdata=dict(bots[seat].pdata) if seat < len(bots) else {},
                            stderr_bytes=bots[seat].stderr_total_bytes if seat < len(bots) else 0)
               for seat, spec in enumerate(players)]
    return MatchResult(game=game.name, seed=seed, options=options, turns=state.turn, reason=reason,
                       winner=winner, players=results, records=records,
                       wall_s=time.perf_counter() - started_at)
