"""Values of positions and random playouts, shared by the Monte Carlo searches.

A value is a float in [0, 1] for one seat: 1 a win, 0.5 a draw, 0 a loss. An *evaluation* is
any ``evaluate(state, seat) -> float`` in [0, 1] that scores positions the playouts cut short;
the UCB1 constants assume that range. Single-player searches take raw scores instead.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, Self

# An evaluation or a playout is written for one game's state class, so it takes ``Any``: a
# parameter typed ``State`` would refuse it (a callable's parameters are contravariant).
Evaluate = Callable[[Any, int], float]


class State(Protocol):
    """What the searches need of a position: the game's State (``referee.api.State``) without
    what only the referee reads. ``apply`` takes one action per acting seat, in the order of
    ``acting_seats()``. (A protocol of its own: the search library imports no referee module.)"""

    def acting_seats(self) -> Sequence[int]: ...
    def legal_actions(self, seat: int) -> Sequence[Any]: ...
    def apply(self, actions: Sequence[Any]) -> None: ...
    def is_over(self) -> bool: ...
    def scores(self) -> Sequence[float]: ...
    def clone(self) -> Self: ...


class Playout(Protocol):
    """Plays ``state`` on (mutating it) until the game ends or after ``max_turns`` turns."""

    def __call__(self, state: Any, rng: random.Random, max_turns: int | None) -> None: ...


def outcome_value(state: State, seat: int) -> float:
    """The seat's result by rank among the scores: 1 alone on top, 0 alone at the bottom.

    Ties count half (two seats: win 1, draw 0.5, loss 0). A game that is not over scores 0.5
    for every seat of a multi-seat game; a single-player game scores its raw score.
    """
    scores = state.scores()
    if len(scores) == 1:
        return float(scores[0])
    if not state.is_over():
        return 0.5
    mine = scores[seat]
    below = sum(1 for score in scores if score < mine)
    level = sum(1 for score in scores if score == mine) - 1
    return (below + 0.5 * level) / (len(scores) - 1)


def seat_value(state: State, seat: int, evaluate: Evaluate | None) -> float:
    """One seat's value of ``state``: the outcome when it is over, else ``evaluate`` (or 0.5)."""
    if state.is_over() or evaluate is None:
        return outcome_value(state, seat)
    return evaluate(state, seat)


def seat_values(state: State, seats: int, evaluate: Evaluate | None,
                zero_sum: bool = False) -> tuple[float, ...]:
    """Each seat's value of ``state``: the outcome when it is over, else ``evaluate`` (or 0.5).

    ``zero_sum`` (two seats): the evaluation's two values sum to 1, so one call gives both.
    """
    if state.is_over() or evaluate is None:
        return tuple([outcome_value(state, seat) for seat in range(seats)])
    if seats == 2:
        first = evaluate(state, 0)
        return (first, 1.0 - first) if zero_sum else (first, evaluate(state, 1))
    return tuple([evaluate(state, seat) for seat in range(seats)])


def leaf_values(state: State, over: bool, seats: int, rng: random.Random, playout: Playout,
                playout_depth: int | None,
                evaluate: Evaluate | None, zero_sum: bool = False) -> tuple[float, ...]:
    """Each seat's value of a tree leaf: a playout from a copy of ``state`` (none when the game
    is ``over`` or ``playout_depth`` is 0), then the outcome or the evaluation."""
    if over or playout_depth == 0:
        return seat_values(state, seats, evaluate, zero_sum)
    current = state.clone()
    playout(current, rng, playout_depth)
    return seat_values(current, seats, evaluate, zero_sum)


def random_playout(state: State, rng: random.Random, max_turns: int | None = None) -> None:
    """Play uniformly random legal actions for every acting seat until the game ends.

    Stops after ``max_turns`` calls of ``apply`` when given. Mutates ``state``.
    """
    rand = rng.random
    turns = 0
    limit = max_turns if max_turns is not None else -1
    while turns != limit and not state.is_over():
        seats = state.acting_seats()
        if len(seats) == 1:
            legal = state.legal_actions(seats[0])
            state.apply((legal[int(rand() * len(legal))],))
        else:
            joint = []
            for seat in seats:
                legal = state.legal_actions(seat)
                joint.append(legal[int(rand() * len(legal))])
            state.apply(joint)
        turns += 1


def seat_count(state: State) -> int:
    """How many seats ``state`` has (the length of its score vector)."""
    return len(state.scores())
