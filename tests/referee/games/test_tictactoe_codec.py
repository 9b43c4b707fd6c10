"""tictactoe protocol, in process: golden input blocks, every refusal with its exact reason, and
input -> state for bots (the mutation run reaches the codec only through in-process tests)."""
from __future__ import annotations

import pytest

from referee.api import InvalidAction
from referee.games import load_game
from referee.games.tictactoe import codec
from referee.games.tictactoe.rules import TicTacToeState

GAME = load_game("tictactoe")


def played(*cells: int) -> TicTacToeState:
    state = TicTacToeState()
    for cell in cells:
        state.play(cell)
    return state


def test_golden_blocks():
    assert codec.turn_lines(TicTacToeState(), 0) == [
        "-1 -1", "9", "0 0", "0 1", "0 2", "1 0", "1 1", "1 2", "2 0", "2 1", "2 2"]
    # the opponent's move at cell 0 is "0 0", not the first turn's "-1 -1"
    assert codec.turn_lines(played(0), 1) == [
        "0 0", "8", "0 1", "0 2", "1 0", "1 1", "1 2", "2 0", "2 1", "2 2"]
    assert codec.turn_lines(played(0, 5, 7), 1) == [
        "2 1", "6", "0 1", "0 2", "1 0", "1 1", "2 0", "2 2"]
    assert codec.turn_lines(played(4, 8, 2, 6, 7, 1, 3, 5), 1) == ["1 2", "1", "0 0"]


def test_action_text_is_row_then_column():
    assert [codec.action_text(cell) for cell in range(9)] == [
        "0 0", "0 1", "0 2", "1 0", "1 1", "1 2", "2 0", "2 1", "2 2"]


@pytest.mark.parametrize("line, cell", [("0 0", 0), ("0 2", 2), ("2 0", 6), ("2 2", 8), ("1 2", 5),
                                        ("  2   1 ", 7), ("02 01", 7)])
def test_answers_name_their_cell(line, cell):
    assert codec.parse_action(played(4), 1, line) == cell


@pytest.mark.parametrize("line, reason", [
    ("", "expected 'row col', got ''"),
    ("1", "expected 'row col', got '1'"),
    ("1 2 3", "expected 'row col', got '1 2 3'"),
    ("a b", "expected 'row col', got 'a b'"),
    ("1 b", "expected 'row col', got '1 b'"),
    ("X1 1", "expected 'row col', got 'X1 1'"),
    ("1 X1", "expected 'row col', got '1 X1'"),
    ("1.0 1", "expected 'row col', got '1.0 1'"),
    ("3 0", "cell '3 0' is off the board"),
    ("0 3", "cell '0 3' is off the board"),
    ("-1 0", "cell '-1 0' is off the board"),
    ("0 -1", "cell '0 -1' is off the board"),
    ("1 1", "cell '1 1' is already taken"),
])
def test_refusals_say_why(line, reason):
    with pytest.raises(InvalidAction) as refused:
        codec.parse_action(played(4), 1, line)
    assert str(refused.value) == reason


def test_state_from_lines_applies_the_opponents_move():
    first = codec.state_from_lines(codec.turn_lines(TicTacToeState(), 0), None)
    assert first.boards == [0, 0] and first.to_move == 0 and first.last_move == -1
    # seat 1's bot, first asked after seat 0 took cell 0 (row 0: "0 0" is a move, not "-1 -1")
    mine = codec.state_from_lines(codec.turn_lines(played(0), 1), None)
    assert mine.boards == [1, 0] and mine.to_move == 1 and mine.last_move == 0
    mine.play(4)
    again = codec.state_from_lines(codec.turn_lines(played(0, 4, 7), 1), mine)
    assert again.boards == [1 | 1 << 7, 1 << 4] and again.last_move == 7 and again.turn == 3
    assert mine.boards == [1, 1 << 4] and mine.turn == 2          # the previous state is kept
