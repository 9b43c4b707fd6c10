"""xmas_rush rules: one test per rule of the issue, plus the bitboards against naive models."""
from __future__ import annotations

import random
from collections import deque

import pytest

from referee.games import load_game
from referee.games.xmas_rush import codec
from referee.games.xmas_rush.board import (
    CELL_BITS,
    DOWN,
    ITEM_INDEX,
    LEFT,
    RIGHT,
    UP,
    can_step,
    cell_value,
    distances,
    gather,
    item_mask,
)
from referee.games.xmas_rush.rules import HAND, PUSHES, Move, Push, XmasRushState

GAME = load_game("xmas_rush")


def code_of(name: str, owner: int) -> int:
    return 1 + 2 * ITEM_INDEX[name] + owner


def corridor_state(*, me=(0, 3), opponent=(6, 3), items=(), quests=(), turn=1, level=6,
                   remaining=(12, 12)) -> XmasRushState:
    """Row 3 is a left-right corridor (0101), every other tile a vertical straight (1010)."""
    rows = ["1010 " * 6 + "1010"] * 7
    rows[3] = "0101 " * 6 + "0101"
    lines = [str(turn & 1), *rows,
             f"{remaining[0]} {me[0]} {me[1]} 1111", f"{remaining[1]} {opponent[0]} {opponent[1]} 1111",
             str(len(items)), *items, str(len(quests)), *quests]
    return codec.state_from_lines(lines, turn=turn, level=level)


def mixed_states(count: int = 6):
    """Real positions after some random play, so boards, hands, items and players vary."""
    rng = random.Random(3)
    states = []
    for seed in range(count):
        state = XmasRushState.new_game(seed)
        for _ in range(rng.randrange(0, 30)):
            if state.is_over():
                break
            state.apply([rng.choice(state.legal_actions(seat)) for seat in (0, 1)])
        states.append(state)
    return states


# -- the bitboards against naive models ------------------------------------------------
def line_cells(push: Push) -> list[int]:
    """The cells of the pushed line, in the direction its tiles move."""
    line, direction = push
    if direction in (LEFT, RIGHT):
        indices = [line * 7 + x for x in range(7)]
    else:
        indices = [y * 7 + line for y in range(7)]
    if direction in (LEFT, UP):
        indices.reverse()
    return indices


def naive_push(cells: list[int], hand: int, positions: list[int], push: Push):
    indices = line_cells(push)
    values = [cells[i] for i in indices]
    popped = values[-1]
    cells = cells[:]
    for i, value in zip(indices, [hand] + values[:-1]):
        cells[i] = value
    moved = []
    for pos in positions:
        if pos in indices:
            pos = indices[(indices.index(pos) + 1) % 7]
        moved.append(pos)
    return cells, popped, moved


def test_every_push_matches_a_naive_grid():
    for state in mixed_states():
        for push in PUSHES:
            for seat in (0, 1):
                cells = [cell_value(state.board, c) for c in range(49)]
                expected = naive_push(cells, state.hands[seat], list(state.pos), push)
                trial = state.clone()
                trial.push_line(seat, push)
                assert [cell_value(trial.board, c) for c in range(49)] == expected[0]
                assert trial.hands[seat] == expected[1] and trial.hands[1 - seat] == state.hands[1 - seat]
                assert list(trial.pos) == expected[2]


def test_gather_packs_every_ninth_bit():
    rng = random.Random(4)
    for mask in [0, (1 << 49) - 1] + [rng.getrandbits(49) for _ in range(300)]:
        assert gather(sum(1 << (CELL_BITS * cell) for cell in range(49) if mask >> cell & 1)) == mask


def test_item_mask_matches_a_scan():
    for state in mixed_states(8):
        for codes in ([1], [24], [3, 5, 7], list(range(1, 25)), []):
            expected = sum(1 << c for c in range(49) if state.item_at(c) in codes)
            assert item_mask(state.board, codes) == expected
        for seat in (0, 1):
            assert state.quest_cells(seat) == item_mask(state.board, state.quests[seat])


def naive_distances(state: XmasRushState, start: int) -> list[int]:
    def opens(cell, direction):
        return state.tile(cell) >> direction & 1
    dist = [-1] * 49
    dist[start] = 0
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        x, y = cell % 7, cell // 7
        for direction, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
            nx, ny = x + dx, y + dy
            if 0 <= nx < 7 and 0 <= ny < 7 and opens(cell, direction) \
                    and opens(ny * 7 + nx, (direction + 2) % 4) and dist[ny * 7 + nx] < 0:
                dist[ny * 7 + nx] = dist[cell] + 1
                queue.append(ny * 7 + nx)
    return dist


def test_reachability_and_distances_match_a_naive_search():
    for state in mixed_states(8):
        east, south = state.connections()
        for start in range(0, 49, 3):
            expected = naive_distances(state, start)
            assert distances(east, south, start) == expected
            trial = state.clone()
            trial.pos = (start, start)
            assert trial.reachable(0) == sum(1 << c for c in range(49) if expected[c] >= 0)
            for direction in range(4):
                target = start + (-7, 1, 7, -1)[direction]
                on_board = 0 <= target < 49 and (direction in (UP, DOWN) or target // 7 == start // 7)
                assert can_step(east, south, start, direction) == \
                    (on_board and expected[target] == 1 and abs(target - start) in (1, 7))


# -- PUSH turns -------------------------------------------------------------------------
@pytest.mark.parametrize("first,second", [(Push(2, RIGHT), Push(2, LEFT)), (Push(2, LEFT), Push(2, LEFT)),
                                          (Push(5, UP), Push(5, DOWN)), (Push(0, DOWN), Push(0, DOWN))])
def test_same_line_conflict_changes_nothing(first, second):
    state = XmasRushState.new_game(11)
    before = (state.board, state.hands, state.pos)
    state.apply((first, second))
    assert (state.board, state.hands, state.pos) == before and state.stale == 1


def test_different_lines_of_one_kind_are_both_pushed():
    state = XmasRushState.new_game(11)
    expected = state.clone()
    expected.push_line(0, Push(1, RIGHT))
    expected.push_line(1, Push(5, LEFT))
    state.apply((Push(1, RIGHT), Push(5, LEFT)))
    assert (state.board, state.hands, state.pos, state.stale) == \
        (expected.board, expected.hands, expected.pos, 0)


@pytest.mark.parametrize("row_seat", [0, 1])
def test_row_is_pushed_before_column(row_seat):
    state = XmasRushState.new_game(12)
    row, column = Push(2, RIGHT), Push(4, DOWN)
    expected, other_order = state.clone(), state.clone()
    expected.push_line(row_seat, row)
    expected.push_line(1 - row_seat, column)
    other_order.push_line(1 - row_seat, column)
    other_order.push_line(row_seat, row)
    assert expected.board != other_order.board
    state.apply((row, column) if row_seat == 0 else (column, row))
    assert (state.board, state.hands) == (expected.board, expected.hands)


def test_items_are_checked_between_the_row_and_the_column():
    state = XmasRushState.new_game(12)
    scroll = code_of("SCROLL", 0)
    state.board &= ~sum(31 << (CELL_BITS * c + 4) for c in range(49))       # no items on the board
    state.hands = (state.hands[0] & 15, (state.hands[1] & 15) | scroll << 4)
    state.pos, state.quests = (48, 20), ((scroll,), ())
    # seat 1's row 6 push carries seat 0 from (6,6) around onto the scroll at (0,6); seat 0's
    # column 0 push then pops that tile: only a check after the row collects the scroll
    state.apply((Push(0, DOWN), Push(6, RIGHT)))
    assert state.score == (1, 0) and state.pos[0] == 0 and state.hands[0] >> 4 == 0


def test_players_wrap_around_onto_the_inserted_tile():
    state = XmasRushState.new_game(13)
    state.pos = (20, 3)                                    # (6, 2) and (3, 0)
    hand0, hand1 = state.hands
    state.apply((Push(2, RIGHT), Push(3, UP)))
    assert state.pos == (14, 45)                           # (0, 2) and (3, 6)
    assert cell_value(state.board, 14) == hand0 and cell_value(state.board, 45) == hand1


def test_popped_tile_and_its_item_become_the_pushers_hand():
    state = XmasRushState.new_game(14)
    state.quests = ((), ())
    fish = code_of("FISH", 1)
    state.board &= ~sum(31 << (CELL_BITS * c + 4) for c in range(49))
    state.board |= fish << (CELL_BITS * 34 + 4)            # on (6, 4)
    state.item_order = (fish,)
    tile = state.tile(34)
    state.apply((Push(4, RIGHT), Push(1, DOWN)))
    assert state.hands[0] == tile | fish << 4 and state.item_cells() == {fish: HAND[0]}
    assert "FISH -1 -1 1" in GAME.turn_lines(state, 0) and "FISH -2 -2 0" in GAME.turn_lines(state, 1)
    state.apply((Move((), state.pos[0]), Move((), state.pos[1])))
    state.apply((Push(4, LEFT), Push(1, UP)))              # back in at (6, 4)
    assert state.item_cells() == {fish: 34} and state.tile(34) == tile


# -- MOVE turns -------------------------------------------------------------------------
def test_items_are_collected_while_passing():
    state = corridor_state(items=["BOOK 2 3 0"], quests=["BOOK 0"])
    state.apply((GAME.parse_action(state, 0, "MOVE RIGHT RIGHT RIGHT RIGHT"), Move((), state.pos[1])))
    assert state.pos[0] == 3 * 7 + 4 and state.score == (1, 0) and state.item_cells() == {}


@pytest.mark.parametrize("answer,end", [("MOVE RIGHT UP RIGHT", 1), ("MOVE LEFT RIGHT", 0),
                                        ("MOVE RIGHT RIGHT DOWN LEFT", 2)])
def test_an_illegal_step_cancels_the_rest_of_the_move(answer, end):
    state = corridor_state()
    move = GAME.parse_action(state, 0, answer)
    assert move.target == 21 + end
    state.apply((move, Move((), state.pos[1])))
    assert state.pos[0] == 21 + end


def test_quest_reveal_at_turn_start_and_check_after_the_input():
    key = code_of("KEY", 0)
    state = corridor_state(items=["KEY 0 3 0", "BOOK 1 3 0"], quests=["BOOK 0"], level=2,
                           remaining=(6, 6))
    state.decks = ((key,), ())
    state.apply((GAME.parse_action(state, 0, "MOVE RIGHT LEFT"), Move((), state.pos[1])))
    # BOOK collected on the way; passing back over KEY does nothing: it is revealed only now
    assert state.score == (1, 0) and state.quests[0] == (key,) and state.pos[0] == 21
    lines = GAME.turn_lines(state, 0)
    assert "KEY 0 3 0" in lines and lines[-1] == "KEY 0"   # the input still shows it...
    state.apply((Push(0, RIGHT), Push(6, LEFT)))
    assert state.score == (2, 0) and state.quests[0] == ()  # ...collected right after it was sent


# -- the end ----------------------------------------------------------------------------
def test_game_ends_after_150_game_turns():
    state = XmasRushState.new_game(15)
    state.turn = 149
    assert not state.is_over()
    state.apply((Move((), state.pos[0]), Move((), state.pos[1])))
    assert state.is_over() and state.turn == 150 and "150" in state.end_reason()


def test_game_ends_after_10_stale_push_turns():
    state = XmasRushState.new_game(16)
    passes = lambda: (Move((), state.pos[0]), Move((), state.pos[1]))     # noqa: E731
    for _ in range(9):
        state.apply((Push(3, RIGHT), Push(3, LEFT)))
        state.apply(passes())
    assert state.stale == 9 and not state.is_over()
    state.apply((Push(3, RIGHT), Push(4, LEFT)))          # a real push resets the count
    state.apply(passes())
    assert state.stale == 0
    for turn in range(10):
        assert not state.is_over()
        state.apply((Push(1, UP), Push(1, UP)))
        if turn < 9:
            state.apply(passes())
    assert state.is_over() and state.stale == 10 and "10 push turns" in state.end_reason()


def test_game_ends_when_a_player_completes_every_quest():
    state = corridor_state(items=["BOOK 1 3 0", "BOOK 5 3 1"], quests=["BOOK 0", "BOOK 1"],
                           level=1, remaining=(1, 1))
    state.apply((GAME.parse_action(state, 0, "MOVE RIGHT"), Move((), state.pos[1])))
    assert state.is_over() and state.scores() == (1, 0) and state.winner() == 0
    assert state.end_reason() == "every quest completed"


def test_both_completing_in_the_same_turn_is_a_draw():
    state = corridor_state(items=["BOOK 1 3 0", "BOOK 3 3 1"], quests=["BOOK 0", "BOOK 1"],
                           level=1, remaining=(1, 1))
    # seat 0 is done after its first step; seat 1's three steps are still played out
    state.apply((GAME.parse_action(state, 0, "MOVE RIGHT"),
                 GAME.parse_action(state, 1, "MOVE LEFT LEFT LEFT")))
    assert state.is_over() and state.scores() == (1, 1) and state.winner() is None
    assert state.end_reason() == "both completed every quest"


# -- the search API -----------------------------------------------------------------------
def test_legal_actions():
    state = XmasRushState.new_game(17)
    pushes = state.legal_actions(0)
    assert len(set(pushes)) == 28 and [str(p) for p in pushes[:2]] == ["PUSH 0 UP", "PUSH 1 UP"]
    state = corridor_state(items=["BOOK 4 3 0"], quests=["BOOK 0"])
    moves = state.legal_actions(0)
    assert str(moves[0]) == "PASS" and moves[0].target == state.pos[0]
    # PASS, then one path per cell of the corridor; back to the start is there too: via BOOK
    assert sorted(move.target for move in moves) == [21] + list(range(21, 28))
    for move in moves:
        assert len(move.steps) <= 20 and state.walk_target(0, move.steps) == move.target
        trial = state.clone()
        trial.apply((move, Move((), trial.pos[1])))
        assert trial.score[0] == (1 if move.steps else 0)   # every path there picks up BOOK


def test_clone_is_independent_and_cheap_to_take():
    state = XmasRushState.new_game(18)
    copy = state.clone()
    copy.apply((Push(0, RIGHT), Push(6, DOWN)))
    assert state.turn == 0 and state.board != copy.board
    assert all(isinstance(getattr(state, name), (int, tuple, bool, str, type(None)))
               for name in ("board", "hands", "pos", "quests", "decks", "score", "turn", "stale"))


def test_shuffle_decks_keeps_one_draw_order():
    state = XmasRushState.new_game(19)
    state.decks = (state.decks[0][:6], state.decks[1])
    state.shuffle_decks(random.Random(1))
    names = [[(code - 1) >> 1 for code in deck] for deck in state.decks]
    assert names[1][:6] == names[0] and len(names[1]) == 9
    assert all((code - 1) & 1 == seat for seat in (0, 1) for code in state.decks[seat])
