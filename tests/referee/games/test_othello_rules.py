"""Othello: bitboard rules against a slow square-by-square reference, passes, the end, the codec."""
from __future__ import annotations

import random

import pytest

from referee.api import InvalidAction
from referee.games import load_game
from referee.games.othello import codec
from referee.games.othello.rules import (
    OthelloState,
    flips,
    legal_moves,
    play_random_game,
    random_playout,
    squares_of,
)

STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))


def reference_flips(mine: int, theirs: int, square: int) -> int:
    """Walk each direction square by square on (row, col) coordinates."""
    if (mine | theirs) >> square & 1:
        return 0
    row0, col0 = divmod(square, 8)
    turned = 0
    for d_row, d_col in STEPS:
        row, col, run = row0 + d_row, col0 + d_col, 0
        while 0 <= row < 8 and 0 <= col < 8 and theirs >> (row * 8 + col) & 1:
            run |= 1 << (row * 8 + col)
            row, col = row + d_row, col + d_col
        if run and 0 <= row < 8 and 0 <= col < 8 and mine >> (row * 8 + col) & 1:
            turned |= run
    return turned


def reference_moves(mine: int, theirs: int) -> int:
    return sum(1 << square for square in range(64) if reference_flips(mine, theirs, square))


def random_positions(count: int, seed: int):
    """Positions from random games plus random disc soups (odd shapes the games never reach)."""
    rng = random.Random(seed)
    for _ in range(count):
        state = OthelloState()
        for _ in range(rng.randrange(60)):
            if state.over:
                break
            state.play(rng.choice(state.legal_actions()))
        yield state.mine_theirs()
        mine = theirs = 0
        for square in range(64):
            roll = rng.random()
            if roll < 0.35:
                mine |= 1 << square
            elif roll < 0.7:
                theirs |= 1 << square
        yield mine, theirs


def test_moves_and_flips_match_the_reference():
    for mine, theirs in random_positions(150, seed=11):
        moves = legal_moves(mine, theirs)
        assert moves == reference_moves(mine, theirs)
        for square in range(64):
            if not (mine | theirs) >> square & 1:
                assert flips(mine, theirs, square) == reference_flips(mine, theirs, square)


def test_opening_moves_and_notation():
    state = OthelloState()
    assert [codec.square_text(square) for square in state.legal_actions()] == ["d3", "c4", "f5", "e6"]
    state.play(codec.square_from_text("d3"))
    assert state.discs() == (4, 1) and state.to_move == 1
    assert codec.board_lines(*state.boards)[2:5] == ["...0....", "...00...", "...01..."]


def test_pass_when_the_opponent_cannot_move():
    # Black a1 b1, white c1 d1 ... black plays e1 and takes the row; white then has no disc at all.
    black = 0b00000001 | 0b0000_0010
    white = 0b0000_0100 | 0b0000_1000
    state = OthelloState.from_boards(black, white, 0)
    assert state.legal_actions() == [4]
    state.play(4)
    assert state.over and state.discs() == (5, 0) and state.winner() == 0
    assert state.end_reason() == "no legal move for either"
    # White to move with no move at all, black with one: white passes at once.
    state = OthelloState.from_boards(0b0000_0011, 0b0000_0100, 1)
    assert state.to_move == 0 and state.passes == 1 and not state.over


def test_pass_in_the_middle_of_a_game_keeps_the_mover():
    rng = random.Random(5)
    seen_pass = False
    for _ in range(40):
        state = OthelloState()
        while not state.over:
            mover = state.to_move
            state.play(rng.choice(state.legal_actions()))
            if not state.over and state.to_move == mover:
                seen_pass = True
                mine, theirs = state.mine_theirs()
                assert legal_moves(mine, theirs) and not legal_moves(theirs, mine)
    assert seen_pass, "40 random games should include a pass"


def test_game_end_and_scores():
    state = play_random_game(3)
    black, white = state.discs()
    assert state.over and state.scores() == (float(black), float(white))
    mine, theirs = state.mine_theirs()
    assert not legal_moves(mine, theirs) and not legal_moves(theirs, mine)
    assert state.winner() == (None if black == white else 0 if black > white else 1)
    assert state.acting_seats() == ()


def test_random_playout_plays_legal_games_to_the_end():
    rng = random.Random(2)
    for _ in range(20):
        black, white, _, over = random_playout(*OthelloState().mine_theirs(), rng.random)
        assert black & white == 0 and over
        assert not legal_moves(black, white) and not legal_moves(white, black)
    black, white, black_to_move, over = random_playout(*OthelloState().mine_theirs(), rng.random,
                                                       max_plies=10)
    assert (black | white).bit_count() == 14 and not over


def test_state_playout_keeps_the_state_consistent():
    rng = random.Random(4)
    for plies in (1, 7, 30, 64):
        state = OthelloState()
        state.playout(rng.random, plies)
        mine, theirs = state.mine_theirs()
        assert state.moves == legal_moves(mine, theirs)
        assert state.turn == (mine | theirs).bit_count() - 4
        if state.over:
            assert not legal_moves(theirs, mine) and not state.moves
        else:
            assert state.moves and state.turn == min(plies, 60)


def test_codec_round_trip():
    game = load_game("othello")
    rng = random.Random(8)
    state = game.new_state(0, {})
    while not state.over:
        seat = state.to_move
        lines = game.turn_lines(state, seat)
        assert game.init_lines(state, seat) == [str(seat), "8"]
        rebuilt = codec.state_from_lines(seat, lines)
        assert rebuilt.boards == state.boards and rebuilt.to_move == seat
        assert codec.moves_from_lines(lines) == state.legal_actions()
        move = rng.choice(state.legal_actions())
        assert game.parse_action(state, seat, codec.action_text(move) + " a message") == move
        state.play(move)


@pytest.mark.parametrize("line, reason", [
    ("", "expected a move such as 'd3', got ''"),
    ("  ", "expected a move such as 'd3', got '  '"),
    ("z9", "'z9' is not a square (expected a1..h8) in 'z9'"),
    ("z1", "'z1' is not a square (expected a1..h8) in 'z1'"),     # a bad file alone is enough
    ("a9", "'a9' is not a square (expected a1..h8) in 'a9'"),     # a bad rank alone is enough
    ("a0 hello", "'a0' is not a square (expected a1..h8) in 'a0 hello'"),
    ("d", "'d' is not a square (expected a1..h8) in 'd'"),
    ("d33", "'d33' is not a square (expected a1..h8) in 'd33'"),
    ("d4", "square 'd4' is already taken"),
    ("E5", "square 'E5' is already taken"),
    ("a1", "'a1' turns no disc: not a legal move"),
])
def test_bad_answers_say_why(line, reason):
    game = load_game("othello")
    with pytest.raises(InvalidAction) as refused:
        game.parse_action(game.new_state(0, {}), 0, line)
    assert str(refused.value) == reason


def test_square_text_and_back_in_either_case():
    assert [codec.square_text(square) for square in (0, 7, 8, 27, 56, 63)] == [
        "a1", "h1", "a2", "d4", "a8", "h8"]
    for square in range(64):
        text = codec.square_text(square)
        assert codec.square_from_text(text) == square == codec.square_from_text(text.upper())
    for text in ("z1", "i1", "a9", "a0", "", "a", "a11", "1a"):
        assert codec.square_from_text(text) is None


def test_state_from_lines_counts_the_moves_played():
    game = load_game("othello")
    state = game.new_state(0, {})
    assert codec.state_from_lines(0, game.turn_lines(state, 0)).turn == 0
    for turn, move in enumerate(("d3", "c5", "f6"), start=1):
        state.play(codec.square_from_text(move))
        rebuilt = codec.state_from_lines(state.to_move, game.turn_lines(state, state.to_move))
        assert rebuilt.turn == turn and rebuilt.boards == state.boards


def test_moves_from_lines_reads_only_the_listed_moves():
    game = load_game("othello")
    lines = game.turn_lines(game.new_state(0, {}), 0)
    assert lines[8:] == ["4", "d3", "c4", "f5", "e6"]
    # lines after the listed moves (the next block's) are not moves
    assert codec.moves_from_lines(lines + ["a1", "b1"]) == [19, 26, 37, 44]


def test_squares_of_lists_bits_in_order():
    assert squares_of(0) == [] and squares_of(1 << 63 | 1 << 5 | 1) == [0, 5, 63]


def test_opening_option_plays_random_moves_from_the_seed():
    game = load_game("othello")
    plain = game.new_state(5, game.parse_options({}))
    assert plain.boards == OthelloState().boards
    options = game.parse_options({"opening": "6"})
    one, again, other = (game.new_state(seed, options) for seed in (5, 5, 6))
    assert one.turn == 6 and (one.boards[0] | one.boards[1]).bit_count() == 10
    assert one.boards == again.boards and one.to_move == again.to_move
    assert one.boards != other.boards
