"""The minimax-pruned DUCT of seed 002 (a Legend Xmas Rush bot) for two-seat simultaneous games.

1. A one-ply minimax over the joint-action matrix scores each own action by its worst case
   and keeps the best ``keep`` (dropping actions that a single reply can punish);
2. a short DUCT run, ``opponent_share`` of the budget, over those actions and all of the
   opponent's keeps the opponent's ``keep`` most visited actions;
3. DUCT over the reduced ``keep`` x ``keep`` root matrix with the rest of the budget, its
   playouts cut after ``playout_depth`` turns and scored by ``evaluate`` (in [0, 1]).
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from bots.search.choice import Choice
from bots.search.deadline import Budget, Deadline
from bots.search.montecarlo import choice_by
from bots.search.playout import Evaluate, Playout, State, outcome_value, random_playout
from bots.search.simultaneous import JointNode, run_duct


def worst_cases(state: State, seat: int, mine: Sequence[Any], theirs: Sequence[Any],
                evaluate: Evaluate | None, budget: Budget,
                ignore_pair: Callable[[Any, Any], bool] | None = None,
                their_worst: list[float] | None = None) -> list[float]:
    """Each own action's worst value over the opponent's replies (one ply, ``seat``'s view).

    ``ignore_pair(mine, theirs)`` leaves pairs out of the minimum (Xmas Rush: two pushes of one
    line cancel, which a worst case would otherwise always assume). Rows the budget did not
    reach score -inf. A ``their_worst`` list is filled with the same matrix seen from the other
    side: each reply's worst value for the opponent over the own actions reached.
    """
    acting = state.acting_seats()
    first = acting[0] == seat
    other = acting[1] if first else acting[0]
    if their_worst is not None:
        their_worst[:] = [math.inf] * len(theirs)
    rows: list[float] = []
    for action in mine:
        if not budget.available():
            rows.extend([-math.inf] * (len(mine) - len(rows)))
            break
        worst = math.inf
        for column, reply in enumerate(theirs):
            if ignore_pair is not None and ignore_pair(action, reply):
                continue
            child = state.clone()
            child.apply((action, reply) if first else (reply, action))
            judge = outcome_value if child.is_over() or evaluate is None else evaluate
            value = judge(child, seat)
            if value < worst:
                worst = value
            if their_worst is not None:
                theirs_value = judge(child, other)
                if theirs_value < their_worst[column]:
                    their_worst[column] = theirs_value
        rows.append(worst)
    return rows


def best_indices(scores: list[float], keep: int) -> list[int]:
    """The indices of the ``keep`` highest scores, in their original order (stable on ties)."""
    ranked = sorted(range(len(scores)), key=lambda index: (-scores[index], index))[:keep]
    return sorted(ranked)


def hybrid(state: State, seat: int, *, rng: random.Random, deadline: Deadline | None = None,
           iterations: int | None = None, keep: int = 3, playout_depth: int | None = 2,
           opponent_share: float = 0.15, c: float = 1.0, expand_threshold: int = 5,
           evaluate: Evaluate | None = None, playout: Playout = random_playout,
           ignore_pair: Callable[[Any, Any], bool] | None = None,
           matrix_share: float = 1.0, opponent_pruning: str = "search", zero_sum: bool = False) -> Choice:
    """Minimax-pruned DUCT (see the module docstring). ``iterations`` counts DUCT playouts over
    both DUCT runs; the matrix of step 1 is not counted but stops at the deadline, or once it has
    used ``matrix_share`` of the time (rows it did not reach are dropped, so a caller that lists
    its likeliest actions first loses least). ``opponent_pruning="minimax"`` keeps the opponent's
    ``keep`` best replies by their worst case in the same matrix (seed 002's minimax from the
    opponent's side, free once the matrix is built) instead of the DUCT run of step 2.
    ``zero_sum`` as in ``duct``."""
    acting = state.acting_seats()
    if len(acting) != 2 or seat not in acting:
        raise ValueError(f"hybrid needs two acting seats including {seat}, got {tuple(acting)}")
    if keep < 1:
        raise ValueError(f"keep must be >= 1, got {keep}")
    if not 0.0 <= opponent_share < 1.0:
        raise ValueError(f"opponent_share must be in [0, 1), got {opponent_share}")
    if opponent_pruning not in ("search", "minimax"):
        raise ValueError(f"opponent_pruning must be 'search' or 'minimax', got {opponent_pruning!r}")
    other = acting[1] if acting[0] == seat else acting[0]
    mine, theirs = state.legal_actions(seat), state.legal_actions(other)
    if len(mine) == 1:
        return Choice(mine[0], 0, 0, 0.5)
    budget = Budget(deadline, iterations)
    threshold = max(expand_threshold, 1)
    their_worst: list[float] | None = [] if opponent_pruning == "minimax" else None
    if len(mine) > keep:
        matrix_budget = budget if matrix_share >= 1.0 else budget.split(matrix_share)
        rows = worst_cases(state, seat, mine, theirs, evaluate, matrix_budget, ignore_pair, their_worst)
        mine = [mine[index] for index in best_indices(rows, keep)]
    used = 0
    if their_worst and len(theirs) > keep:
        theirs = [theirs[index] for index in best_indices(their_worst, keep)]
    elif len(theirs) > keep and opponent_share > 0:
        scout = JointNode(state)
        scout.expand({seat: mine})
        scout_budget = budget.split(opponent_share)
        run_duct(scout, state, scout_budget, rng, c, threshold, playout_depth, evaluate, playout, zero_sum)
        used += scout_budget.used
        theirs_position = scout.seats.index(other)
        visits = scout.visits[theirs_position]
        theirs = [theirs[index] for index in best_indices([float(v) for v in visits], keep)]
    root = JointNode(state)
    root.expand({seat: mine, other: theirs})
    position = root.seats.index(seat)
    if len(mine) == 1:
        return Choice(mine[0], used, 0, 0.5)
    main_budget = _rest(budget, used)
    deepest = run_duct(root, state, main_budget, rng, c, threshold, playout_depth, evaluate, playout,
                       zero_sum)
    return choice_by(mine, root.totals[position], root.visits[position], used + main_budget.used,
                     deepest, by_visits=True)


def _rest(budget: Budget, used: int) -> Budget:
    """What is left of ``budget`` after a sub-search spent ``used`` iterations of it."""
    budget.used += used
    return budget.split(1.0)
