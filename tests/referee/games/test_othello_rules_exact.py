"""Othello's rules exactly (mutation testing: ``python -m tests.mutation.runner rules:othello``): the ray
table by hand, random playouts against a square-by-square reference fed the same random
numbers, every field of a state after moves, passes, playouts and clones, the end."""
from __future__ import annotations

import random

import pytest

from referee.games.othello.rules import (
    FULL,
    RAYS,
    START_BLACK,
    START_WHITE,
    OthelloState,
    _ray,
    _ray_table,
    flips,
    legal_moves,
    play_random_game,
    random_playout,
    squares_of,
)
from tests.referee.games.test_othello_rules import STEPS, reference_flips, reference_moves

SLOTS = ("boards", "to_move", "moves", "turn", "last_move", "passes", "over")


def _mask(*squares: int) -> int:
    return sum(1 << square for square in squares)


def _fields(state: OthelloState) -> tuple:
    return tuple(getattr(state, name) for name in SLOTS)


def test_rays_by_hand():
    assert _ray(0, 0, 1) == _mask(*range(1, 8)) and _ray(0, 1, 1) == _mask(9, 18, 27, 36, 45, 54, 63)
    assert _ray(2, 0, -1) == _mask(1, 0) and _ray(2, -1, 0) == 0
    assert _ray(63, -1, -1) == _mask(54, 45, 36, 27, 18, 9, 0) and _ray(63, 0, 1) == 0
    assert _ray(20, 1, -1) == _mask(27, 34, 41, 48) and _ray(20, -1, 1) == _mask(13, 6)
    # c1 (square 2): rays of two or more squares towards higher bits, then towards lower bits
    assert RAYS[2] == ((_mask(*range(3, 8)), _mask(*range(10, 64, 8)), _mask(11, 20, 29, 38, 47),
                        _mask(9, 16)), (_mask(1, 0),))
    assert RAYS[9] == ((_mask(*range(10, 16)), _mask(*range(17, 64, 8)),
                        _mask(18, 27, 36, 45, 54, 63)), ())
    assert _ray_table() == RAYS and len(RAYS) == 64


def reference_playout(mine: int, theirs: int, rng_random, max_plies: int):
    """random_playout's contract square by square: the k-th lowest legal square for
    k = int(random * count); a side without a move passes; two passes in a row end the game."""
    boards, side, plies, passed = [mine, theirs], 0, 0, False
    while plies < max_plies:
        moves = squares_of(reference_moves(boards[side], boards[1 - side]))
        if not moves:
            if passed:
                break
            passed, side = True, 1 - side
            continue
        passed = False
        square = moves[int(rng_random() * len(moves))]
        turned = reference_flips(boards[side], boards[1 - side], square)
        boards[side] |= turned | 1 << square
        boards[1 - side] ^= turned
        side, plies = 1 - side, plies + 1
    over = not reference_moves(*boards) and not reference_moves(boards[1], boards[0])
    return boards[0], boards[1], side == 0, over


@pytest.mark.parametrize("seed, plies", [(1, 64), (2, 10), (3, 64), (4, 33), (5, 0), (6, 1)])
def test_random_playout_matches_the_reference(seed, plies):
    start = OthelloState().mine_theirs()
    found = random_playout(*start, random.Random(seed).random, plies)
    assert found == reference_playout(*start, random.Random(seed).random, plies)


def test_random_playouts_from_a_position_with_passes():
    # white (to move) has no move and passes; black takes h1 and the game is over
    black, white = _mask(0, 1, 2, 3, 4, 5), _mask(6)
    for seed in range(4):
        found = random_playout(white, black, random.Random(seed).random, 64)
        assert found == reference_playout(white, black, random.Random(seed).random, 64)
    # stopped by max_plies: right after one pass (0 or 1 ply), or with the mover's opponent stuck
    for mine, theirs, plies in ((white, black, 0), (white, black, 1), (black, white, 0),
                                (_mask(0, 1), _mask(2), 0), (_mask(2), _mask(0, 1), 0)):
        found = random_playout(mine, theirs, random.Random(1).random, plies)
        assert found == reference_playout(mine, theirs, random.Random(1).random, plies)
    assert random_playout(white, black, random.Random(1).random, 1) == \
        (0, _mask(*range(8)), True, True)          # white passed, black took h1 and g1: over
    assert random_playout(_mask(0, 1), _mask(2), random.Random(1).random, 0) == \
        (_mask(0, 1), _mask(2), True, False)
    golden = random_playout(*OthelloState().mine_theirs(), random.Random(4).random, 33)
    assert golden == (0x806EFC2C26000000, 0x11193D4F3A, False, False)


def test_a_new_state_and_one_built_from_boards():
    state = OthelloState()
    assert _fields(state) == ([START_BLACK, START_WHITE], 0, _mask(19, 26, 37, 44), 0, -1, 0, False)
    assert state.acting_seats() == (0,) and state.legal_actions() == [19, 26, 37, 44]
    assert (state.winner(), state.end_reason(), state.scores()) == (None, "", (2.0, 2.0))
    built = OthelloState.from_boards(START_BLACK | 1 << 70, START_WHITE | 1 << 64, 1)
    assert _fields(built) == ([START_BLACK, START_WHITE], 1, legal_moves(START_WHITE, START_BLACK),
                              0, -1, 0, False)
    assert built.acting_seats() == (1,) and built.mine_theirs() == (START_WHITE, START_BLACK)


def test_every_field_after_a_move_by_each_side():
    state = OthelloState()
    state.apply([19])                                  # d3 turns d4
    black, white = START_BLACK | _mask(19, 27), START_WHITE & ~_mask(27)
    assert _fields(state) == ([black, white], 1, legal_moves(white, black), 1, 19, 0, False)
    assert state.discs() == (4, 1) and state.scores() == (4.0, 1.0)
    state.apply([18])                                  # c3 turns d4 back
    assert _fields(state)[:2] == ([black & ~_mask(27), white | _mask(18, 27)], 0)
    assert _fields(state)[3:] == (2, 18, 0, False) and state.discs() == (3, 3)


def test_a_pass_and_the_end_by_both_sides():
    # black to move on a1 b1 vs white c1: black plays d1, white has no disc left: over
    state = OthelloState.from_boards(_mask(0), _mask(1), 0)
    assert _fields(state)[1:] == (0, _mask(2), 0, -1, 0, False)
    state.play(2)
    assert _fields(state) == ([_mask(0, 1, 2), 0], 1, 0, 1, 2, 0, True)
    assert state.acting_seats() == () and state.winner() == 0
    assert state.end_reason() == "no legal move for either"
    # white to move cannot; black can: one automatic pass
    passing = OthelloState.from_boards(_mask(0), _mask(1), 1)
    assert _fields(passing)[1:] == (0, _mask(2), 0, -1, 1, False)
    # white wins, a draw, a full board, a game not over
    assert OthelloState.from_boards(_mask(0), _mask(62, 63), 0).winner() == 1
    drawn = OthelloState.from_boards(_mask(0), _mask(63), 0)
    assert (drawn.over, drawn.winner(), drawn.end_reason()) == (True, None, "no legal move for either")
    full = OthelloState.from_boards(FULL ^ 1, 1, 0)
    assert (full.over, full.winner(), full.end_reason()) == (True, 0, "board full")
    assert OthelloState.from_boards(FULL ^ 1, 1, 0).scores() == (63.0, 1.0)
    assert OthelloState.from_boards(1, FULL ^ 1, 0).winner() == 1


def test_a_playout_keeps_every_field_consistent():
    state = OthelloState()
    state.playout(random.Random(4).random, 9)
    assert _fields(state) == ([0x201C04040200, 0x8001A180000], 1,
                              legal_moves(0x8001A180000, 0x201C04040200), 9, -1, 0, False)
    played = OthelloState()
    played.playout(random.Random(4).random, 8)
    assert (played.to_move, played.turn) == (0, 8)
    done = OthelloState.from_boards(_mask(0, 1, 2), 0, 0)
    before = _fields(done)
    done.playout(random.Random(1).random)
    assert _fields(done) == before and done.over


def test_a_clone_has_every_field_and_its_own_boards():
    state = OthelloState.from_boards(_mask(0), _mask(1), 1)      # after a pass
    state.play(2)
    copy = state.clone()
    assert type(copy) is OthelloState and _fields(copy) == _fields(state)
    assert _fields(copy) == ([_mask(0, 1, 2), 0], 1, 0, 1, 2, 1, True)
    copy.boards[0] = 5
    assert state.boards == [_mask(0, 1, 2), 0]


def test_a_playout_with_white_to_move_after_a_move():
    state = OthelloState()
    state.play(19)
    state.playout(random.Random(4).random, 9)        # white first: 5 moves white, 4 black
    assert _fields(state) == ([0x1000183A0000, 0x3E00040200], 0,
                              legal_moves(0x1000183A0000, 0x3E00040200), 10, 19, 0, False)
    even = OthelloState()
    even.play(19)
    even.playout(random.Random(4).random, 8)
    assert (even.to_move, even.turn) == (1, 9)


def test_a_random_game_is_fixed_by_its_seed():
    game = play_random_game(3)
    assert (game.boards, game.turn, game.passes, game.discs()) == \
        ([0xFD99B593B3ADDEFF, 0x2664A6C4C522100], 60, 1, (44, 20))
    assert play_random_game(2).passes == 2                 # passes add up


def _lines():
    """Every straight line a move can take: a disc of ours, a run of 1 to 6 opponent discs, then
    the empty square past it, in each of the 8 directions from every square it fits."""
    for row, col in ((row, col) for row in range(8) for col in range(8)):
        for d_row, d_col in STEPS:
            for run in range(1, 7):
                end_row, end_col = row + d_row * (run + 1), col + d_col * (run + 1)
                if 0 <= end_row < 8 and 0 <= end_col < 8:
                    squares = [(row + d_row * k) * 8 + col + d_col * k for k in range(run + 2)]
                    yield squares[0], squares[1:-1], squares[-1]


def test_every_run_length_in_every_direction_is_a_move():
    """Random games rarely line up 5 or 6 opponent discs: each length and direction by hand,
    so a fill step that extends a run the wrong way (runs of 5-6 missed) fails here."""
    count = 0
    for mine, run, empty in _lines():
        found = legal_moves(1 << mine, _mask(*run))
        assert found == reference_moves(1 << mine, _mask(*run)) == 1 << empty, (mine, run)
        assert flips(1 << mine, _mask(*run), empty) == _mask(*run)
        count += 1
    # per run length: 4 straight directions x 8 lines x (7 - run) places, 4 diagonal x (7 - run)^2
    assert count == sum(32 * (7 - run) + 4 * (7 - run) ** 2 for run in range(1, 7)) == 1036
