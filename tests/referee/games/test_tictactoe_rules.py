"""Tic-tac-toe's rules exactly (mutation testing: ``python -m tests.mutation.runner rules:tictactoe``):
every field of the state after each move of worked games, each line, both winners, a draw."""
from __future__ import annotations

import pytest

from referee.games.tictactoe.rules import FULL, LINES, TicTacToeState, has_line

SLOTS = ("boards", "to_move", "turn", "last_move", "winner")


def _fields(state: TicTacToeState) -> tuple:
    return tuple(getattr(state, name) for name in SLOTS)


def test_a_new_game_is_empty_with_seat_0_to_move():
    state = TicTacToeState()
    assert _fields(state) == ([0, 0], 0, 0, -1, None)
    assert state.acting_seats() == (0,) and state.legal_actions() == list(range(9))
    assert (state.is_over(), state.scores(), state.end_reason()) == (False, (0.0, 0.0), "")


@pytest.mark.parametrize("line", LINES)
def test_each_line_wins_and_two_cells_of_it_do_not(line):
    assert has_line(line) and has_line(line | 0b1) and has_line(FULL)
    for cell in range(9):
        if line >> cell & 1:
            assert not has_line(line & ~(1 << cell))
    assert not has_line(0) and not has_line(0b000001011)     # cells 0, 1, 3: no line


def test_every_field_after_each_move_of_a_game_seat_1_wins():
    state = TicTacToeState()
    # x: 0 1 8, o: 4 3 5 (o completes the middle row on the sixth move)
    expected = [([0b1, 0], 1, 1, 0), ([0b1, 0b10000], 0, 2, 4), ([0b11, 0b10000], 1, 3, 1),
                ([0b11, 0b11000], 0, 4, 3), ([0b100000011, 0b11000], 1, 5, 8),
                ([0b100000011, 0b111000], 0, 6, 5)]
    for cell, (boards, to_move, turn, last) in zip((0, 4, 1, 3, 8, 5), expected):
        assert state.acting_seats() == ((turn - 1) % 2,)
        state.apply([cell])
        assert _fields(state)[:4] == (boards, to_move, turn, last)
    assert state.winner == 1 and state.is_over()
    assert (state.scores(), state.end_reason()) == ((0.0, 1.0), "three in a row")
    assert state.legal_actions() == [2, 6, 7]


def test_legal_actions_leave_out_both_seats_cells():
    state = TicTacToeState()
    for cell in (4, 0, 8):
        state.play(cell)
    assert state.legal_actions() == [1, 2, 3, 5, 6, 7]
    assert not state.is_over() and state.scores() == (0.0, 0.0) and state.end_reason() == ""


def test_seat_0_wins_and_a_full_board_is_a_draw_unless_its_last_move_wins():
    won = TicTacToeState()
    for cell in (0, 3, 1, 4, 2):
        won.play(cell)
    assert (won.winner, won.scores(), won.end_reason()) == (0, (1.0, 0.0), "three in a row")
    draw = TicTacToeState()
    for cell in (0, 1, 2, 4, 3, 5, 7, 6, 8):
        draw.play(cell)
    assert draw.boards[0] | draw.boards[1] == FULL and draw.legal_actions() == []
    assert (draw.is_over(), draw.winner, draw.scores(), draw.end_reason()) == \
        (True, None, (0.5, 0.5), "board full")
    last_wins = TicTacToeState()
    for cell in (0, 1, 2, 4, 3, 5, 7, 8, 6):        # x's ninth move completes column 0
        last_wins.play(cell)
    assert (last_wins.winner, last_wins.scores(), last_wins.end_reason()) == \
        (0, (1.0, 0.0), "three in a row")


def test_a_clone_has_every_field_and_is_independent():
    state = TicTacToeState()
    for cell in (0, 3, 1, 4, 2):
        state.play(cell)
    copy = state.clone()
    assert type(copy) is TicTacToeState and _fields(copy) == _fields(state) == \
        ([0b111, 0b11000], 1, 5, 2, 0)
    copy.boards[1] = 7
    assert state.boards == [0b111, 0b11000]
