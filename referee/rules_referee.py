"""A game's own rules and codec as the match loop's referee (the built-in games' referee).

Each step asks every acting seat, with its turn's input block (the initialization block first,
with a seat's first block) and the budget of its first or a later answer; a fault or a refused
answer ends the game, scored as the rules score its position then. This code runs once per
answer: what does not change in a game is looked up once, in ``start``.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from referee.api import Game, InvalidAction, RefereeOutcome, Reply, Request, State, TimeControl

FAULT_SCORE = -1.0                  # a seat that faulted, in a game of several players
_NONE_REFUSED: tuple[tuple[int, str], ...] = ()


def fault_scores(scores: Sequence[float], faulted: Collection[int]) -> tuple[float, ...]:
    """The rules' scores with each seat that faulted scored -1 in a game of several players, as
    CodinGame's referees score a deactivated player (Xmas Rush's official referee included), so
    a built-in game and its official referee agree in every field. A single player keeps its
    score (a solo game compares seeds: its fault already loses)."""
    if len(scores) < 2 or not faulted:
        return tuple(float(score) for score in scores)
    return tuple(FAULT_SCORE if seat in faulted else float(score)
                 for seat, score in enumerate(scores))


def _codec_function(game: Game, name: str) -> Callable[..., Any]:
    """The codec's own function when the game forwards to it as the base class does (one call
    less per answer), else the game's method."""
    forwards = getattr(type(game), name) is getattr(Game, name) and game.codec is not None
    function: Callable[..., Any] = getattr(game.codec if forwards else game, name)
    return function


class RulesReferee:
    """The referee of a :class:`Game`: its rules decide, its codec speaks to the players."""

    state: State                        # set by start()

    def __init__(self, game: Game, options: dict[str, Any], clock: TimeControl):
        self.game, self.options, self.clock = game, options, clock
        self.turn = 0
        self._faulted: set[int] = set()     # the seats that faulted (the game then ends)
        self._asked: list[int] = []

    def start(self, seed: int, players: int) -> None:
        self.state = self.game.new_state(seed, self.options)
        self.turn = self.state.turn
        self._asked = [0] * players
        self._turn_lines = _codec_function(self.game, "turn_lines")
        self._parse_action = _codec_function(self.game, "parse_action")

    def requests(self) -> Sequence[Request]:
        state = self.state
        self.turn = state.turn
        if self._faulted or state.is_over():
            return ()
        clock, asked, turn_lines = self.clock, self._asked, self._turn_lines
        grace_ms, requests = clock.grace_ms, []
        for seat in state.acting_seats():
            lines = turn_lines(state, seat)
            if asked[seat]:
                requests.append(Request(seat, lines, 1, clock.turn_ms, grace_ms))
            else:
                lines = self.game.init_lines(state, seat) + lines
                requests.append(Request(seat, lines, 1, clock.first_turn_ms, grace_ms))
            asked[seat] += 1
        return requests

    def submit(self, replies: Sequence[Reply]) -> Sequence[tuple[int, str]]:
        state, parse_action = self.state, self._parse_action
        actions, refused = [], None
        for reply in replies:
            if reply.fault is not None:
                self._faulted.add(reply.seat)
                continue
            try:
                actions.append(parse_action(state, reply.seat, reply.lines[0]))
            except InvalidAction as invalid:
                refused = (refused or []) + [(reply.seat, str(invalid))]
        if refused is not None:
            self._faulted.update(seat for seat, _ in refused)
            return refused
        if not self._faulted:
            state.apply(actions)
        return _NONE_REFUSED

    def outcome(self) -> RefereeOutcome:
        state = self.state
        scores = fault_scores(state.scores(), self._faulted)
        # the rules' end reason of a game a fault cut off is not asked for (the position is
        # not an ended game; the loop names the faults instead)
        reason = "" if self._faulted else state.end_reason()
        return RefereeOutcome(scores, reason, state.turn)

    def close(self) -> None:
        """Nothing to end: the rules run in this process."""
