"""Single-player games with chance: the simple-tree Monte Carlo of seed 004.

A chance state is a State (``acting_seats``, ``legal_actions``, ``apply``, ``is_over``,
``scores``, ``clone``) that also says when nature moves next and how::

    is_chance() -> bool                          # the next step is nature's, not the player's
    chance_outcomes() -> list[(outcome, prob)]   # every outcome with its probability (sum 1)
    apply_chance(outcome) -> None                # nature's step

A card solitaire fits as a *belief* state: the next stock card is a chance step whose outcomes
are the distinct cards left unseen, each with probability count / cards left.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from bots.search.choice import ActionStats, Choice
from bots.search.deadline import Budget, Deadline
from bots.search.playout import Evaluate, Playout, State
from bots.search.single import score_of


class ChanceState(State, Protocol):
    """A State whose next step may be nature's (see the module docstring)."""

    def is_chance(self) -> bool: ...
    def chance_outcomes(self) -> list[tuple[Any, float]]: ...
    def apply_chance(self, outcome: Any) -> None: ...


def sample_outcome(outcomes: list[tuple[Any, float]], rng: random.Random) -> Any:
    """One outcome drawn with its probability."""
    point = rng.random()
    for outcome, probability in outcomes:
        point -= probability
        if point < 0:
            return outcome
    return outcomes[-1][0]


def chance_playout(state: ChanceState, rng: random.Random, max_turns: int | None = None) -> None:
    """Random legal actions, and chance outcomes drawn by their probabilities, until the game
    ends (or after ``max_turns`` steps, chance steps included). Mutates ``state``."""
    rand = rng.random
    turns = 0
    limit = max_turns if max_turns is not None else -1
    while turns != limit and not state.is_over():
        if state.is_chance():
            state.apply_chance(sample_outcome(state.chance_outcomes(), rng))
        else:
            seat = state.acting_seats()[0]
            legal = state.legal_actions(seat)
            state.apply((legal[int(rand() * len(legal))],))
        turns += 1


class _OutOfBudget(Exception):
    pass


class _SimpleTree:
    """One level-limited expansion: max over choices, mean over chance, playouts at the leaves."""

    __slots__ = ("seat", "playouts", "evaluate", "playout", "playout_depth", "rng", "budget")

    def __init__(self, seat: int, playouts: int, evaluate: Evaluate, playout: Playout,
                 playout_depth: int | None, rng: random.Random, budget: Budget) -> None:
        self.seat = seat
        self.playouts = playouts
        self.evaluate = evaluate
        self.playout = playout
        self.playout_depth = playout_depth
        self.rng = rng
        self.budget = budget

    def value(self, state: ChanceState, level: int) -> float:
        if state.is_over():
            return self.evaluate(state, self.seat)
        if level == 0:
            total = 0.0
            for _ in range(self.playouts):
                if not self.budget.spend():
                    raise _OutOfBudget
                sample = state.clone()
                self.playout(sample, self.rng, self.playout_depth)
                total += self.evaluate(sample, self.seat)
            return total / self.playouts
        if state.is_chance():
            expected = 0.0
            for outcome, probability in state.chance_outcomes():
                child = state.clone()
                child.apply_chance(outcome)
                expected += probability * self.value(child, level - 1)
            return expected
        best = None
        for action in state.legal_actions(state.acting_seats()[0]):
            child = state.clone()
            child.apply((action,))
            value = self.value(child, level - 1)
            if best is None or value > best:
                best = value
        return best if best is not None else self.evaluate(state, self.seat)   # stuck: no move


def simple_tree(state: ChanceState, *, rng: random.Random, levels: int, playouts: int,
                deadline: Deadline | None = None, iterations: int | None = None,
                evaluate: Evaluate | None = None, playout: Playout = chance_playout,
                playout_depth: int | None = None) -> Choice:
    """Expand ``levels`` steps (choices and chance steps alike), run ``playouts`` playouts at
    every leaf, average over chance outcomes, maximize over choices; answer the root choice
    with the highest value.

    Anytime: with a deadline it deepens, levels 1, 2, ... ``levels``, each complete level's
    answer replacing the last (without one it searches ``levels`` directly); when the budget
    ends inside the first level searched, the best root action finished so far (the first
    legal one if none) is answered. ``iterations`` counts playouts; ``evaluate(state,
    seat)`` scores finished or cut playouts (default: the score). ``state`` must be a choice.
    """
    if state.is_chance():
        raise ValueError("simple_tree chooses an action: the root must not be a chance step")
    if levels < 1 or playouts < 1:
        raise ValueError(f"levels and playouts must be >= 1, got {levels} and {playouts}")
    seat = state.acting_seats()[0]
    actions = state.legal_actions(seat)
    budget = Budget.bounded_or_not(deadline, iterations)
    tree = _SimpleTree(seat, playouts, evaluate or score_of, playout, playout_depth, rng, budget)
    answer = Choice(actions[0], 0, 0, 0.0)
    if len(actions) == 1:
        return answer
    first_level = 1 if deadline is not None else levels
    for level in range(first_level, levels + 1):
        values: list[float] = []
        try:
            for action in actions:
                child = state.clone()
                child.apply((action,))
                values.append(tree.value(child, level - 1))
        except _OutOfBudget:
            if level == first_level and values:
                answer = _best(actions[:len(values)], values, budget.used, 0, playouts)
            break
        answer = _best(actions, values, budget.used, level, playouts)
    return Choice(answer.action, budget.used, answer.depth, answer.value, answer.stats)


def _best(actions: Sequence[Any], values: list[float], used: int, level: int, playouts: int) -> Choice:
    best = max(range(len(values)), key=lambda index: (values[index], -index))
    stats = tuple(ActionStats(action, playouts, value) for action, value in zip(actions, values))
    return Choice(actions[best], used, level, values[best], stats)
