"""The contract between the harness and a game: Game, State, faults, time control, errors.

A game lives in ``referee/games/<name>/`` and exposes ``GAME``, an instance of a
:class:`Game` subclass. Its rules (``rules.py``) are stdlib only, because bots
search with the very same code; its codec (``codec.py``) turns a state into the
exact input lines of a seat and parses a seat's answer line.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence


class BotArenaError(Exception):
    """Base error of the referee package: bad input a user can fix (one line, no traceback)."""


class UsageError(BotArenaError):
    """A command line, an option or a file the user gave cannot be used."""


class InvalidAction(BotArenaError):
    """A bot's answer line cannot be played; the message says why, quoting the line."""


class TurnOrder(enum.Enum):
    SIMULTANEOUS = "simultaneous"
    ALTERNATING = "alternating"
    SINGLE = "single"


class Fault(enum.Enum):
    TIMEOUT = "timeout"
    CRASH = "crash"
    BAD_OUTPUT = "bad_output"


@dataclass(frozen=True, slots=True)
class FaultRecord:
    kind: Fault
    turn: int
    detail: str

    def to_json(self) -> dict:
        return {"kind": self.kind.value, "turn": self.turn, "detail": self.detail}


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
    def legal_actions(self, seat: int) -> list: ...
    def apply(self, actions: Sequence[Any]) -> None: ...
    def is_over(self) -> bool: ...
    def scores(self) -> Sequence[float]: ...
    def end_reason(self) -> str: ...
    def clone(self) -> "State": ...


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

    A game sets the class attributes (``codec`` is its codec module) and implements
    ``new_state``; the harness talks to the codec through the four methods below, which
    forward to it. Every codec has the same signatures::

        init_lines(state, seat) -> list[str]     # optional: the block sent once, first
        turn_lines(state, seat) -> list[str]     # the turn's input block for ``seat``
        parse_action(state, seat, line) -> action   # raises InvalidAction with a reason
        action_text(action) -> str               # the wire form of an action
    """

    name: str = ""
    description: str = ""
    turn_order: TurnOrder = TurnOrder.SIMULTANEOUS
    seats: tuple[int, int] = (2, 2)          # minimum and maximum number of players
    time_control: TimeControl = TimeControl()
    codec: Any = None                        # the module with the functions above
    option_specs: tuple[OptionSpec, ...] = ()

    def new_state(self, seed: int, options: dict[str, Any], players: int) -> State:
        raise NotImplementedError

    def init_lines(self, state: State, seat: int) -> list[str]:
        """The initialization block sent once, before the first turn's block (none by default)."""
        init_lines = getattr(self.codec, "init_lines", None)
        return init_lines(state, seat) if init_lines is not None else []

    def turn_lines(self, state: State, seat: int) -> list[str]:
        return self.codec.turn_lines(state, seat)

    def parse_action(self, state: State, seat: int, line: str) -> Any:
        """The action of ``line`` for ``seat``; raises InvalidAction with a reason."""
        return self.codec.parse_action(state, seat, line)

    def action_text(self, action: Any) -> str:
        """The wire form of an action (used by replays and in-process players)."""
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
