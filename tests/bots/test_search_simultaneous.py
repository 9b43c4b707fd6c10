"""DUCT, open-loop MCTS, primitive Monte Carlo and the hybrid on simultaneous games."""
from __future__ import annotations

import random

import pytest

from bots.number_maze_duel._play import evaluate as lead_value
from bots.number_maze_duel._play import playout as maze_playout
from bots.search.deadline import Budget
from bots.search.hybrid import best_indices, hybrid, worst_cases
from bots.search.playout import random_playout
from bots.search.simultaneous import duct, mcts, pmc
from referee.games.maze import MIRRORED_DIRECTION
from referee.games.number_maze_duel.rules import NumberMazeDuelState


class MirrorOrdered:
    """A duel position whose seat 1 lists its moves in the mirror image of seat 0's order, so
    that on a mirrored position action index i means the same move for both seats."""

    __slots__ = ("inner",)

    def __init__(self, inner: NumberMazeDuelState) -> None:
        self.inner = inner

    def clone(self) -> MirrorOrdered:
        return MirrorOrdered(self.inner.clone())

    def acting_seats(self):
        return (0, 1)

    def legal_actions(self, seat):
        moves = self.inner.legal_actions(seat)
        return moves if seat == 0 else tuple(sorted(moves, key=MIRRORED_DIRECTION.__getitem__))

    def apply(self, actions):
        self.inner.apply(actions)

    def is_over(self):
        return self.inner.is_over()

    def scores(self):
        return self.inner.scores()


def mirrored_playout(state: MirrorOrdered, rng, max_turns):
    """Seat 0 random, seat 1 its mirror image: a mirrored position stays mirrored."""
    inner = state.inner
    end = inner.turns if max_turns is None else min(inner.turns, inner.turn + max_turns)
    while inner.turn < end:
        moves = inner.legal_actions(0)
        move = moves[int(rng.random() * len(moves))]
        inner.step(move, MIRRORED_DIRECTION[move])


def points_share(state: MirrorOrdered, seat: int) -> float:
    """A non-zero-sum evaluation: the seat's score over all points there were."""
    inner = state.inner
    total = sum(inner.score) + sum(inner.points)
    return inner.score[seat] / total if total else 0.0


def mirrored_positions():
    for seed in range(5):
        yield NumberMazeDuelState.generate(seed, 5, 7, 10)


def test_duct_treats_both_seats_alike_on_mirrored_positions_exactly():
    """Seed 003's published DUCT valued seat 1's actions as (1 - W)/n instead of (n - W)/n:
    with a playout and evaluation that keep mirrored positions mirrored, seat 1's statistics
    must equal seat 0's exactly, move for mirrored move."""
    for position in mirrored_positions():
        state = MirrorOrdered(position)
        runs = [duct(state, seat, rng=random.Random(9), iterations=3000, playout=mirrored_playout,
                     playout_depth=3, evaluate=points_share) for seat in (0, 1)]
        seat0, seat1 = runs
        assert seat1.action == MIRRORED_DIRECTION[seat0.action]
        assert [(MIRRORED_DIRECTION[entry.action], entry.visits, entry.value) for entry in seat0.stats] == \
            [(entry.action, entry.visits, entry.value) for entry in seat1.stats]


class CoordinationGame:
    """Two rounds; after round 1 each seat values only its own move (``a`` for seat 0, ``y``
    for seat 1): a game that is not zero-sum, so each seat needs its own statistics."""

    __slots__ = ("moves", "turn")

    def __init__(self, moves=()):
        self.moves = moves
        self.turn = len(moves)

    def clone(self):
        return CoordinationGame(self.moves)

    def acting_seats(self):
        return (0, 1)

    def legal_actions(self, seat):
        return ("a", "b") if seat == 0 else ("x", "y")

    def apply(self, actions):
        self.moves = self.moves + (tuple(actions),)
        self.turn += 1

    def is_over(self):
        return self.turn >= 2

    def scores(self):
        return (0.0, 0.0)


def own_preference(state: CoordinationGame, seat: int) -> float:
    first = state.moves[0]
    return 0.9 if first[seat] == ("a", "y")[seat] else 0.1


def test_duct_keeps_each_seats_values_apart_in_non_zero_sum_games():
    state = CoordinationGame()
    for seat, wanted in ((0, "a"), (1, "y")):
        choice = duct(state, seat, rng=random.Random(1), iterations=400, playout_depth=0,
                      evaluate=own_preference, expand_threshold=1000)
        assert choice.action == wanted
        assert choice.value == pytest.approx(0.9)


def test_every_simultaneous_search_spends_exactly_its_iteration_budget():
    state = NumberMazeDuelState.generate(3, 5, 5, 6)
    for search in (duct, mcts, pmc):
        choice = search(state, 0, rng=random.Random(2), iterations=2000, playout=maze_playout)
        assert choice.action in state.legal_actions(0)
        assert sum(entry.visits for entry in choice.stats) == choice.iterations == 2000


def test_every_simultaneous_search_takes_the_only_points_on_the_board():
    state = NumberMazeDuelState.generate(8, 5, 7, 4)
    state.points = [0] * len(state.points)
    direction = state.legal_actions(0)[-1]
    state.points[state.grid.targets[state.cells[0]][direction]] = 9
    for search in (duct, mcts, pmc, hybrid):
        choice = search(state, 0, rng=random.Random(5), iterations=600, playout=maze_playout,
                        evaluate=lead_value)
        assert choice.action == direction, search.__name__


def test_maze_playout_matches_the_generic_random_playout():
    for seed in range(4):
        fast, generic = (NumberMazeDuelState.generate(seed, 5, 7, 12) for _ in range(2))
        for state in (fast, generic):
            state.step(state.legal_actions(0)[0], state.legal_actions(1)[0])
        maze_playout(fast, random.Random(seed), 5)
        random_playout(generic, random.Random(seed), 5)
        assert (fast.cells, fast.score, fast.points, fast.turn) == \
            (generic.cells, generic.score, generic.points, generic.turn)
        maze_playout(fast, random.Random(seed), None)
        random_playout(generic, random.Random(seed), None)
        assert (fast.cells, fast.score, fast.points, fast.turn) == \
            (generic.cells, generic.score, generic.points, generic.turn)


class MatrixGame:
    """One simultaneous move; seat 0's value of each pair is ``payoff[row][column]``."""

    __slots__ = ("payoff", "pair")

    def __init__(self, payoff, pair=None):
        self.payoff = payoff
        self.pair = pair

    def clone(self):
        return MatrixGame(self.payoff, self.pair)

    def acting_seats(self):
        return (0, 1)

    def legal_actions(self, seat):
        return list(range(len(self.payoff))) if seat == 0 else list(range(len(self.payoff[0])))

    def apply(self, actions):
        self.pair = tuple(actions)

    def is_over(self):
        return False        # evaluated, never finished: the matrix is all there is

    def scores(self):
        return (0.0, 0.0)

    def value(self, seat):
        row, column = self.pair
        return self.payoff[row][column] if seat == 0 else 1 - self.payoff[row][column]


SEED_002_MATRIX = [[0.99, 0.00, 0.99],      # A1: great unless the opponent plays B2
                   [0.14, 0.08, 0.09],      # A2: safe
                   [0.50, 0.01, 0.60]]


def test_worst_case_pruning_keeps_the_safe_actions():
    game = MatrixGame(SEED_002_MATRIX)
    rows = worst_cases(game, 0, [0, 1, 2], [0, 1, 2], lambda state, seat: state.value(seat),
                       Budget(iterations=1))
    assert rows == [0.0, 0.08, 0.01]
    assert best_indices(rows, 2) == [1, 2]
    ignored = worst_cases(game, 0, [0, 1, 2], [0, 1, 2], lambda state, seat: state.value(seat),
                          Budget(iterations=1), ignore_pair=lambda mine, theirs: theirs == 1)
    assert ignored == [0.99, 0.09, 0.50]


def test_hybrid_with_one_kept_action_plays_the_maximin_action():
    game = MatrixGame(SEED_002_MATRIX)
    choice = hybrid(game, 0, rng=random.Random(0), iterations=300, keep=1, playout_depth=0,
                    evaluate=lambda state, seat: state.value(seat))
    assert choice.action == 1


def test_hybrid_prunes_both_sides_and_searches_the_rest():
    state = NumberMazeDuelState.generate(5, 7, 7, 12)
    choice = hybrid(state, 0, rng=random.Random(3), iterations=1000, keep=2, playout_depth=2,
                    evaluate=lead_value, playout=maze_playout)
    assert choice.action in state.legal_actions(0)
    assert len(choice.stats) <= 2
    assert choice.iterations == 1000


def test_duct_without_playouts_grows_its_tree_on_the_evaluation():
    state = NumberMazeDuelState.generate(6, 5, 7, 12)
    choice = duct(state, 0, rng=random.Random(0), iterations=1500, playout_depth=0, evaluate=lead_value,
                  expand_threshold=2)
    assert choice.depth >= 3


def test_zero_sum_duct_evaluates_once_per_playout_and_agrees():
    state = NumberMazeDuelState.generate(2, 5, 7, 12)
    calls = []

    def counted(position, seat):
        calls.append(seat)
        return lead_value(position, seat)

    both = duct(state, 0, rng=random.Random(3), iterations=500, playout=maze_playout, playout_depth=2,
                evaluate=counted)
    assert len(calls) == 2 * 500
    calls.clear()
    once = duct(state, 0, rng=random.Random(3), iterations=500, playout=maze_playout, playout_depth=2,
                evaluate=counted, zero_sum=True)
    assert len(calls) == 500 and set(calls) == {0}
    assert once.action == both.action
    assert once.value == pytest.approx(both.value, abs=0.02)
