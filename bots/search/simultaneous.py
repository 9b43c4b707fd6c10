"""Searches for simultaneous-move games: DUCT, open-loop MCTS, and primitive Monte Carlo (``pmc``).

``seat`` is the seat to choose for; every acting seat's action is applied together (in the
order of ``state.acting_seats()``). Values are in [0, 1] per seat (see ``bots.search.playout``);
DUCT keeps each seat's statistics separately, so the evaluations need not sum to 1.
"""
from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from bots.search.choice import Choice
from bots.search.deadline import Budget, Deadline
from bots.search.montecarlo import choice_by, pmc
from bots.search.playout import Evaluate, Playout, State, leaf_values, random_playout, seat_count, seat_value

__all__ = ["JointNode", "duct", "mcts", "pmc", "run_duct"]


RESCORE_GROWTH = 32    # refresh a node's UCB scores once its visits grew by 1/32: ln t then moves < 1 %


class JointNode:
    """A DUCT node: its position, and per acting seat its actions and its own visit counts,
    value sums and UCB1 scores.

    ``children`` maps the joint action's mixed-radix index to the child; a leaf (``actions``
    None) only counts its visits in ``visits_here`` until it is expanded. Keeping each node's
    position costs a clone per node but spares replaying the path every iteration. The scores
    are computed afresh while the node has fewer than ``RESCORE_GROWTH`` visits; after that they
    are kept up to date action by action as results come back and all recomputed (for the
    ``ln t`` of the exploration term) whenever the visits grew by 1/``RESCORE_GROWTH``: on a
    Xmas Rush push node (28 x 28 actions) selection is then two ``max`` calls, not 56 UCB terms.
    """

    __slots__ = ("state", "over", "seats", "actions", "visits", "totals", "scores", "spread",
                 "rescore_at", "tried", "children", "visits_here")

    # set by expand(); a leaf allocates nothing: most leaves of a wide node are never expanded
    seats: tuple[int, ...]
    visits: list[list[int]]
    totals: list[list[float]]
    scores: list[list[float]]
    spread: float
    rescore_at: int
    tried: list[int]
    children: dict[int, JointNode]

    def __init__(self, state: State) -> None:
        self.state = state
        self.over = state.is_over()
        self.actions: list[Sequence[Any]] | None = None
        self.visits_here = 0

    def expand(self, restrict: Mapping[int, Sequence[Any]] | None = None) -> list[Sequence[Any]]:
        """Give the node its statistics: per acting seat its legal actions (or ``restrict``'s)."""
        state = self.state
        self.seats = tuple(state.acting_seats())
        actions = self.actions = [list(restrict[seat]) if restrict and seat in restrict
                                  else state.legal_actions(seat) for seat in self.seats]
        self.visits = [[0] * len(choices) for choices in actions]
        self.totals = [[0.0] * len(choices) for choices in actions]
        self.scores = [[0.0] * len(choices) for choices in actions]
        self.spread = 0.0
        self.rescore_at = 0
        self.tried = [0] * len(self.seats)
        self.children = {}
        self.visits_here = 0
        return actions

    def rescore(self, spread_scale: float) -> None:
        """Recompute every UCB1 score ``w/n + sqrt(spread / n)`` for the current ``ln t``."""
        visits_here = self.visits_here
        spread = spread_scale * math.log(visits_here) if visits_here > 1 else 0.0
        self.spread = spread
        self.rescore_at = visits_here + 1 + visits_here // RESCORE_GROWTH
        sqrt = math.sqrt
        self.scores = [[total / count + sqrt(spread / count) if count else 0.0
                        for total, count in zip(totals, visits)]
                       for totals, visits in zip(self.totals, self.visits)]

    def select(self, seat_actions: list[Sequence[Any]], spread_scale: float
               ) -> tuple[int, list[int], tuple[Any, ...]]:
        """Each seat's own UCB1 choice, untried actions first: (joint key, indices, joint action).

        ``seat_actions`` is the node's ``actions`` (it is expanded); ``spread_scale`` is 2 C^2, so
        that C sqrt(2 ln t / n) is sqrt(spread / n).
        """
        visits_here = self.visits_here
        exact = visits_here < RESCORE_GROWTH        # few visits: compute UCB1 afresh, store nothing
        if exact:
            spread = spread_scale * math.log(visits_here) if visits_here > 1 else 0.0
        elif visits_here >= self.rescore_at:
            self.rescore(spread_scale)
        indices = []
        joint = []
        key = 0
        tried_counts = self.tried
        position = 0
        for actions in seat_actions:
            width = len(actions)
            tried = tried_counts[position]
            if tried < width:
                best = tried
                tried_counts[position] = tried + 1
            elif exact:
                best, best_score, index = 0, -math.inf, 0
                for total, count in zip(self.totals[position], self.visits[position]):
                    score = total / count + math.sqrt(spread / count)
                    if score > best_score:
                        best, best_score = index, score
                    index += 1
            else:
                scores = self.scores[position]
                best = scores.index(max(scores))
            indices.append(best)
            joint.append(actions[best])
            key = key * width + best
            position += 1
        return key, indices, tuple(joint)


def duct(state: State, seat: int, *, rng: random.Random, deadline: Deadline | None = None,
         iterations: int | None = None, c: float = 1.0, expand_threshold: int = 5,
         playout_depth: int | None = None, evaluate: Evaluate | None = None,
         playout: Playout = random_playout,
         root_actions: Mapping[int, Sequence[Any]] | None = None, zero_sum: bool = False) -> Choice:
    """Decoupled UCT: every acting seat picks its own action by UCB1 on its own statistics.

    ``w/n + c*sqrt(2 ln t / n)`` per seat, where ``w`` sums that seat's values (so non-zero-sum
    evaluations are fine); a leaf is played out from until it has ``expand_threshold`` visits;
    the final action is ``seat``'s most visited one. ``root_actions`` restricts some seats'
    actions at the root (the hybrid search's pruning). ``zero_sum``: two seats whose evaluation
    values sum to 1, so it is called once per playout instead of twice. ``iterations`` counts
    playouts.
    """
    if c < 0:
        raise ValueError(f"c must be >= 0, got {c}")
    root = JointNode(state)
    seat_actions = root.expand(root_actions)
    if seat not in root.seats:
        raise ValueError(f"seat {seat} does not act in this position (acting: {root.seats})")
    position = root.seats.index(seat)
    actions = seat_actions[position]
    if len(actions) == 1:
        return Choice(actions[0], 0, 0, 0.5)
    budget = Budget(deadline, iterations)
    threshold = max(expand_threshold, 1)
    deepest = run_duct(root, state, budget, rng, c, threshold, playout_depth, evaluate, playout,
                       zero_sum)
    return choice_by(actions, root.totals[position], root.visits[position], budget.used, deepest,
                     by_visits=True)


def run_duct(root: JointNode, state: State, budget: Budget, rng: random.Random, c: float,
             threshold: int, playout_depth: int | None, evaluate: Evaluate | None, playout: Playout,
             zero_sum: bool = False) -> int:
    """DUCT iterations from an expanded ``root`` until ``budget`` ends; returns the depth reached."""
    seats = seat_count(state)
    spread_scale = 2.0 * c * c
    sqrt = math.sqrt
    deepest = 0
    while budget.spend():
        node = root
        path = []
        while (seat_actions := node.actions) is not None:
            key, indices, joint = node.select(seat_actions, spread_scale)
            path.append((node, indices))
            child = node.children.get(key)
            if child is None:
                child_state = node.state.clone()
                child_state.apply(joint)
                child = node.children[key] = JointNode(child_state)
            node = child
        if len(path) > deepest:
            deepest = len(path)
        rewards = leaf_values(node.state, node.over, seats, rng, playout, playout_depth, evaluate, zero_sum)
        if not node.over:
            node.visits_here += 1
            if node.visits_here >= threshold:
                node.expand()
        for visited, indices in path:
            visits_here = visited.visits_here = visited.visits_here + 1
            totals, visits, acting = visited.totals, visited.visits, visited.seats
            if visits_here <= RESCORE_GROWTH:         # selection computes its scores afresh
                position = 0
                for index in indices:
                    visits[position][index] += 1
                    totals[position][index] += rewards[acting[position]]
                    position += 1
                continue
            scores, spread = visited.scores, visited.spread
            position = 0
            for index in indices:
                count = visits[position][index] + 1
                visits[position][index] = count
                total = totals[position][index] + rewards[acting[position]]
                totals[position][index] = total
                scores[position][index] = total / count + sqrt(spread / count)
                position += 1
    return deepest


class _OwnNode:
    """An open-loop node: one of the searching seat's actions; the other seats stay random."""

    __slots__ = ("action", "children", "visits", "total", "expanded_at")

    def __init__(self, action: Any) -> None:
        self.action = action
        self.children: list[_OwnNode] | None = None
        self.visits = 0
        self.total = 0.0
        self.expanded_at = 0

    def expand(self, actions: Sequence[Any]) -> list[_OwnNode]:
        children = self.children = [_OwnNode(action) for action in actions]
        self.expanded_at = self.visits
        return children

    def select(self, children: list[_OwnNode], c: float) -> _OwnNode:
        """The first unvisited of ``children`` (this node's), else the one with the highest UCB1."""
        for child in children:
            if child.visits == 0:
                return child
        spread = 2.0 * math.log(max(self.visits - self.expanded_at, 1))
        sqrt = math.sqrt
        best, best_score = children[0], -math.inf
        for child in children:
            score = child.total / child.visits + c * sqrt(spread / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best


def mcts(state: State, seat: int, *, rng: random.Random, deadline: Deadline | None = None,
         iterations: int | None = None, c: float = 1.0, expand_threshold: int = 5,
         playout_depth: int | None = None, evaluate: Evaluate | None = None,
         playout: Playout = random_playout) -> Choice:
    """MCTS over ``seat``'s own actions only; the other seats' moves are random, part of the
    environment (open loop: each iteration replays the path with fresh random replies).

    A tree action that the sampled position does not allow ends the descent there.
    """
    actions = state.legal_actions(seat)
    if len(actions) == 1:
        return Choice(actions[0], 0, 0, 0.5)
    root = _OwnNode(None)
    children = root.expand(actions)
    budget = Budget(deadline, iterations)
    threshold = max(expand_threshold, 1)
    rand = rng.random
    deepest = 0
    while budget.spend():
        current = state.clone()
        node = root
        path = [root]
        while not current.is_over():
            acting = current.acting_seats()
            mine = seat in acting
            if mine:
                below = node.children
                if below is None:
                    if node.visits + 1 >= threshold:
                        node.expand(current.legal_actions(seat))
                    break
                child = node.select(below, c)
            joint = []
            for other in acting:
                if other == seat:
                    if child.action not in current.legal_actions(seat):
                        break
                    joint.append(child.action)
                else:
                    legal = current.legal_actions(other)
                    joint.append(legal[int(rand() * len(legal))])
            if len(joint) < len(acting):
                break
            current.apply(tuple(joint))
            if mine:
                node = child
                path.append(node)
        if len(path) - 1 > deepest:
            deepest = len(path) - 1
        playout(current, rng, playout_depth)
        reward = seat_value(current, seat, evaluate)
        for visited in path:
            visited.visits += 1
            visited.total += reward
    return choice_by([child.action for child in children], [child.total for child in children],
                     [child.visits for child in children], budget.used, deepest, by_visits=True)
