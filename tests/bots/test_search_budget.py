"""Budgets: every search stops at its deadline (with generous slack), answers legally even when
the deadline has passed, and repeats itself exactly under a seed and an iteration budget.

What a search spends past its deadline is measured in its own CPU time, or on a clock the test
moves: wall time on a shared machine also counts whatever else ran meanwhile, which no search can
promise anything about (a search starved for its whole 30 ms does no iteration at all, rightly)."""
from __future__ import annotations

import random
import time

import pytest

from bots.number_maze_duel._play import evaluate as lead_value
from bots.search import alternating, chance, hybrid, simultaneous, single
from bots.search import deadline as deadline_clock
from bots.search.deadline import Budget, Deadline, turn_budget
from referee.games.number_maze.rules import NumberMazeState
from referee.games.number_maze_duel.rules import NumberMazeDuelState
from referee.games.tictactoe.rules import TicTacToeState
from tests.bots.test_search_chance import PushYourLuck

SLACK_S = 0.25          # of the search's own CPU time; timings belong in tests/perf/search


def tictactoe():
    state = TicTacToeState()
    state.play(4)
    return state


def duel():
    return NumberMazeDuelState.generate(2, 7, 9, 30)


def maze():
    return NumberMazeState.generate(2, 9, 9, 40)


# name -> (position factory, search(state, rng, **budget)); every search whose budget is time
SEARCHES = {
    "minimax": (tictactoe, lambda s, rng, **b: alternating.minimax(s, 8, **b)),
    "alphabeta": (tictactoe, lambda s, rng, **b: alternating.alphabeta(s, 8, **b)),
    "iterative_deepening": (tictactoe, lambda s, rng, **b: alternating.iterative_deepening(s, **b)),
    "alternating.pmc": (tictactoe, lambda s, rng, **b: alternating.pmc(s, rng=rng, **b)),
    "alternating.mcts": (tictactoe, lambda s, rng, **b: alternating.mcts(s, rng=rng, **b)),
    "simultaneous.pmc": (duel, lambda s, rng, **b: simultaneous.pmc(s, 0, rng=rng, **b)),
    "duct": (duel, lambda s, rng, **b: simultaneous.duct(s, 0, rng=rng, **b)),
    "simultaneous.mcts": (duel, lambda s, rng, **b: simultaneous.mcts(s, 0, rng=rng, **b)),
    "hybrid": (duel, lambda s, rng, **b: hybrid.hybrid(s, 0, rng=rng, keep=2, evaluate=lead_value, **b)),
    "beam": (maze, lambda s, rng, **b: single.beam(s, width=200, **b)),
    "chokudai": (maze, lambda s, rng, **b: single.chokudai(s, depth=40, **b)),
    "simple_tree": (lambda: PushYourLuck(0, 30),
                    lambda s, rng, **b: chance.simple_tree(s, rng=rng, levels=12, playouts=50, **b)),
}


@pytest.mark.parametrize("name", sorted(SEARCHES))
def test_every_search_returns_by_its_deadline(name):
    make, search = SEARCHES[name]
    state = make()
    started = time.thread_time()
    choice = search(state, random.Random(1), deadline=Deadline.after_ms(30))
    assert time.thread_time() - started < 0.030 + SLACK_S
    assert choice.action in state.legal_actions(state.acting_seats()[0])


@pytest.mark.parametrize("name", sorted(SEARCHES))
def test_every_search_answers_legally_when_the_deadline_has_passed(name):
    make, search = SEARCHES[name]
    state = make()
    seat = state.acting_seats()[0]
    choice = search(state, random.Random(1), deadline=Deadline(time.perf_counter() - 1))
    assert choice.action in state.legal_actions(seat)


@pytest.mark.parametrize("name", sorted(SEARCHES))
def test_same_seed_and_iterations_give_the_same_choice(name):
    make, search = SEARCHES[name]
    first, again = (search(make(), random.Random(42), iterations=300) for _ in range(2))
    assert first == again
    assert 0 < first.iterations <= 300


def test_budget_counts_exactly_and_reads_the_clock():
    budget = Budget(iterations=3)
    assert [budget.spend() for _ in range(5)] == [True, True, True, False, False]
    assert budget.used == 3 and budget.exhausted
    late = Budget(Deadline(time.perf_counter() - 1))
    assert not late.spend() and not late.available()
    with pytest.raises(ValueError):
        Budget()


def test_split_budgets_take_a_share_of_what_is_left():
    budget = Budget(Deadline.after(10), iterations=100)
    for _ in range(20):
        budget.spend()
    part = budget.split(0.25)
    assert part.limit == 20
    assert 2.0 < part.deadline_at - time.perf_counter() <= 2.5


def test_deadlines():
    soon = Deadline.after_ms(50)
    assert not soon.expired() and 0 < soon.remaining() <= 0.05
    assert Deadline.never().share(0.5).remaining() == float("inf")
    assert Deadline(time.perf_counter() - 1).expired()
    assert turn_budget(7, 0.0) == {"iterations": 7}
    assert turn_budget(None, 5.0)["deadline"].at == 5.0


def test_slow_iterations_read_the_clock_often_enough_to_stop_in_time(monkeypatch):
    now = [0.0]                             # the searches' clock, moved by the playouts only
    monkeypatch.setattr(deadline_clock, "_clock", lambda: now[0])

    def slow_playout(state, rng, max_turns):
        now[0] += 0.002                     # 2 ms: a clock read every 64th overran by 100 ms

    choice = alternating.mcts(tictactoe(), rng=random.Random(0), deadline=Deadline.after_ms(30),
                              playout=slow_playout)
    assert now[0] <= 0.030 + 0.002 + 1e-9, f"{(now[0] - 0.030) * 1000:.0f} ms past the deadline"
    assert choice.iterations >= 2
