"""The one match loop, and the only place player faults are caught and recorded.

It plays between players (``referee.api.Player``: bot processes it starts from PlayerSpecs, or
ready ones such as ``referee.testing.ScriptedPlayer``) and asks a referee (``referee.api.Referee``:
a Game's rules, or another kind) for each step: whom to ask, what, within what time.
"""
from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from referee.api import (
    Answer,
    BotArenaError,
    BotFault,
    Fault,
    FaultRecord,
    Game,
    MatchCancelled,
    Player,
    Referee,
    RefereeError,
    Reply,
    Request,
    SeatTurn,
    TimeControl,
    TurnRecord,
    Verdict,
)
from referee.harness.process import DEFAULT_MEMORY_MB, BotProcess
from referee.harness.watchdog import GameWatchdog, WatchdogExpired, monitor
from referee.player_log import log, logged
from referee.result import MatchResult, PlayerResult, _pdata_values, latency_summary, rank_seats, settle
from referee.rules_referee import RulesReferee

# (the result's names are importable from here too, where the loop's callers look for them)
__all__ = ["MatchResult", "PlayerResult", "PlayerSpec", "REPLAY_STDERR_CHARS", "WATCHDOG_SLACK_S",
           "_pdata_values", "latency_summary", "play_match", "rank_seats", "settle"]

REPLAY_STDERR_CHARS = 2000      # stderr tail kept per turn and seat in a replay
WATCHDOG_SLACK_S = 10.0         # a turn may take its budgets plus this before the game is cut off


@dataclass(frozen=True)
class PlayerSpec:
    """How to start one bot: its display name, argv and extra environment."""

    name: str
    argv: tuple[str, ...]
    env: dict[str, str] | None = None


def play_match(game: Game | Any, players: Sequence[PlayerSpec | Player], *, seed: int,
               options: dict[str, Any] | None = None, time_control: TimeControl | None = None,
               memory_mb: int | None = DEFAULT_MEMORY_MB, record: bool = True,
               on_turn: Callable[[int], None] | None = None,
               watchdog_s: float = WATCHDOG_SLACK_S, sandboxed: bool = False,
               line_buffered: bool = True,
               on_turns_done: Callable[[], None] | None = None,
               on_bots_started: Callable[[], None] | None = None) -> MatchResult:
    """Play one game and return its result (with the replay records).

    ``game``: a Game (its rules referee the game) or anything with the same static facts (name,
    time_control, parse_options) and a ``referee(options, time_control)`` factory of a Referee. ``players``:
    a PlayerSpec starts a bot process (closed at the end); a ready Player (a
    ``referee.testing.ScriptedPlayer``) is played as it is, and closed at the end too.

    Player faults end the game with a fault on that seat (or as the referee decides). A
    failure of the referee itself (an exception in the game's code, or a turn that does not
    finish within its budgets plus ``watchdog_s``) does not raise: the result has ``reason``
    "referee error: ..." and the traceback in ``referee_error``.
    Raises only BotStartError (a bot command that cannot start: a UsageError),
    another UsageError from the game, MatchCancelled, or KeyboardInterrupt; every bot process
    of the game is gone when it returns or raises. ``sandboxed``: each bot
    under bubblewrap (see ``referee.harness.sandbox``). ``line_buffered``: each bot's
    stdout line-buffered, as on CodinGame (see ``referee.harness.output_buffering``).
    ``on_turns_done`` is called once the last answer is in (or the game failed), before
    the bots are given their moment to exit and are cleaned up: a runner may start the
    next game's bots meanwhile. ``on_bots_started`` is called once every bot has started and
    before any input is sent (CodinGame too starts the bots before the first input): a runner
    may wait there for its turn to play, the watchdog off meanwhile; a MatchCancelled (or a
    BotArenaError) it raises ends the game unplayed (bots closed) and propagates.
    """
    options = dict(options) if options is not None else game.parse_options({})
    clock = time_control or game.time_control
    referee = (RulesReferee(game, options, clock) if isinstance(game, Game)
               else game.referee(options, clock))
    run = _Match(game.name, referee, [entry.name for entry in players], seed, options, clock,
                 record)
    if not isinstance(game, Game):
        run.game_file = getattr(game, "source", None)       # a game file's path
    watchdog = GameWatchdog(on_fire=run.close_players)
    try:
        run.play(players, _Starter(memory_mb, sandboxed, line_buffered), on_turn, watchdog,
                 watchdog_s, on_bots_started)
    except WatchdogExpired:
        run.referee_failed(f"watchdog: turn {referee.turn} did not finish within "
                           f"{watchdog.fired_after_s:.1f} s", "")
    except (BotArenaError, MatchCancelled, KeyboardInterrupt, SystemExit):
        raise
    except RefereeError as error:
        run.referee_failed(str(error), error.detail)
    except Exception as error:          # a bug in the game's code or the harness: record it
        run.referee_failed(f"{type(error).__name__}: {error}", _traceback_tail(error))
    finally:
        watchdog.disarm()
        if on_turns_done is not None:
            on_turns_done()
        run.close_players()
        referee.close()
    try:
        return run.result()
    except Exception as error:          # the referee's outcome (the game's scores()...) failed
        run.referee_failed(f"{type(error).__name__}: {error}", _traceback_tail(error))
        return run.result()


def _faulted(replies: Sequence[Reply]) -> bool:
    return any(reply.fault is not None for reply in replies)


def _traceback_tail(error: BaseException) -> str:
    return "".join(traceback.format_exception(error)[-12:])


@dataclass(frozen=True, slots=True)
class _Starter:
    """How the match starts a bot process from a PlayerSpec."""

    memory_mb: int | None
    sandboxed: bool
    line_buffered: bool

    def start(self, entry: PlayerSpec | Player) -> Player:
        if not isinstance(entry, PlayerSpec):
            return entry
        return BotProcess(list(entry.argv), name=entry.name, env=entry.env,
                          memory_mb=self.memory_mb, stderr_tail_bytes=REPLAY_STDERR_CHARS,
                          sandboxed=self.sandboxed, line_buffered=self.line_buffered)


class _Match:
    """The state of one game being played (play_match's helper)."""

    def __init__(self, name: str, referee: Referee, names: list[str], seed: int, options: dict[str, Any],
                 clock: TimeControl, record: bool):
        self.name, self.referee, self.names, self.seed = name, referee, names, seed
        self.count = count = len(names)
        self.options, self.clock, self.record = options, clock, record
        self.faults: list[FaultRecord | None] = [None] * count
        self.latencies: list[list[float]] = [[] for _ in range(count)]
        self.cpu: list[list[float]] = [[] for _ in range(count)]
        self.margins: list[float | None] = [None] * count
        self.waits: list[float] = [0.0] * count
        self.wait_lists: list[list[float | None]] = [[] for _ in range(count)]
        # answers read past their deadline whose time of writing is unknown: (seat, turn,
        # latency, deadline); they count, and make the game's timing uncertain
        self.uncertain: list[tuple[int, int, float, float]] = []
        self.answered = [0] * count
        self.asked = [0] * count                # per seat: requests so far (its own turns)
        self.game_file: str | None = None       # a game file's game: its path (for a re-run)
        # a referee that is another process counts frames (one player's answer each): a fault
        # then names the seat's own turn, the frame apart
        self.frames_apart = bool(getattr(referee, "steps_are_frames", False))
        self.records: list[TurnRecord] = []
        self.players: list[Player] = []
        self.failure: tuple[str, str] | None = None    # the referee's: (reason, detail)
        self.started_at = time.perf_counter()
        self.lag_from: float | None = None
        self.last_answer: Answer | None = None  # the answer _ask_unrecorded read last

    def play(self, entries: Sequence[PlayerSpec | Player], starter: _Starter,
             on_turn: Callable[[int], None] | None,
             watchdog: GameWatchdog, slack_s: float,
             on_bots_started: Callable[[], None] | None = None) -> None:
        referee = self.referee
        watchdog.feed(slack_s + self.clock.first_turn_ms / 1000)
        referee.start(self.seed, self.count)
        for entry in entries:
            self.players.append(starter.start(entry))
        self.players[:] = logged(self.players)  # (botarena play -v; as they are otherwise)
        if on_bots_started is not None:
            watchdog.feed(float("inf"))         # waiting for a turn to play is not a stuck turn
            on_bots_started()
        # the per-answer path: what does not change in a game is looked up once here
        next_requests, submit = referee.requests, referee.submit
        ask = self._ask if self.record else self._ask_unrecorded
        # optional, for referees that are other processes: their own time per step, and notes
        # per step (frames, summaries) kept in the replay
        timed: Any = referee if hasattr(referee, "step_slack_s") else None
        notes_of = getattr(referee, "step_notes", None) if self.record else None
        requests = next_requests()
        while requests:
            turn = referee.turn
            watchdog.feed(slack_s + (timed.step_slack_s if timed is not None else 0.0)
                          + sum(request.budget_ms + request.grace_ms for request in requests) / 1000)
            turn_record = TurnRecord(turn=turn) if self.record else None
            if turn_record is not None and notes_of is not None:
                turn_record.notes = notes_of() or None
            replies = [ask(request, turn, turn_record) for request in requests]
            if turn_record is not None:
                self.records.append(turn_record)
            refused = submit(replies)
            if refused:
                self._refuse(refused, turn)
            requests = next_requests()
            # a step a fault cut short counts as played only if the game goes on after it
            if on_turn is not None and (requests or not (refused or _faulted(replies))):
                on_turn(referee.turn)
        if notes_of is not None:
            notes = notes_of()                  # the referee's last word, after the last step
            if notes:
                self.records.append(TurnRecord(turn=referee.turn, notes=notes))

    def _ask(self, request: Request, turn: int, turn_record: TurnRecord | None) -> Reply:
        """One player asked, recorded for the replay: its input, answer, latency and stderr."""
        assert turn_record is not None
        lines = request.lines
        seat_turn = SeatTurn(seat=request.seat, input=lines if type(lines) is list else list(lines),
                             output=None, latency_ms=None)
        turn_record.seats.append(seat_turn)
        reply = self._ask_unrecorded(request, turn, turn_record)
        if reply.fault is None:
            answer = self.last_answer
            assert answer is not None
            seat_turn.output, seat_turn.latency_ms = "\n".join(reply.lines), round(answer.latency_ms, 3)
            seat_turn.cpu_ms = None if answer.cpu_ms is None else round(answer.cpu_ms, 1)
        seat_turn.stderr = self.players[request.seat].take_stderr()
        return reply

    def _ask_unrecorded(self, request: Request, turn: int, turn_record: TurnRecord | None) -> Reply:
        """One player asked (a match's games keep no replay): send, read, a fault recorded."""
        seat = request.seat
        player = self.players[seat]
        budget_ms = request.budget_ms
        timeout_s = (budget_ms + request.grace_ms) / 1000
        lines: tuple[str, ...]
        self.asked[seat] += 1
        try:
            started = player.send(request.lines, timeout_s)
            if request.answer_lines == 1:
                answer = self.last_answer = player.read_line(started, timeout_s)
                lines = (answer.line,)
            else:
                lines, answer = self._read_lines(player, request.answer_lines, started, timeout_s)
        except BotFault as fault:
            if self.faults[seat] is None:       # a seat asked again after a fault keeps its first
                self.faults[seat] = self._fault(fault.kind, seat, turn, fault.detail)
            return Reply(seat, (), None, fault.kind)
        self._note_timing(seat, turn, answer, budget_ms, request.grace_ms)
        return Reply(seat, lines, answer.latency_ms)

    def _read_lines(self, player: Player, count: int, started: float,
                    timeout_s: float) -> tuple[tuple[str, ...], Answer]:
        """``count`` lines against one deadline; the answer's latency is the last line's, its
        CPU time the sum of the lines' readings."""
        answers = [player.read_line(started, timeout_s, index == count - 1)
                   for index in range(count)]
        cpu = [answer.cpu_ms for answer in answers if answer.cpu_ms is not None]
        waits = [answer.wait_ms for answer in answers if answer.wait_ms is not None]
        last = answers[-1]
        self.last_answer = Answer(last.line, last.latency_ms, sum(cpu) if cpu else None,
                                  sum(waits) if waits else None,
                                  any(answer.timing_uncertain for answer in answers))
        return tuple(answer.line for answer in answers), self.last_answer

    def _refuse(self, refused: Sequence[Verdict], turn: int) -> None:
        """The faults the referee found: BAD_OUTPUT for the answers it refused, with a hint when
        the player printed another line right after (the refused one was likely debug output),
        or the kind it named."""
        for verdict in refused:
            seat, detail = verdict[0], verdict[1]
            kind = verdict[2] if len(verdict) == 3 else Fault.BAD_OUTPUT
            following = self.players[seat].line_following() if kind is Fault.BAD_OUTPUT else None
            if following is not None:
                detail += (f"; the next line it printed was {following}: if the refused line "
                           "was debug output, print that to stderr, only the answer to stdout")
            log.debug("seat%d !! %s: %s", seat, kind.value, detail)
            if self.faults[seat] is None:
                self.faults[seat] = self._fault(kind, seat, turn, detail)

    def _fault(self, kind: Fault, seat: int, turn: int, detail: str) -> FaultRecord:
        if self.frames_apart:
            return FaultRecord(kind, self.asked[seat], detail, frame=turn)
        return FaultRecord(kind, turn, detail)

    def _note_timing(self, seat: int, turn: int, answer: Answer, budget_ms: int, grace_ms: int) -> None:
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
        if answer.timing_uncertain or margin < -grace_ms:
            # found past the deadline by a harness that woke late, and not known to have been
            # written after it (that is a timeout: see read_line)
            self.uncertain.append((seat, turn, latency_ms, budget_ms + grace_ms))
        smallest = self.margins[seat]
        if smallest is None or margin < smallest:
            self.margins[seat] = margin
        self.answered[seat] = answered + 1
        if self.lag_from is None and all(self.answered):
            self.lag_from = time.perf_counter()     # start-up contention is over

    def referee_failed(self, reason: str, detail: str) -> None:
        self.failure = ("referee error: " + reason, detail or reason)

    def close_players(self) -> None:
        """Every player's input ended first, so they exit together, then each closed."""
        players = list(self.players)
        for player in players:
            player.end_input()
        for player in players:
            player.close()

    def warnings(self) -> list[str]:
        """Signs that the machine, not the bots, was slow during this game."""
        found = []
        threshold_ms = max(5.0, self.clock.grace_ms / 2)
        for seat, wait in enumerate(self.waits):
            if wait >= threshold_ms:
                found.append(f"seat {seat} waited up to {wait:.0f} ms in one turn for a free CPU: "
                             "the machine is overloaded (run fewer jobs at once)")
        found.extend(self._uncertain_warnings())
        lag = 0.0 if self.lag_from is None else monitor.max_lag_ms(self.lag_from)
        if lag >= max(10.0, self.clock.grace_ms):
            found.append(f"the harness was delayed up to {lag:.0f} ms: the machine is overloaded, "
                         "timeouts may be spurious (run fewer jobs at once)")
        return found

    def _uncertain_warnings(self) -> list[str]:
        """One line per seat with answers of uncertain timing (the latest of them)."""
        lines = []
        for seat in sorted({seat for seat, _, _, _ in self.uncertain}):
            answers = [late for late in self.uncertain if late[0] == seat]
            _, turn, latency_ms, deadline_ms = max(answers, key=lambda late: late[2] - late[3])
            more = f" (and {len(answers) - 1} more)" if len(answers) > 1 else ""
            lines.append(f"seat {seat}'s answer at turn {turn} was read {latency_ms - deadline_ms:.1f} "
                         f"ms past its {deadline_ms:.0f} ms deadline{more}, and when it was "
                         "written cannot be told: counted, but the game's timing is uncertain "
                         "(the harness itself was late to look: the machine is overloaded; run "
                         "fewer jobs at once)")
        return lines

    def result(self) -> MatchResult:
        count, players = self.count, self.players
        referee_error = None
        if self.failure is not None:
            reason, referee_error = self.failure
            scores, ranks, winner = [0.0] * count, [0] * count, None
            turns, frames = self.referee.turn, None
            if self.frames_apart:
                turns, frames = max(self.asked, default=0), self.referee.turn
        else:
            outcome = self.referee.outcome()
            scores = [float(score) for score in outcome.scores]
            ranks, reason, winner = settle(scores, self.faults, lambda: outcome.reason,
                                           outcome.ranks)
            turns, frames = outcome.turns, outcome.frames
        results = [PlayerResult(bot=self.names[seat], score=scores[seat], rank=ranks[seat],
                                fault=self.faults[seat], latencies_ms=self.latencies[seat],
                                cpu_ms=self.cpu[seat],
                                pdata=dict(players[seat].pdata) if seat < len(players) else {},
                                stderr_bytes=players[seat].stderr_total_bytes
                                if seat < len(players) else 0,
                                margin_ms=self.margins[seat], max_wait_ms=self.waits[seat],
                                waits_ms=self.wait_lists[seat])
                   for seat in range(count)]
        return MatchResult(game=self.name, seed=self.seed, options=self.options,
                           turns=turns, reason=reason, winner=winner, players=results,
                           records=self.records, wall_s=time.perf_counter() - self.started_at,
                           referee_error=referee_error, warnings=self.warnings(),
                           frames=frames, game_file=self.game_file,
                           timing_uncertain=bool(self.uncertain))
