"""brutaltester's "old mode" referee protocol (the ### protocol), driven with botarena's clock.

botarena sends ``###Seed N`` (when the game file asks for it) and ``###Start P``; the referee
prints ``###Input i`` then the lines for player i up to its next ### line, ``###Output i n`` to
have n lines of player i relayed to it, and at last ``###End`` followed by the ranks, best first,
players tied sharing one token (``###End 01 2``). ``###Error i ...`` is a note (mostly on stderr).
The protocol has no time limits and no way to tell the referee a player failed, so botarena
keeps the time (the game file's first_turn_ms and turn_ms, per player) and a fault ends the game
with the faulty player ranked last, the others sharing the first rank.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from referee.api import RefereeError, RefereeOutcome, Reply, Request
from referee.external.channel import Channel


class BrutalReferee:
    """One game through a ### referee: the seam's Referee over a :class:`Channel`."""

    steps_are_frames = True             # its turn is the step: a fault names the seat's own turn

    def __init__(self, open_channel: Callable[[], Channel], *, seed_line: bool, first_turn_ms: int,
                 turn_ms: int, grace_ms: int, referee_timeout_ms: int, label: str):
        self.open_channel = open_channel
        self.seed_line = seed_line
        self.first_turn_ms, self.turn_ms, self.grace_ms = first_turn_ms, turn_ms, grace_ms
        self.timeout_s = referee_timeout_ms / 1000
        self.label = label
        self.channel: Channel | None = None
        self.players = 0
        self.inputs: list[list[str]] = []
        self.answered: list[int] = []
        self.asked: list[int] = []              # per seat: times asked (its own turns)
        self.ranks: list[int] | None = None
        self.reason = ""
        self.steps = 0
        self.turn = 0                       # steps asked so far (replays' turn)
        self.step_slack_s = self.timeout_s  # the referee's own time per step (the watchdog's)
        self._asked: Request | None = None
        self._line: str | None = None           # a line read ahead (the ### after an input block)
        self._notes: list[str] = []

    # -- the seam ----------------------------------------------------------------------------
    def start(self, seed: int, players: int) -> None:
        self.players = players
        self.inputs = [[] for _ in range(players)]
        self.answered = [0] * players
        self.asked = [0] * players
        self.channel = channel = self.open_channel()
        channel.write(([f"###Seed {seed}"] if self.seed_line else []) + [f"###Start {players}"])

    def requests(self) -> Sequence[Request]:
        if self._asked is not None:
            return [self._asked]
        if self.ranks is not None:
            return []
        deadline = time.perf_counter() + self.timeout_s
        while True:
            line = self._next_line(deadline)
            words = line.split()
            head = words[0] if words else ""
            if head == "###Input":
                seat = self._seat(words, line, 2)
                self.inputs[seat] += self._input_block(deadline)
            elif head == "###Output":
                seat = self._seat(words, line, 3)
                count = _integer(words[2])
                if count is None or count < 1:
                    raise self._garbage(f"{line!r}: expected ###Output PLAYER LINES (lines >= 1)")
                return [self._ask(seat, count)]
            elif head == "###End":
                self._finish(words[1:], line)
                return []
            elif head == "###Error":
                self._notes.append(line)
            else:
                raise self._garbage(f"{_cut(line)} where a ### command was expected")

    def submit(self, replies: Sequence[Reply]) -> Sequence[tuple[int, str]]:
        asked, self._asked = self._asked, None
        for reply in replies:
            if asked is None or reply.seat != asked.seat:
                raise RefereeError(f"{self.label}: a reply for seat {reply.seat} that was not asked")
            if reply.fault is not None:     # the protocol cannot say so: the game ends here
                self.ranks = [self.players - 1 if seat == reply.seat else 0
                              for seat in range(self.players)]
                self.reason = f"seat {reply.seat} {reply.fault.value}: the ### protocol ends the game"
                self.close()
                return []
            self.answered[reply.seat] += 1
            self._open().write(list(reply.lines))
        return []

    def outcome(self) -> RefereeOutcome:
        if self.ranks is None:
            raise RefereeError(f"{self.label}: the game has no ranks")
        # a score is the number of players it finished ahead of (ranks are all the protocol has)
        scores = [float(sum(1 for other in self.ranks if other > rank)) for rank in self.ranks]
        return RefereeOutcome(tuple(scores), self.reason, max(self.asked), tuple(self.ranks),
                              frames=self.steps)

    def step_notes(self) -> dict[str, Any] | None:
        notes, self._notes = self._notes, []
        return {"errors": notes} if notes else None

    def close(self) -> None:
        channel, self.channel = self.channel, None
        if channel is not None:
            channel.close()

    # -- the protocol --------------------------------------------------------------------------
    def _ask(self, seat: int, count: int) -> Request:
        budget = self.first_turn_ms if self.answered[seat] == 0 else self.turn_ms
        lines, self.inputs[seat] = tuple(self.inputs[seat]), []
        self.asked[seat] += 1
        self.turn = self.steps
        self.steps += 1
        self._asked = Request(seat, lines, count, budget, self.grace_ms)
        return self._asked

    def _next_line(self, deadline: float) -> str:
        if self._line is not None:
            line, self._line = self._line, None
            return line
        return self._open().read_line(deadline)

    def _open(self) -> Channel:
        if self.channel is None:
            raise RefereeError(f"{self.label}: the referee is closed")
        return self.channel

    def _input_block(self, deadline: float) -> list[str]:
        """The lines after ###Input, up to the next ### line (kept for the next read)."""
        lines: list[str] = []
        channel = self._open()
        while True:
            line = channel.read_line(deadline)
            if line.startswith("###"):
                self._line = line
                return lines
            lines.append(line)

    def _seat(self, words: list[str], line: str, length: int) -> int:
        seat = _integer(words[1]) if len(words) == length else None
        if seat is None or not 0 <= seat < self.players:
            raise self._garbage(f"{line!r}: no player {words[1] if len(words) > 1 else '?'} "
                                f"among {self.players}")
        return seat

    def _finish(self, groups: list[str], line: str) -> None:
        """``###End 01 2``: the ranks, best first, tied players' digits in one token."""
        ranks = [-1] * self.players
        place = 0
        for group in groups:
            seats = [_integer(digit) for digit in group]
            for seat in seats:
                if seat is None or not 0 <= seat < self.players or ranks[seat] != -1:
                    raise self._garbage(f"{line!r}: expected each player of {self.players} once")
                ranks[seat] = place
            place += len(seats)
        if -1 in ranks:
            raise self._garbage(f"{line!r}: player {ranks.index(-1)} is not ranked")
        self.ranks = ranks
        self.reason = f"the referee's ranking ({line.strip()})"
        self.close()

    def _garbage(self, what: str) -> RefereeError:
        tail = self.channel.stderr_tail() if self.channel is not None else ""
        return RefereeError(f"{self.label} printed garbage: {what}", tail)


def _integer(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def _cut(text: str, width: int = 80) -> str:
    return repr(text) if len(text) <= width else repr(text[:width]) + "..."
