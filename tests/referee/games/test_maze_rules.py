"""The two number mazes' rules exactly (mutation testing: ``python -m tests.mutation.runner
rules:number_maze`` and ``rules:number_maze_duel``): golden deals, every field after each step
of short worked games, the last turn, clones."""
from __future__ import annotations

from referee.games.maze import DIRECTION_INDEX
from referee.games.number_maze.rules import NumberMazeState
from referee.games.number_maze_duel.rules import NumberMazeDuelState

UP, RIGHT, DOWN, LEFT = (DIRECTION_INDEX[name] for name in ("UP", "RIGHT", "DOWN", "LEFT"))

# seed 11, 3 x 5, 4 turns (walls at cells 6 and 8; the start, cell 9, holds no points):
#   7 8 7 7 8
#   9 # 3 # .
#   8 7 9 2 1
MAZE_POINTS = [7, 8, 7, 7, 8, 9, 0, 3, 0, 0, 8, 7, 9, 2, 1]
# seed 5, 3 x 5, 4 turns: mirrored left-right, the starts (cells 1 and 3) hold no points
#   9 . 5 . 9
#   8 # . # 8
#   7 3 . 3 7
DUEL_POINTS = [9, 0, 5, 0, 9, 8, 0, 0, 0, 8, 7, 3, 0, 3, 7]


def _maze_fields(state: NumberMazeState) -> tuple:
    return state.points, state.cell, state.score, state.turn, state.turns


def _duel_fields(state: NumberMazeDuelState) -> tuple:
    return state.points, state.cells, state.score, state.turn, state.turns


def test_a_number_maze_deal_is_fixed_by_its_seed():
    state = NumberMazeState.generate(11, 3, 5, 4)
    assert (state.grid.height, state.grid.width, state.grid.walls) == (3, 5, {6, 8})
    assert _maze_fields(state) == (MAZE_POINTS, 9, 0, 0, 4)
    assert state.acting_seats() == (0,) and state.legal_actions() == (UP, DOWN)
    assert (state.is_over(), state.scores(), state.end_reason()) == (False, (0.0,), "")


def test_number_maze_steps_collect_once_and_end_at_the_turn_limit():
    state = NumberMazeState.generate(11, 3, 5, 4)
    # up onto 8, left onto 7, back right onto the emptied cell, down to the start
    steps = [(UP, 4, 8), (LEFT, 3, 15), (RIGHT, 4, 15), (DOWN, 9, 15)]
    for turn, (direction, cell, score) in enumerate(steps, start=1):
        assert not state.is_over() and state.end_reason() == ""
        state.apply([direction])
        assert (state.cell, state.score, state.turn) == (cell, score, turn)
    assert state.points == [7, 8, 7, 0, 0, 9, 0, 3, 0, 0, 8, 7, 9, 2, 1]
    assert (state.is_over(), state.scores(), state.end_reason()) == (True, (15.0,), "turn limit")


def test_a_number_maze_clone_has_every_field_and_its_own_points():
    state = NumberMazeState.generate(11, 3, 5, 4)
    state.step(UP)
    copy = state.clone()
    assert copy.grid is state.grid and _maze_fields(copy) == _maze_fields(state)
    assert _maze_fields(copy)[1:] == (4, 8, 1, 4)
    copy.step(LEFT)
    assert state.points[3] == 7 and (state.cell, state.score, state.turn) == (4, 8, 1)


def test_a_duel_deal_is_mirrored_and_fixed_by_its_seed():
    state = NumberMazeDuelState.generate(5, 3, 5, 4)
    assert _duel_fields(state) == (DUEL_POINTS, [1, 3], [0, 0], 0, 4)
    assert state.acting_seats() == (0, 1)
    assert (state.legal_actions(0), state.legal_actions(1)) == ((RIGHT, LEFT), (RIGHT, LEFT))
    assert (state.is_over(), state.scores(), state.end_reason()) == (False, (0.0, 0.0), "")
    # the first seat starts left of the middle column, the second on its mirror image
    starts = [NumberMazeDuelState.generate(seed, 3, 5, 4).cells for seed in range(1, 9)]
    assert starts == [[10, 14], [1, 3], [0, 4], [0, 4], [1, 3], [10, 14], [11, 13], [1, 3]]
    wide = NumberMazeDuelState.generate(3, 5, 7, 6)
    assert wide.cells == [wide.cells[0], wide.cells[0] // 7 * 7 + 6 - wide.cells[0] % 7]


def test_duel_steps_score_each_seat_its_own_cell():
    state = NumberMazeDuelState.generate(5, 3, 5, 4)
    steps = [((RIGHT, RIGHT), [2, 4], [5, 9]), ((DOWN, DOWN), [7, 9], [5, 17]),
             ((UP, UP), [2, 4], [5, 17]), ((LEFT, LEFT), [1, 3], [5, 17])]
    for turn, (actions, cells, score) in enumerate(steps, start=1):
        assert not state.is_over() and state.end_reason() == ""
        state.apply(list(actions))
        assert (state.cells, state.score, state.turn) == (cells, score, turn)
    assert state.points == [9, 0, 0, 0, 0, 8, 0, 0, 0, 0, 7, 3, 0, 3, 7]
    assert (state.is_over(), state.scores(), state.end_reason()) == (True, (5.0, 17.0), "turn limit")


def test_a_duel_clone_has_every_field_and_its_own_lists():
    state = NumberMazeDuelState.generate(5, 3, 5, 4)
    state.step(RIGHT, RIGHT)
    copy = state.clone()
    assert copy.grid is state.grid and _duel_fields(copy) == _duel_fields(state)
    assert _duel_fields(copy)[1:] == ([2, 4], [5, 9], 1, 4)
    copy.step(LEFT, DOWN)
    assert _duel_fields(state)[1:] == ([2, 4], [5, 9], 1, 4) and state.points[9] == 8
