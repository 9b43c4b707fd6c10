"""Greedy, beam and Chokudai search on number_maze, against an exhaustive search."""
from __future__ import annotations

import pytest

from bots.search.single import beam, chokudai, greedy
from referee.games.number_maze.rules import NumberMazeState


def best_total(state: NumberMazeState) -> float:
    """The most points reachable before the game ends (exhaustive search)."""
    if state.is_over():
        return state.score
    best = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply((action,))
        best = max(best, best_total(child))
    return best


def mazes(turns: int = 6):
    return [NumberMazeState.generate(seed, 5, 7, turns) for seed in range(6)]


def test_greedy_takes_the_richest_neighbour():
    for state in mazes():
        choice = greedy(state)
        gains = {entry.action: entry.value for entry in choice.stats}
        assert gains[choice.action] == max(gains.values())
        assert set(gains) == set(state.legal_actions())


def test_a_beam_wide_enough_to_keep_everything_is_exhaustive():
    for state in mazes():
        choice = beam(state, width=4 ** 6)
        assert choice.value == best_total(state)
        assert choice.depth == 6
        after = state.clone()
        after.apply((choice.action,))
        assert best_total(after) == choice.value


def test_chokudai_with_enough_passes_is_exhaustive_and_never_worse_than_greedy():
    for state in mazes():
        many = chokudai(state, depth=6, width=1, beams=2000)
        assert many.value == best_total(state)
        few = chokudai(state, depth=6, width=1, beams=1)
        assert few.value == beam(state, width=1).value      # one pass of width 1 is a greedy line


def test_beam_stops_at_the_game_end_and_at_its_depth():
    state = mazes(turns=3)[0]
    assert beam(state, width=5).depth == 3
    assert beam(mazes(turns=10)[0], width=5, depth=4).depth == 4


def test_a_one_state_budget_still_answers_from_the_first_level():
    state = mazes()[1]
    for choice in (beam(state, width=3, iterations=1), chokudai(state, depth=6, iterations=1)):
        assert choice.action in state.legal_actions()
        assert choice.depth == 1
        assert choice.iterations == 1


def test_bad_widths_are_refused():
    with pytest.raises(ValueError):
        beam(mazes()[0], width=0)
    with pytest.raises(ValueError):
        chokudai(mazes()[0], depth=0, beams=1)
