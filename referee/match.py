"""The one match loop, and the only place bot faults are caught and recorded."""
from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from referee.api import (BotArenaError, Fault, FaultRecord, Game, InvalidAction, SeatTurn,
                         TimeControl, TurnOrder, TurnRecord)
from referee.harness.process import DEFAULT_MEMORY_MB, Answer, BotFault, BotProcess
from referee.harness.watchdog import GameWatchdog, WatchdogExpired, monitor

REPLAY_STDERR_CHARS = 2000      # stderr tail kept per turn and seat in a replay
WATCHDOG_SLACK_S = 10.0         # a turn may take its budgets plus this before the game is cut off


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
    margin_ms: float | None = None      # smallest (budget - latency) over its turns; < 0: used grace
    max_wait_ms: float = 0.0            # longest wait for a CPU in one turn (machine overload)
    waits_ms: list[float | None] = field(default_factory=list)   # per answer, like latencies_ms

    def latency_summary(self) -> dict[str, float]:
        return latency_summary(self.latencies_ms)

    def to_json(self) -> dict:
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

    def to_json(self) -> dict:
        data = {"game": self.game, "seed": self.seed, "options": self.options,
                "turns": self.turns, "reason": self.reason, "winner": self.winner,
                "players": [player.to_json() for player in self.players]}
        if self.referee_error is not None:
            data["referee_error"] = self.referee_error
        if self.warnings:
            data["warnings"] = self.warnings
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
           end_reason: Callable[[], str]) -> tuple[list[int], str, int | None]:
    """Ranks, end reason and winner (None: a draw, or one player) of a game that ended."""
    ranks = rank_seats(scores, [fault is not None for fault in faults])
    if any(faults):
        reason = "fault: " + ", ".join(f"seat {seat} {fault.kind.value}"
                                      for seat, fault in enumerate(faults) if fault)
    else:
        reason = end_reason()
    winner = ranks.index(0) if len(scores) > 1 and ranks.count(0) == 1 else None
    return ranks, reason, winner


def play_match(game: Game, players: Sequence[PlayerSpec], *, seed: int,
               options: dict[str, Any] | None = None, time_control: TimeControl | None = None,
               memory_mb: int | None = DEFAULT_MEMORY_MB, record: bool = True,
               on_turn: Callable[[int], None] | None = None,
               watchdog_s: float = WATCHDOG_SLACK_S, sandboxed: bool = False,
               line_buffered: bool = True,
               on_turns_done: Callable[[], None] | None = None,
               on_bots_started: Callable[[], None] | None = None) -> MatchResult:
    """Play one game between bot processes and return its result (with the replay records).

    Bot faults end the game with a fault on that seat. A failure of the referee
    itself (an exception in the game's code, or a turn that does not finish
    within its budgets plus ``watchdog_s``) does not raise: the result has
    ``reason`` "referee error: ..." and the traceback in ``referee_error``.
    Raises only BotStartError (a bot command that cannot start: a UsageError),
    another UsageError from the game, or KeyboardInterrupt; every bot process
    of the game is gone when it returns or raises. ``sandboxed``: each bot
    under bubblewrap (see ``referee.harness.sandbox``). ``line_buffered``: each bot's
    stdout line-buffered, as on CodinGame (see ``referee.harness.output_buffering``).
    ``on_turns_done`` is called once the last answer is in (or the game failed), before
    the bots are given their moment to exit and are cleaned up: a runner may start the
    next game's bots meanwhile. ``on_bots_started`` is called once every bot has started and
    before any input is sent (CodinGame too starts the bots before the first input): a runner
    may wait there for its turn to play, the watchdog off meanwhile; a BotArenaError it raises
    ends the game unplayed (bots closed) and propagates.
    """
    options = dict(options) if options is not None else game.parse_options({})
    run = _Game(game, players, seed, options, time_control or game.time_control, record)
    run.sandboxed, run.line_buffered = sandboxed, line_buffered
    watchdog = GameWatchdog(on_fire=run.close_bots)
    try:
        run.play(memory_mb, on_turn, watchdog, watchdog_s, on_bots_started)
    except WatchdogExpired:
        run.referee_failed(f"watchdog: turn {run.turn} did not finish within "
                           f"{watchdog.fired_after_s or 0:.1f} s", "")
    except (BotArenaError, KeyboardInterrupt, SystemExit):
        raise
    except Exception as error:          # a bug in the game's code or the harness: record it
        detail = "".join(traceback.format_exception(error)[-12:])
        run.referee_failed(f"{type(error).__name__}: {error}", detail)
    finally:
        watchdog.disarm()
        if on_turns_done is not None:
            on_turns_done()
        run.close_bots()
    try:
        return run.result()
    except Exception as error:          # the game's scores() or end_reason() failed
        run.referee_failed(f"{type(error).__name__}: {error}",
                           "".join(traceback.format_exception(error)[-12:]))
        return run.result()


class _Game:
    """The state of one game being played (play_match's helper)."""

    def __init__(self, game: Game, players: Sequence[PlayerSpec], seed: int, options: dict,
                 clock: TimeControl, record: bool):
        self.game, self.players, self.seed, self.options = game, players, seed, options
        self.clock, self.record = clock, record
        count = len(players)
        self.state = None
        self.turn = 0
        self.faults: list[FaultRecord | None] = [None] * count
        self.latencies: list[list[float]] = [[] for _ in range(count)]
        self.cpu: list[list[float]] = [[] for _ in range(count)]
        self.margins: list[float | None] = [None] * count
        self.waits: list[float] = [0.0] * count
        self.wait_lists: list[list[float | None]] = [[] for _ in range(count)]
        self.late: list[tuple[int, int, float, float]] = []    # (seat, turn, latency, deadline)
        self.answered = [0] * count
        self.records: list[TurnRecord] = []
        self.bots: list[BotProcess] = []
        self.sandboxed = False
        self.line_buffered = True
        self.referee_error: str | None = None
        self.error_reason = ""
        self.started_at = time.perf_counter()
        self.lag_from: float | None = None

    def play(self, memory_mb, on_turn, watchdog: GameWatchdog, slack_s: float,
             on_bots_started: Callable[[], None] | None = None) -> None:
        game, clock = self.game, self.clock
        watchdog.feed(slack_s + clock.first_turn_ms / 1000)
        self.state = state = game.new_state(self.seed, self.options, len(self.players))
        for spec in self.players:
            self.bots.append(BotProcess(list(spec.argv), name=spec.name, env=spec.env,
                                        memory_mb=memory_mb, stderr_tail_bytes=REPLAY_STDERR_CHARS,
                                        sandboxed=self.sandboxed,
                                        line_buffered=self.line_buffered))
        if on_bots_started is not None:
            watchdog.feed(float("inf"))         # waiting for a turn to play is not a stuck turn
            on_bots_started()
        # the per-answer path: what does not change in a game is looked up once here
        simultaneous = game.turn_order is TurnOrder.SIMULTANEOUS
        answered, faults = self.answered, self.faults
        play_seat = self._play_seat if self.record else self._play_seat_unrecorded
        while not state.is_over():
            self.turn = state.turn
            seats = state.acting_seats()
            watchdog.feed(slack_s + sum(clock.budget_ms(answered[seat]) + clock.grace_ms
                                        for seat in seats) / 1000)
            turn_record = TurnRecord(turn=self.turn) if self.record else None
            actions = []
            for seat in seats:
                action = play_seat(seat, turn_record)
                if faults[seat] is not None:
                    if not simultaneous:
                        break
                else:
                    actions.append(action)
            if turn_record is not None:
                self.records.append(turn_record)
            if any(faults):
                break
            state.apply(actions)
            if on_turn is not None:
                on_turn(state.turn)
        self.turn = state.turn

    def _input_lines(self, seat: int) -> list[str]:
        lines = self.game.turn_lines(self.state, seat)
        if self.answered[seat] == 0:
            lines = self.game.init_lines(self.state, seat) + lines
        return lines

    def _play_seat(self, seat: int, turn_record: TurnRecord) -> Any:
        """One seat's turn, recorded for the replay: its input, answer, latency and stderr."""
        lines = self._input_lines(seat)
        seat_turn = SeatTurn(seat=seat, input=lines, output=None, latency_ms=None)
        turn_record.seats.append(seat_turn)
        answer, action = self._exchange(seat, lines)
        if answer is not None:
            seat_turn.output, seat_turn.latency_ms = answer.line, round(answer.latency_ms, 3)
            seat_turn.cpu_ms = None if answer.cpu_ms is None else round(answer.cpu_ms, 1)
        seat_turn.stderr = self.bots[seat].take_stderr()
        return action

    def _play_seat_unrecorded(self, seat: int, turn_record: None) -> Any:
        """One seat's turn with no replay kept (a match's games): no per-turn record at all."""
        return self._exchange(seat, self._input_lines(seat))[1]

    def _exchange(self, seat: int, lines: list[str]) -> tuple[Answer | None, Any]:
        """Send ``lines`` to the seat's bot, read and parse its answer; a fault is recorded."""
        state, bot = self.state, self.bots[seat]
        budget_ms = self.clock.budget_ms(self.answered[seat])
        timeout_s = (budget_ms + self.clock.grace_ms) / 1000
        answer = None
        try:
            answer = bot.read_line(bot.send(lines, timeout_s), timeout_s)
            self._note_timing(seat, answer, budget_ms)
            return answer, self.game.parse_action(state, seat, answer.line)
        except BotFault as fault:
            self.faults[seat] = FaultRecord(fault.kind, state.turn, fault.detail)
        except InvalidAction as invalid:
            detail = str(invalid)
            following = bot.line_following()
            if following is not None:
                detail += (f"; the next line it printed was {following}: if the refused line "
                           "was debug output, print that to stderr, only the answer to stdout")
            self.faults[seat] = FaultRecord(Fault.BAD_OUTPUT, state.turn, detail)
        return answer, None

    def _note_timing(self, seat: int, answer: Answer, budget_ms: int) -> None:
        latency_ms, wait_ms = answer.latency_ms, answer.wait_ms
        self.latencies[seat].append(latency_ms)
        self.wait_lists[seat].append(wait_ms)
        if answer.cpu_ms is not None:
            self.cpu[seat].append(answer.cpu_ms)
        answered = self.answered[seat]
        if answered and wait_ms is not None and wait_ms > self.waits[seat]:
            # (a first answer includes start-up, when every bot of the game starts at once)
            self.waits[seat] = wait_ms
        margin = budget_ms - latency_ms
        if margin < -self.clock.grace_ms:
            # found past the deadline: only a harness that woke late can (see read_line)
            self.late.append((seat, self.turn, latency_ms, budget_ms + self.clock.grace_ms))
        margins = self.margins
        if margins[seat] is None or margin < margins[seat]:
            margins[seat] = margin
        self.answered[seat] = answered + 1
        if self.lag_from is None and all(self.answered):
            self.lag_from = time.perf_counter()     # start-up contention is over

    def referee_failed(self, reason: str, detail: str) -> None:
        self.error_reason = "referee error: " + reason
        self.referee_error = detail or reason

    def close_bots(self) -> None:
        bots = list(self.bots)
        for bot in bots:
            bot.end_input()
        for bot in bots:
            bot.close()

    def warnings(self) -> list[str]:
        """Signs that the machine, not the bots, was slow during this game."""
        found = []
        threshold_ms = max(5.0, self.clock.grace_ms / 2)
        for seat, wait in enumerate(self.waits):
            if wait >= threshold_ms:
                found.append(f"seat {seat} waited up to {wait:.0f} ms in one turn for a free CPU: "
                             "the machine is overloaded (run fewer jobs at once)")
        found.extend(self._late_warnings())
        lag = 0.0 if self.lag_from is None else monitor.max_lag_ms(self.lag_from)
        if lag >= max(10.0, self.clock.grace_ms):
            found.append(f"the harness was delayed up to {lag:.0f} ms: the machine is overloaded, "
                         "timeouts may be spurious (run fewer jobs at once)")
        return found

    def _late_warnings(self) -> list[str]:
        """One line per seat with answers read past their deadline (the latest of them)."""
        lines = []
        for seat in sorted({seat for seat, _, _, _ in self.late}):
            answers = [late for late in self.late if late[0] == seat]
            _, turn, latency_ms, deadline_ms = max(answers, key=lambda late: late[2] - late[3])
            more = f" (and {len(answers) - 1} more)" if len(answers) > 1 else ""
            lines.append(f"seat {seat}'s answer at turn {turn} was read {latency_ms - deadline_ms:.1f} "
                         f"ms past its {deadline_ms:.0f} ms deadline{more}: counted, because the "
                         "harness itself was late to look (it may have come in time): the machine "
                         "is overloaded (run fewer jobs at once)")
        return lines

    def result(self) -> MatchResult:
        count = len(self.players)
        bots = self.bots
        if self.state is not None and self.referee_error is None:
            scores = [float(score) for score in self.state.scores()]
        else:
            scores = [0.0] * count
        if self.referee_error is not None:
            reason, ranks, winner = self.error_reason, [0] * count, None
        else:
            ranks, reason, winner = settle(scores, self.faults, self.state.end_reason)
        results = [PlayerResult(bot=spec.name, score=scores[seat], rank=ranks[seat],
                                fault=self.faults[seat], latencies_ms=self.latencies[seat],
                                cpu_ms=self.cpu[seat],
                                pdata=dict(bots[seat].pdata) if seat < len(bots) else {},
                                stderr_bytes=bots[seat].stderr_total_bytes if seat < len(bots) else 0,
                                margin_ms=self.margins[seat], max_wait_ms=self.waits[seat],
                                waits_ms=self.wait_lists[seat])
                   for seat, spec in enumerate(self.players)]
        return MatchResult(game=self.game.name, seed=self.seed, options=self.options,
                           turns=self.turn, reason=reason, winner=winner, players=results,
                           records=self.records, wall_s=time.perf_counter() - self.started_at,
                           referee_error=self.referee_error, warnings=self.warnings())
