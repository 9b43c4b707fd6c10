"""Primitive Monte Carlo for any turn order, and the final choice the bandit searches share."""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bots.search.choice import ActionStats, Choice
from bots.search.deadline import Budget, Deadline
from bots.search.playout import Evaluate, Playout, State, random_playout, seat_value


def pmc(state: State, seat: int, *, rng: random.Random, deadline: Deadline | None = None,
        iterations: int | None = None, playouts_per_action: int | None = None,
        playout_depth: int | None = None, evaluate: Evaluate | None = None,
        playout: Playout = random_playout) -> Choice:
    """Primitive Monte Carlo: each of ``seat``'s actions in turn, any other acting seat random,
    then a playout (cut after ``playout_depth`` turns and scored by ``evaluate`` when given).

    ``iterations`` counts playouts, ``playouts_per_action`` caps each action's share; the action
    with the best mean value wins.
    """
    actions = state.legal_actions(seat)
    if playouts_per_action is not None:
        cap = playouts_per_action * len(actions)
        iterations = cap if iterations is None else min(iterations, cap)
    if len(actions) == 1:
        return Choice(actions[0], 0, 0, 0.5)
    budget = Budget(deadline, iterations)
    acting = state.acting_seats()
    others = [(position, state.legal_actions(other)) for position, other in enumerate(acting)
              if other != seat]
    mine = acting.index(seat)
    rand = rng.random
    totals = [0.0] * len(actions)
    visits = [0] * len(actions)
    count = len(actions)
    index = 0
    joint: list[Any] = [None] * len(acting)
    while budget.spend():
        joint[mine] = actions[index]
        for position, legal in others:
            joint[position] = legal[int(rand() * len(legal))]
        child = state.clone()
        child.apply(tuple(joint))
        playout(child, rng, playout_depth)
        totals[index] += seat_value(child, seat, evaluate)
        visits[index] += 1
        index = index + 1 if index + 1 < count else 0
    depth = 1 if playout_depth is None else playout_depth
    return choice_by(actions, totals, visits, budget.used, depth, by_visits=False)


def choice_by(actions: Sequence[Any], totals: Sequence[float], visits: Sequence[int], used: int,
              depth: int, by_visits: bool) -> Choice:
    """The action with the most visits (ties: best mean) or the best mean (ties: first)."""
    means = [totals[i] / visits[i] if visits[i] else 0.0 for i in range(len(actions))]
    if by_visits:
        best = max(range(len(actions)), key=lambda i: (visits[i], means[i], -i))
    else:
        best = max(range(len(actions)), key=lambda i: (visits[i] > 0, means[i], -i))
    stats = tuple(ActionStats(actions[i], visits[i], means[i]) for i in range(len(actions)))
    return Choice(actions[best], used, depth, means[best] if visits[best] else 0.5, stats)
