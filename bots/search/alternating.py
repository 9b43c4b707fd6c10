"""Searches for alternating two-player games: minimax, alpha-beta, iterative deepening, PMC, MCTS.

Every function searches for the seat that acts in ``state`` (its only acting seat) and needs
only the State interface: ``clone``, ``acting_seats``, ``legal_actions``, ``apply``,
``is_over``, ``scores``. Values are in [0, 1] from the searching seat's view (see
``bots.search.playout``). The minimax family is written max/min rather than negamax, so a game
where a seat may move twice in a row is searched correctly; with more than two seats it is
paranoid (every other seat minimizes).
"""
from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from bots.search import montecarlo
from bots.search.choice import Choice
from bots.search.deadline import Budget, Deadline
from bots.search.playout import (
    Evaluate,
    Playout,
    State,
    leaf_values,
    outcome_value,
    random_playout,
    seat_count,
)

PLY_DISCOUNT = 1e-3     # a win found sooner scores a little higher, a loss a little later


class _OutOfBudget(Exception):
    """Raised deep in a fixed-depth search when the budget ends; caught at the root."""


class _TreeSearch:
    """One minimax or alpha-beta run: the searching seat, the budget, whether a leaf was cut."""

    __slots__ = ("seat", "evaluate", "budget", "cut")

    def __init__(self, seat: int, evaluate: Evaluate | None, budget: Budget) -> None:
        self.seat = seat
        self.evaluate = evaluate
        self.budget = budget
        self.cut = False

    def leaf(self, state: State, ply: int) -> float:
        if state.is_over():
            value = outcome_value(state, self.seat)
            return 0.5 + (value - 0.5) * (1.0 - ply * PLY_DISCOUNT)
        self.cut = True
        return self.evaluate(state, self.seat) if self.evaluate is not None else 0.5

    def minimax(self, state: State, depth: int, ply: int) -> float:
        if not self.budget.spend():
            raise _OutOfBudget
        if depth == 0 or state.is_over():
            return self.leaf(state, ply)
        mover = state.acting_seats()[0]
        values = []
        for action in state.legal_actions(mover):
            child = state.clone()
            child.apply((action,))
            values.append(self.minimax(child, depth - 1, ply + 1))
        return max(values) if mover == self.seat else min(values)

    def alphabeta(self, state: State, depth: int, ply: int, alpha: float, beta: float) -> float:
        """Fail-soft alpha-beta: the exact minimax value when it lies inside (alpha, beta)."""
        if not self.budget.spend():
            raise _OutOfBudget
        if depth == 0 or state.is_over():
            return self.leaf(state, ply)
        mover = state.acting_seats()[0]
        maximize = mover == self.seat
        best = -math.inf if maximize else math.inf
        for action in state.legal_actions(mover):
            child = state.clone()
            child.apply((action,))
            value = self.alphabeta(child, depth - 1, ply + 1, alpha, beta)
            if maximize:
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
            elif value < best:
                best = value
                if value < beta:
                    beta = value
            if alpha >= beta:
                break
        return best

    def root(self, state: State, actions: Sequence[Any], depth: int, pruned: bool) -> tuple[Any, float, bool]:
        """The best root action at ``depth`` plies: (action, value, completed).

        When the budget ends part-way the best action among those searched so far is returned
        with completed False (None when none was searched).
        """
        best_action, best_value = None, -math.inf
        try:
            for action in actions:
                child = state.clone()
                child.apply((action,))
                if pruned:
                    value = self.alphabeta(child, depth - 1, 1, best_value, math.inf)
                else:
                    value = self.minimax(child, depth - 1, 1)
                if value > best_value:
                    best_action, best_value = action, value
        except _OutOfBudget:
            return best_action, best_value, False
        return best_action, best_value, True


def _fixed_depth(state: State, depth: int, evaluate: Evaluate | None, deadline: Deadline | None,
                 iterations: int | None, pruned: bool) -> Choice:
    if depth < 1:
        raise ValueError(f"depth must be >= 1, got {depth}")
    seat = state.acting_seats()[0]
    actions = state.legal_actions(seat)
    budget = Budget.bounded_or_not(deadline, iterations)
    search = _TreeSearch(seat, evaluate, budget)
    action, value, completed = search.root(state, actions, depth, pruned)
    if action is None:
        action, value = actions[0], 0.5
    return Choice(action, budget.used, depth if completed else 0, value)


def minimax(state: State, depth: int, *, evaluate: Evaluate | None = None, deadline: Deadline | None = None,
            iterations: int | None = None) -> Choice:
    """Plain minimax to ``depth`` plies; positions cut there are scored by ``evaluate`` (else 0.5).

    ``iterations`` counts nodes. If the budget ends first, the best root action searched so far
    is returned (the first legal one if none was) with ``depth`` 0.
    """
    return _fixed_depth(state, depth, evaluate, deadline, iterations, False)


def alphabeta(state: State, depth: int, *, evaluate: Evaluate | None = None,
              deadline: Deadline | None = None, iterations: int | None = None) -> Choice:
    """Alpha-beta to ``depth`` plies: the same action and value as ``minimax``, fewer nodes."""
    return _fixed_depth(state, depth, evaluate, deadline, iterations, True)


def iterative_deepening(state: State, *, deadline: Deadline | None = None, iterations: int | None = None,
                        max_depth: int | None = None, evaluate: Evaluate | None = None,
                        pruned: bool = True) -> Choice:
    """Alpha-beta (or minimax, ``pruned=False``) at depth 1, 2, ... until the budget ends.

    Always answers a legal action: the last completed depth's choice, or, when time runs out
    inside depth 1, the best action searched so far (the first legal one if none). Each depth
    searches the previous best action first. Stops early once no leaf was cut by depth (the
    tree is solved) or at ``max_depth``. ``iterations`` counts nodes over all depths; with no
    budget at all it runs until the tree is solved or ``max_depth``.
    """
    seat = state.acting_seats()[0]
    actions = list(state.legal_actions(seat))
    budget = Budget.bounded_or_not(deadline, iterations)
    best = Choice(actions[0], 0, 0, 0.5)
    if len(actions) == 1:
        return best
    depth = 0
    while max_depth is None or depth < max_depth:
        depth += 1
        search = _TreeSearch(seat, evaluate, budget)
        action, value, completed = search.root(state, actions, depth, pruned)
        if not completed:
            if depth == 1 and action is not None:
                best = Choice(action, budget.used, 0, value)
            break
        best = Choice(action, budget.used, depth, value)
        if not search.cut:
            break
        actions.remove(action)
        actions.insert(0, action)
    return Choice(best.action, budget.used, best.depth, best.value)


def pmc(state: State, *, rng: random.Random, deadline: Deadline | None = None,
        iterations: int | None = None, playouts_per_action: int | None = None,
        playout_depth: int | None = None, evaluate: Evaluate | None = None,
        playout: Playout = random_playout) -> Choice:
    """Primitive Monte Carlo for the seat to move (see ``bots.search.montecarlo.pmc``)."""
    return montecarlo.pmc(state, state.acting_seats()[0], rng=rng, deadline=deadline,
                          iterations=iterations, playouts_per_action=playouts_per_action,
                          playout_depth=playout_depth, evaluate=evaluate, playout=playout)


class _Node:
    """A tree node: the action that led here, the seat that played it, its position (made on
    the first visit, so an iteration applies one action instead of replaying its whole path),
    its children (None until expanded) and its statistics."""

    __slots__ = ("action", "mover", "state", "over", "children", "visits", "total", "expanded_at")

    def __init__(self, action: Any, mover: int) -> None:
        self.action = action
        self.mover = mover
        self.state: State | None = None
        self.over = False
        self.children: list[_Node] | None = None
        self.visits = 0
        self.total = 0.0
        self.expanded_at = 0

    def reach(self, parent_state: State) -> State:
        """Make this node's position: the parent's with this node's action played."""
        state = parent_state.clone()
        state.apply((self.action,))
        self.state = state
        self.over = state.is_over()
        return state

    def expand(self, state: State) -> list[_Node]:
        """Add a child per legal action in ``state`` (this node's position)."""
        mover = state.acting_seats()[0]
        children = self.children = [_Node(action, mover) for action in state.legal_actions(mover)]
        self.expanded_at = self.visits
        return children

    def select(self, children: list[_Node], c: float) -> _Node:
        """The first unvisited child, else the child with the highest UCB1 for its mover."""
        for child in children:
            if child.visits == 0:
                return child
        best, best_score = children[0], -math.inf
        spread = 2.0 * math.log(self.visits - self.expanded_at)
        sqrt = math.sqrt
        for child in children:
            visits = child.visits
            score = child.total / visits + c * sqrt(spread / visits)
            if score > best_score:
                best, best_score = child, score
        return best


def mcts(state: State, *, rng: random.Random, deadline: Deadline | None = None,
         iterations: int | None = None, c: float = 1.0, expand_threshold: int = 10,
         playout_depth: int | None = None, evaluate: Evaluate | None = None,
         playout: Playout = random_playout) -> Choice:
    """Monte Carlo tree search with UCB1 (``w/n + c*sqrt(2 ln t / n)``), final choice by visits.

    A leaf is played out from until it has ``expand_threshold`` visits, then its children are
    added. Each node keeps the value of the seat that moved into it, so the search is not
    limited to strictly alternating turns. ``iterations`` counts playouts.
    """
    root = _Node(None, -1)
    children = root.expand(state)
    if len(children) == 1:
        return Choice(children[0].action, 0, 0, 0.5)
    budget = Budget(deadline, iterations)
    seats = seat_count(state)
    threshold = max(expand_threshold, 1)
    deepest = 0
    while budget.spend():
        node, current = root, state
        path = [root]
        while (below := node.children) is not None:
            node = node.select(below, c)
            reached = node.state
            current = reached if reached is not None else node.reach(current)
            path.append(node)
        if len(path) - 1 > deepest:
            deepest = len(path) - 1
        if not node.over and node.visits + 1 >= threshold:
            node.expand(current)
        rewards = leaf_values(current, node.over, seats, rng, playout, playout_depth, evaluate)
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.total += rewards[visited.mover]
    return montecarlo.choice_by([child.action for child in children], [child.total for child in children],
                                [child.visits for child in children], budget.used, deepest, by_visits=True)
