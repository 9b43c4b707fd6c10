"""Rules and codecs of tictactoe, number_maze and number_maze_duel, plus the shared conformance
check (referee.testing.check_game) run on every game."""
from __future__ import annotations

import pytest

from referee.api import InvalidAction
from referee.games import game_names, load_game
from referee.games.maze import MIRRORED_DIRECTION, MazeGrid
from referee.games.number_maze.codec import state_from_lines as maze_from_lines
from referee.games.number_maze_duel.codec import state_from_lines as duel_from_lines
from referee.games.tictactoe.rules import TicTacToeState
from referee.testing import check_game


@pytest.mark.parametrize("name", game_names())
def test_every_game_conforms(name):
    """The shared conformance check (referee.testing.check_game: static facts, the codec against
    the Codec contract, random playouts from seeds 1-3 checked step by step, each played twice)."""
    game = load_game(name)
    assert game.name == name
    check_game(game)


@pytest.mark.parametrize("name", game_names())
def test_clone_is_independent(name):
    game = load_game(name)
    state = game.new_state(7, game.parse_options({}))
    before = [game.turn_lines(state, seat) for seat in state.acting_seats()]
    copy = state.clone()
    copy.apply([copy.legal_actions(seat)[0] for seat in copy.acting_seats()])
    assert [game.turn_lines(state, seat) for seat in state.acting_seats()] == before


def test_tictactoe_rules():
    state = TicTacToeState()
    for cell in (0, 3, 1, 4, 2):
        state.play(cell)
    assert state.is_over() and state.winner == 0 and state.scores() == (1.0, 0.0)
    draw = TicTacToeState()
    for cell in (0, 1, 2, 4, 3, 5, 7, 6, 8):
        draw.play(cell)
    assert draw.is_over() and draw.winner is None and draw.scores() == (0.5, 0.5)


def test_tictactoe_protocol():
    game = load_game("tictactoe")
    state = game.new_state(0, {})
    lines = game.turn_lines(state, 0)
    assert lines[0] == "-1 -1" and lines[1] == "9" and lines[2:5] == ["0 0", "0 1", "0 2"]
    state.apply([game.parse_action(state, 0, "1 1")])
    lines = game.turn_lines(state, 1)
    assert lines[0] == "1 1" and lines[1] == "8" and "1 1" not in lines[2:]
    for bad in ("1 1", "3 0", "-1 0", "a b", "1", "1 2 3", ""):
        with pytest.raises(InvalidAction):
            game.parse_action(state, 1, bad)


def test_maze_walls_and_moves():
    grid = MazeGrid(5, 5)
    assert grid.walls == {6, 8, 16, 18}
    assert grid.moves[0] == (1, 2)                     # corner: RIGHT and DOWN
    assert all(grid.moves[cell] for cell in grid.open_cells())


def test_number_maze_protocol_round_trip():
    game = load_game("number_maze")
    options = game.parse_options({"height": "5", "width": "6", "turns": "9"})
    state = game.new_state(11, options)
    init, turn = game.init_lines(state, 0), game.turn_lines(state, 0)
    assert init == ["5 6 9"] and len(turn) == 2 + 5 and all(len(row) == 6 for row in turn[2:])
    row, col = map(int, turn[1].split())
    assert turn[2 + row][col] == "."                  # the start cell holds no points
    rebuilt = maze_from_lines(init, turn)
    assert rebuilt.points == state.points and rebuilt.cell == state.cell and rebuilt.turn == 0
    direction = state.legal_actions()[0]
    gained = state.points[state.grid.targets[state.cell][direction]]
    state.apply([direction])
    assert state.score == gained and game.turn_lines(state, 0)[0] == f"8 {gained}"
    with pytest.raises(InvalidAction):
        game.parse_action(state, 0, "NORTH")


def test_number_maze_duel_is_mirrored_and_shares_points():
    game = load_game("number_maze_duel")
    state = game.new_state(5, game.parse_options({}))
    width = state.grid.width
    for cell, value in enumerate(state.points):
        row, col = divmod(cell, width)
        assert value == state.points[row * width + width - 1 - col]
    row0, col0 = divmod(state.cells[0], width)
    assert state.cells[1] == row0 * width + width - 1 - col0
    # perspective: seat 1 sees itself first
    view0, view1 = game.turn_lines(state, 0), game.turn_lines(state, 1)
    assert view0[1] == view1[2] and view0[2] == view1[1] and view0[3:] == view1[3:]
    rebuilt = duel_from_lines(game.init_lines(state, 1), view1)
    assert rebuilt.cells == [state.cells[1], state.cells[0]]
    # mirrored moves keep the position mirrored and the scores equal
    for _ in range(6):
        direction = state.legal_actions(0)[-1]
        state.apply([direction, MIRRORED_DIRECTION[direction]])
        assert state.score[0] == state.score[1]


def test_number_maze_duel_both_collect_a_shared_cell():
    game = load_game("number_maze_duel")
    state = game.new_state(5, {"height": 3, "width": 3, "turns": 5})
    state.points[1] = 7                                # row 0 col 1, between the two top corners
    state.cells = [0, 2]
    state.apply([1, 3])                                # both step onto cell 1
    assert state.score == [7, 7] and state.points[1] == 0
