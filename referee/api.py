"""The contracts of the referee package: Game, State and Codec; the match loop's two seams
(Player, Referee) and the values they pass; faults, time control, the error tree.

A game lives in ``referee/games/<name>/`` and exposes ``GAME``, an instance of a
:class:`Game` subclass. Its rules (``rules.py``) are stdlib only, because bots
search with the very same code; its codec (``codec.py``) turns a state into the
exact input lines of a seat and parses a seat's answer line.

The match loop (``referee.match``) plays between *players* (:class:`Player`: a bot process,
or ``referee.testing.ScriptedPlayer``) and asks a *referee* (:class:`Referee`: a game's rules
and codec, ``referee.rules_referee.RulesReferee``, or a referee that is another process)
whom to ask what, within what time, and who won.
"""
from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol, runtime_checkable

# -- errors: what a user can fix (BotArenaError) is apart from what is not theirs ---------------

class BotArenaError(Exception):
    """Base error of the referee package: bad input a user can fix (one line, no traceback)."""


class UsageError(BotArenaError):
    """A command line, an option or a file the user gave cannot be used."""


class InvalidAction(BotArenaError):
    """A bot's answer line cannot be played; the message says why, quoting the line."""


class RefereeError(Exception):
    """The referee failed (not the bots, not the user): the game is recorded without a result,
    ``detail`` (the referee's own words or its stderr tail) in its ``referee_error``."""

    def __init__(self, message: str, detail: str = ""):
        super().__init__(message)
        self.detail = detail


class MatchCancelled(Exception):
    """The caller stopped a game (a run that dropped it, a cluster that cancelled it): raised
    from a ``play_match`` callback, it ends the game unplayed, its players closed, and
    propagates. An internal signal, never shown to a user."""


# The largest score (in size) botarena takes from a referee: a results file holds nothing larger
# (tools.arena.results), and the summaries square scores (1e300 squared overflows).
MAX_SCORE = 1e15


class TurnOrder(enum.Enum):
    SIMULTANEOUS = "simultaneous"
    ALTERNATING = "alternating"
    SINGLE = "single"


class Fault(enum.Enum):
    TIMEOUT = "timeout"
    CRASH = "crash"
    BAD_OUTPUT = "bad_output"


class Ending(enum.Enum):
    """How a game ended: by its rules, by a player's fault, or with the referee failed."""

    RULES = "rules"
    FAULT = "fault"
    REFEREE_ERROR = "referee error"


class BotFault(Exception):
    """A player misbehaved (raised by ``Player.send``/``read_line``): the match loop records it
    as a fault of that player."""

    def __init__(self, kind: Fault, detail: str):
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


class Answer(NamedTuple):
    """One answer line and its wall latency. ``cpu_ms``: the bot's CPU time since its
    previous measured answer; ``wait_ms``: the time it was runnable but waiting for a CPU
    (machine overload). Both are None for answers faster than 1 ms, where reading them
    would cost more than the answer (they then count towards the next measured answer).
    ``timing_uncertain``: read past its deadline, and when it was written cannot be told
    (see ``referee.harness.arrival``): counted, but the game's result is not a sure one."""

    line: str
    latency_ms: float
    cpu_ms: float | None
    wait_ms: float | None = None
    timing_uncertain: bool = False


@dataclass(frozen=True, slots=True)
class FaultRecord:
    """A seat's fault: its kind, when, and the words. ``turn`` is the game's turn; with a
    referee that is another process (its steps are frames: one player's answer each), it is the
    seat's own turn (its answer count) and ``frame`` the referee's frame."""

    kind: Fault
    turn: int
    detail: str
    frame: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind.value, "turn": self.turn, "detail": self.detail}
        if self.frame is not None:
            data["frame"] = self.frame
        return data


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Per-turn budgets in milliseconds; ``grace_ms`` absorbs harness jitter, latency is kept raw."""

    first_turn_ms: int = 1000
    turn_ms: int = 50
    grace_ms: int = 10

    def budget_ms(self, answer_index: int) -> int:
        """The budget of a bot's ``answer_index``-th answer (0 = its first)."""
        return self.first_turn_ms if answer_index == 0 else self.turn_ms


class State(Protocol):
    """What the match loop and the search library need of a game position.

    ``apply`` takes one action per acting seat, in the order of ``acting_seats()``.
    """

    turn: int

    def acting_seats(self) -> Sequence[int]: ...
    def legal_actions(self, seat: int) -> Sequence[Any]: ...
    def apply(self, actions: Sequence[Any]) -> None: ...
    def is_over(self) -> bool: ...
    def scores(self) -> Sequence[float]: ...
    def end_reason(self) -> str: ...
    def clone(self) -> State: ...


@runtime_checkable
class Codec(Protocol):
    """A game's protocol with its players: its ``codec.py`` module is one (mypy checks the
    module against this). ``init_lines(state, seat) -> list[str]``, the block sent once before
    a seat's first turn block, is optional (left out: no init block), so it is not a member."""

    def turn_lines(self, state: Any, seat: int) -> list[str]:
        """The turn's input block for ``seat``."""
        ...

    def parse_action(self, state: Any, seat: int, line: str) -> Any:
        """The action of an answer ``line``; raises InvalidAction with a reason quoting it."""
        ...

    def action_text(self, action: Any) -> str:
        """The wire form of an action."""
        ...


@dataclass(frozen=True)
class OptionSpec:
    """A game option settable with ``--option key=value``."""

    name: str
    default: Any
    help: str
    minimum: int | None = None
    maximum: int | None = None

    def parse(self, text: str) -> Any:
        kind = type(self.default)
        try:
            value = kind(text)
        except ValueError:
            raise UsageError(f"option {self.name}={text!r}: expected {kind.__name__}") from None
        if self.minimum is not None and value < self.minimum:
            raise UsageError(f"option {self.name}={text!r}: must be >= {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise UsageError(f"option {self.name}={text!r}: must be <= {self.maximum}")
        return value


class Game:
    """Static facts about a game, the factory of its states, and its codec.

    A game sets the class attributes (``codec`` is its codec module, a :class:`Codec`) and
    implements ``new_state``; the harness talks to the codec through the four methods below,
    which forward to it. ``referee.testing.check_game`` checks a game against this contract.
    """

    name: str = ""
    description: str = ""
    turn_order: TurnOrder = TurnOrder.SIMULTANEOUS
    seats: tuple[int, int] = (2, 2)          # minimum and maximum number of players
    time_control: TimeControl = TimeControl()
    codec: Codec | None = None               # the module with the functions of Codec
    option_specs: tuple[OptionSpec, ...] = ()

    def new_state(self, seed: int, options: dict[str, Any]) -> State:
        """The position a game starts from: the same for the same seed and options everywhere."""
        raise NotImplementedError

    # (a game without a codec overrides the four methods below)
    def init_lines(self, state: State, seat: int) -> list[str]:
        """The initialization block sent once, before the first turn's block (none by default)."""
        init_lines = getattr(self.codec, "init_lines", None)
        return init_lines(state, seat) if init_lines is not None else []

    def turn_lines(self, state: State, seat: int) -> list[str]:
        assert self.codec is not None
        return self.codec.turn_lines(state, seat)

    def parse_action(self, state: State, seat: int, line: str) -> Any:
        """The action of ``line`` for ``seat``; raises InvalidAction with a reason."""
        assert self.codec is not None
        return self.codec.parse_action(state, seat, line)

    def action_text(self, action: Any) -> str:
        """The wire form of an action (used by replays and in-process players)."""
        assert self.codec is not None
        return self.codec.action_text(action)

    # -- options -------------------------------------------------------------
    def parse_options(self, pairs: dict[str, str]) -> dict[str, Any]:
        """Defaults overridden by ``pairs`` (text from the command line), validated."""
        specs = {spec.name: spec for spec in self.option_specs}
        options = {spec.name: spec.default for spec in self.option_specs}
        for key, text in pairs.items():
            if key not in specs:
                known = ", ".join(specs) or "none"
                raise UsageError(f"game {self.name} has no option {key!r} (options: {known})")
            options[key] = specs[key].parse(str(text))
        return options


@dataclass
class SeatTurn:
    """One seat's exchange in one turn, as replays record it."""

    seat: int
    input: list[str]
    output: str | None
    latency_ms: float | None
    cpu_ms: float | None = None
    stderr: str = ""


@dataclass
class TurnRecord:
    turn: int
    seats: list[SeatTurn] = field(default_factory=list)
    notes: dict[str, Any] | None = None           # a referee's own per-step extras (an external one's frames)


# -- the match loop's seams: players and a referee ------------------------------------------------
# Request and Reply are NamedTuples, not frozen dataclasses: one of each is built per answer, and
# a NamedTuple is built in about a third of the time (a frozen dataclass sets each field through
# object.__setattr__). Both are immutable and read by field name all the same.

class Request(NamedTuple):
    """One player asked in one step: what it is sent, how many lines it answers, within what time.

    ``lines`` is any sequence (the rules referee passes its codec's list as it is); the budget
    runs from the input sent to the last expected line, ``grace_ms`` is the harness jitter
    allowed on top of it."""

    seat: int
    lines: Sequence[str]
    answer_lines: int = 1
    budget_ms: int = 50
    grace_ms: int = 0


class Reply(NamedTuple):
    """What came back for one Request: its lines, or a fault (TIMEOUT or CRASH, or BAD_OUTPUT the
    harness refused before any referee saw it) with ``lines`` empty."""

    seat: int
    lines: tuple[str, ...]
    latency_ms: float | None            # None when faulted before any answer
    fault: Fault | None = None


# A referee's verdict on an answer (``Referee.submit``): (seat, reason) refuses it, a BAD_OUTPUT
# fault; (seat, reason, kind) is a fault of that kind (a referee that keeps the time itself, as
# the SDK's soft limit does, times a seat out: TIMEOUT).
Verdict = tuple[int, str] | tuple[int, str, Fault]


@dataclass(frozen=True, slots=True)
class RefereeOutcome:
    """A finished game as its referee scores it; ``ranks`` None: the match loop ranks by score,
    faulted seats last. ``reason`` is not read when a seat faulted (the loop names the faults)."""

    scores: tuple[float, ...]
    reason: str
    turns: int
    ranks: tuple[int, ...] | None = None
    frames: int | None = None       # a referee whose steps are frames: their count (turns: the
                                    # most answers a seat gave)


class Player(Protocol):
    """One player of a game: a bot process (``referee.harness.process.BotProcess``) or a player
    in this process (``referee.testing.ScriptedPlayer``). ``send`` and ``read_line`` raise
    BotFault; ``close`` is idempotent."""

    name: str

    @property
    def pdata(self) -> dict[str, str]:
        """The ``[PDATA] key = value`` lines it reported on stderr."""
        ...

    @property
    def stderr_total_bytes(self) -> int: ...

    def send(self, lines: Sequence[str], timeout_s: float) -> float:
        """Write the input lines; returns the time (perf_counter) the answer's deadline runs from."""
        ...

    def read_line(self, started: float, timeout_s: float, last: bool = True) -> Answer:
        """The next answer line, due ``timeout_s`` after ``started``; ``last`` False: more
        lines of the same answer follow (a multi-line answer), so they are not extra output."""
        ...

    def take_stderr(self) -> str:
        """What the player wrote on stderr since the last call (its tail)."""
        ...

    def line_following(self) -> str | None:
        """The next line it prints within a moment, quoted, or None (asked after a refused line)."""
        ...

    def end_input(self) -> None: ...
    def close(self) -> None: ...


class Referee(Protocol):
    """What the match loop asks at each step: whom to ask, what, within what time; then who won.

    ``turn``: the number of the step the last ``requests()`` returned (after the game: the turn
    count). Any exception but a BotArenaError (a user's error, which propagates) is a failure
    of the referee: the game is recorded without a result (RefereeError: with its detail)."""

    turn: int

    def start(self, seed: int, players: int) -> None: ...

    def requests(self) -> Sequence[Request]:
        """The players to ask now (each is sent its input, then read, in this order); empty:
        the game is over."""
        ...

    def submit(self, replies: Sequence[Reply]) -> Sequence[Verdict]:
        """The replies to the last ``requests()``, in its order; returns (seat, reason) for each
        answer refused (the loop records a BAD_OUTPUT fault), or (seat, reason, kind) for a
        fault of another kind the referee found (see Verdict). Whether a game goes on after a
        fault is the referee's decision."""
        ...

    def outcome(self) -> RefereeOutcome: ...
    def close(self) -> None: ...
