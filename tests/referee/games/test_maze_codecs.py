"""number_maze and number_maze_duel protocols, exactly: golden input blocks, the whole state a
bot rebuilds from them, every refusal's message (mutation testing:
``python -m tests.mutation.runner codec``)."""
from __future__ import annotations

import pytest

from referee.api import InvalidAction
from referee.games import load_game
from referee.games.number_maze import codec as maze_codec
from referee.games.number_maze_duel import codec as duel_codec

MAZE = load_game("number_maze")
DUEL = load_game("number_maze_duel")


def _maze_after_two_moves():
    """Seed 11, 5 x 7, 9 turns; two moves, 14 points taken."""
    state = MAZE.new_state(11, MAZE.parse_options({"height": "5", "width": "7", "turns": "9"}))
    for _ in range(2):
        state.apply([state.legal_actions()[0]])
    return state


def _duel_after_two_turns():
    """Seed 5, 5 x 7, 12 turns; two turns, the seats apart with scores 9 and 8."""
    state = DUEL.new_state(5, {"height": 5, "width": 7, "turns": 12})
    state.apply([state.legal_actions(0)[0], state.legal_actions(1)[-1]])
    state.apply([state.legal_actions(0)[0], state.legal_actions(1)[0]])
    return state


MAZE_GRID = ["7...893", "2#8#7#9", "2174218", ".#9#6#7", "929.81."]
DUEL_GRID = ["9458549", ".#.#7#.", "3..12.3", "5#.#.#5", "3681.63"]


def test_number_maze_input_blocks_are_exact():
    state = _maze_after_two_moves()
    assert MAZE.init_lines(state, 0) == ["5 7 9"]
    assert MAZE.turn_lines(state, 0) == ["7 14", "0 3", *MAZE_GRID]


def test_number_maze_duel_input_blocks_are_exact_from_each_seat():
    state = _duel_after_two_turns()
    assert DUEL.init_lines(state, 1) == ["5 7 12"]
    assert DUEL.turn_lines(state, 0) == ["10", "9 1 2", "8 3 4", *DUEL_GRID]
    assert DUEL.turn_lines(state, 1) == ["10", "8 3 4", "9 1 2", *DUEL_GRID]


def test_a_number_maze_bot_rebuilds_the_whole_state():
    state = _maze_after_two_moves()
    seen = maze_codec.state_from_lines(["5 7 9"], ["7 14", "0 3", *MAZE_GRID])
    assert (seen.grid.height, seen.grid.width, seen.grid.walls, seen.grid.moves) == \
        (5, 7, state.grid.walls, state.grid.moves)
    assert (seen.points, seen.cell, seen.score, seen.turn, seen.turns) == \
        (state.points, 3, 14, 2, 9)
    assert seen.legal_actions() == (1, 3)


def test_a_number_maze_duel_bot_rebuilds_the_whole_state_as_seat_0():
    state = _duel_after_two_turns()
    seen = duel_codec.state_from_lines(["5 7 12"], ["10", "8 3 4", "9 1 2", *DUEL_GRID])
    assert (seen.grid.height, seen.grid.width, seen.grid.walls, seen.grid.moves) == \
        (5, 7, state.grid.walls, state.grid.moves)
    assert (seen.points, seen.cells, seen.score, seen.turn, seen.turns) == \
        (state.points, [25, 9], [8, 9], 2, 12)
    assert seen.legal_actions(0) == (0, 2) and seen.legal_actions(1) == (0, 2)


@pytest.mark.parametrize("game, state, seat, line, message", [
    (MAZE, _maze_after_two_moves(), 0, "NORTH", "expected UP, RIGHT, DOWN or LEFT, got 'NORTH'"),
    (MAZE, _maze_after_two_moves(), 0, "up", "expected UP, RIGHT, DOWN or LEFT, got 'up'"),
    (MAZE, _maze_after_two_moves(), 0, "UP", "UP from row 0 col 3 runs into a wall or off the board"),
    (DUEL, _duel_after_two_turns(), 0, "", "expected UP, RIGHT, DOWN or LEFT, got ''"),
    (DUEL, _duel_after_two_turns(), 0, "LEFT", "LEFT from row 1 col 2 runs into a wall or off the board"),
    (DUEL, _duel_after_two_turns(), 1, "LEFT", "LEFT from row 3 col 4 runs into a wall or off the board"),
], ids=["maze-word", "maze-case", "maze-edge", "duel-empty", "duel-seat-0-wall", "duel-seat-1-wall"])
def test_answers_are_refused_with_the_exact_reason(game, state, seat, line, message):
    with pytest.raises(InvalidAction) as refused:
        game.parse_action(state, seat, line)
    assert str(refused.value) == message


def test_answers_are_the_directions_words():
    assert [MAZE.action_text(d) for d in range(4)] == ["UP", "RIGHT", "DOWN", "LEFT"]
    assert [DUEL.action_text(d) for d in range(4)] == ["UP", "RIGHT", "DOWN", "LEFT"]
    state = _duel_after_two_turns()
    assert DUEL.parse_action(state, 0, " UP\n") == 0 and DUEL.parse_action(state, 1, "DOWN") == 2
