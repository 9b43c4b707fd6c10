"""``botarena bundle --check``: the bundle is the same bot as the original, answer for answer.

Both play the same opponent on the same seeds, the bot in seat 0 on the first seed, seat 1 on
the second and so on (one seat in a one-player game); every answer of every turn must be the
same, and so must every input (an opponent that answers differently to the same game would
make the comparison meaningless: a built-in opponent is seeded from the game seed and its seat).
The clock is generous (``CHECK_CLOCK``): the check is about answers, not speed, and a bot that
searches until its clock runs out answers differently from run to run anyway.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.api import Game, TimeControl
from referee.match import MatchResult, PlayerSpec, play_match
from tools.arena.botspec import for_game

CHECK_CLOCK = TimeControl(first_turn_ms=20_000, turn_ms=10_000, grace_ms=1_000)
DEFAULT_SEEDS = tuple(range(1, 21))


@dataclass(frozen=True)
class Difference:
    seed: int
    seat: int
    turn: int
    what: str                 # "answer", "input", "fault"
    original: str
    bundled: str

    def describe(self) -> str:
        return (f"seed {self.seed}, seat {self.seat}, turn {self.turn}: the original's {self.what} "
                f"was {self.original!r}, the bundle's {self.bundled!r}")


@dataclass(frozen=True)
class CheckReport:
    games: int                   # games of each (original and bundle) compared
    answers: int                 # answers compared and found equal
    difference: Difference | None
    original_fault: str | None = None    # the original did not finish a game: nothing proven

    @property
    def passed(self) -> bool:
        return self.difference is None and self.original_fault is None


def seats_for(game: Game) -> int:
    """Players in a checked game: two where the game allows it, else its minimum."""
    low, high = game.seats
    return max(low, min(2, high))


def _play(game: Game, bot: PlayerSpec, opponent: PlayerSpec, seed: int, seat: int,
          options: dict, memory_mb: int | None) -> MatchResult:
    count = seats_for(game)
    players = [bot if index == seat else for_game(opponent, seed, index) for index in range(count)]
    return play_match(game, players, seed=seed, options=options, time_control=CHECK_CLOCK,
                      memory_mb=memory_mb, record=True)


def _exchanges(result: MatchResult, seat: int) -> list[tuple[int, tuple[str, ...], str | None]]:
    return [(record.turn, tuple(turn.input), turn.output)
            for record in result.records for turn in record.seats if turn.seat == seat]


def _fault_text(result: MatchResult, seat: int) -> str:
    fault = result.players[seat].fault
    return "none" if fault is None else f"{fault.kind.value} at turn {fault.turn}: {fault.detail}"


def compare(original: MatchResult, bundled: MatchResult, seed: int,
            seat: int) -> tuple[int, Difference | None]:
    """Answers found equal, and the first difference (None: the same game)."""
    ours, theirs = _exchanges(original, seat), _exchanges(bundled, seat)
    equal = 0
    for (turn, given, answer), (_, given_b, answer_b) in zip(ours, theirs):
        if given != given_b:
            return equal, Difference(seed, seat, turn, "input", "\n".join(given),
                                     "\n".join(given_b))
        if answer != answer_b:
            return equal, Difference(seed, seat, turn, "answer", str(answer), str(answer_b))
        equal += 1
    if len(ours) != len(theirs) or _fault_text(original, seat) != _fault_text(bundled, seat):
        turn = min(len(ours), len(theirs))
        return equal, Difference(seed, seat, turn, "fault", _fault_text(original, seat),
                                 _fault_text(bundled, seat))
    return equal, None


def check_bundle(game: Game, original: PlayerSpec, bundled: PlayerSpec, opponent: PlayerSpec,
                 *, seeds: Sequence[int] = DEFAULT_SEEDS, options: dict | None = None,
                 memory_mb: int | None = None) -> CheckReport:
    """Play ``original`` and ``bundled`` against ``opponent`` on ``seeds``; stops at the first
    difference."""
    options = game.parse_options({}) if options is None else options
    answers = 0
    for index, seed in enumerate(seeds):
        seat = index % seats_for(game)
        first = _play(game, original, opponent, seed, seat, options, memory_mb)
        second = _play(game, bundled, opponent, seed, seat, options, memory_mb)
        equal, difference = compare(first, second, seed, seat)
        answers += equal
        if difference is not None:
            return CheckReport(index + 1, answers, difference)
        if first.players[seat].fault is not None:
            return CheckReport(index + 1, answers, None,
                               f"seed {seed}, seat {seat}: {_fault_text(first, seat)}")
    return CheckReport(len(seeds), answers, None)
