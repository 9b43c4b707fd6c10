"""Searches for single-player games: greedy, beam search and Chokudai search.

They maximize ``evaluate(state, seat)``, any number (default: the seat's score), for the seat
that acts in ``state``. ``iterations`` counts expanded states (a state whose children were
generated). The root is always expanded, so every search answers a legal action even when its
deadline has already passed.
"""
from __future__ import annotations

import heapq
import itertools
from typing import Any

from bots.search.choice import ActionStats, Choice
from bots.search.deadline import Budget, Deadline
from bots.search.playout import Evaluate, State


def score_of(state: State, seat: int) -> float:
    """The default single-player evaluation: the seat's current score."""
    return state.scores()[seat]


def _children(state: State, seat: int, evaluate: Evaluate, first: Any = None
              ) -> list[tuple[float, State, Any]]:
    """(value, child, first action) for every legal action of ``seat`` in ``state``."""
    result = []
    for action in state.legal_actions(seat):
        child = state.clone()
        child.apply((action,))
        result.append((evaluate(child, seat), child, action if first is None else first))
    return result


def greedy(state: State, *, evaluate: Evaluate | None = None) -> Choice:
    """The action whose next state evaluates best (ties: the first)."""
    seat = state.acting_seats()[0]
    children = _children(state, seat, evaluate or score_of)
    best = max(range(len(children)), key=lambda index: (children[index][0], -index))
    stats = tuple(ActionStats(action, 1, value) for value, _, action in children)
    return Choice(children[best][2], 1, 1, children[best][0], stats)


def beam(state: State, *, width: int, depth: int | None = None, deadline: Deadline | None = None,
         iterations: int | None = None, evaluate: Evaluate | None = None) -> Choice:
    """Beam search: keep the ``width`` best states per level, ``depth`` levels (None: until the
    game ends or the budget does); answers the first action of the best state of the deepest
    completed level. Finished states stay in the beam unchanged."""
    if width < 1:
        raise ValueError(f"width must be >= 1, got {width}")
    seat = state.acting_seats()[0]
    evaluate = evaluate or score_of
    budget = Budget.bounded_or_not(deadline, iterations)
    budget.used = 1
    level = _children(state, seat, evaluate)
    best = max(level, key=lambda entry: entry[0])
    level = heapq.nlargest(width, level, key=lambda entry: entry[0])
    reached = 1
    while (depth is None or reached < depth) and not all(entry[1].is_over() for entry in level):
        candidates = []
        for value, current, first in level:
            if current.is_over():
                candidates.append((value, current, first))
                continue
            if not budget.spend():
                break
            candidates.extend(_children(current, seat, evaluate, first))
        if budget.exhausted:
            break
        level = heapq.nlargest(width, candidates, key=lambda entry: entry[0])
        best = level[0]
        reached += 1
    return Choice(best[2], budget.used, reached, best[0])


def chokudai(state: State, *, depth: int, width: int = 1, beams: int | None = None,
             deadline: Deadline | None = None, iterations: int | None = None,
             evaluate: Evaluate | None = None) -> Choice:
    """Chokudai search: repeated passes of a narrow beam (``width`` states per level) over
    levels 1..``depth``, each level's queue remembering the states earlier passes left; stops
    after ``beams`` passes or when the budget ends. Answers the first action of the best state
    of the deepest non-empty level."""
    if width < 1 or depth < 1:
        raise ValueError(f"width and depth must be >= 1, got width {width}, depth {depth}")
    seat = state.acting_seats()[0]
    evaluate = evaluate or score_of
    if beams is None and deadline is None and iterations is None:
        raise ValueError("chokudai needs beams, a deadline or iterations")
    budget = Budget.bounded_or_not(deadline, iterations)
    budget.used = 1
    counter = itertools.count()
    queues: list[list[Any]] = [[] for _ in range(depth + 1)]
    for value, child, action in _children(state, seat, evaluate):
        heapq.heappush(queues[1], (-value, next(counter), child, action))
    passes = 0
    running = True
    while running and (beams is None or passes < beams):
        passes += 1
        progressed = False
        for level in range(1, depth):
            queue, following = queues[level], queues[level + 1]
            for _ in range(width):
                if not queue or queue[0][2].is_over():
                    break
                if not budget.spend():
                    running = False
                    break
                _, _, current, first = heapq.heappop(queue)
                progressed = True
                for value, child, action in _children(current, seat, evaluate, first):
                    heapq.heappush(following, (-value, next(counter), child, action))
            if not running:
                break
        if not progressed:
            break
    for level in range(depth, 0, -1):
        if queues[level]:
            negative, _, _, action = queues[level][0]
            return Choice(action, budget.used, level, -negative)
    raise AssertionError("the root's children are always queued")
