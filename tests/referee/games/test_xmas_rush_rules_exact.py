"""xmas_rush's rules exactly (mutation testing: ``python -m tests.mutation.runner rules:xmas_rush``).

The push tables are built once at import, so the tests of ``push_line`` never see a bug in the
builders: here they are called again and checked against the naive grid push of
test_xmas_rush_rules. The rest pins what the other tests leave loose: every field of a new game
and of a clone, seat 1's side of each rule (its walk, its collection, its reveal), illegal
sideways steps, the stale count after a row-and-column push turn, the winner of either seat, the
determinized decks from either seat's view.
"""
from __future__ import annotations

import random

from referee.games.xmas_rush.board import CELL_BITS, CELL_MASK, DOWN, ITEM_SHIFT, LEFT, RIGHT, UP, distances
from referee.games.xmas_rush.generation import league
from referee.games.xmas_rush.rules import (
    PUSH_TABLE,
    PUSHES,
    Move,
    Push,
    XmasRushState,
    _moved_players,
    _push_tables,
    new_state,
)
from tests.referee.games.test_xmas_rush_rules import (
    code_of,
    corridor_state,
    line_cells,
    mixed_states,
    naive_distances,
    naive_push,
)

SLOTS = XmasRushState.__slots__


def _fields(state: XmasRushState) -> tuple:
    return tuple(getattr(state, name) for name in SLOTS)


def test_the_push_table_is_built_from_each_lines_cells():
    built = _push_tables()
    for push in PUSHES:
        cells = line_cells(push)
        mask = sum(CELL_MASK << (CELL_BITS * cell) for cell in cells)
        shift = CELL_BITS if push.direction in (LEFT, RIGHT) else CELL_BITS * 7
        forward = push.direction in (RIGHT, DOWN)        # tiles move towards higher bits
        assert built[push.code] == (mask, forward, shift, CELL_BITS * cells[-1],
                                    CELL_BITS * cells[0]), str(push)
    assert built[Push(0, RIGHT).code] == ((1 << 63) - 1, True, 9, 54, 0)
    assert built[Push(0, UP).code] == (sum(511 << (63 * y) for y in range(7)), False, 63, 0, 378)
    assert built == PUSH_TABLE and len(built) == 28


def test_a_push_with_freshly_built_tables_matches_the_naive_grid():
    """push_line's own arithmetic over the tables the builders return now."""
    rng = random.Random(7)
    cells = [rng.randrange(1 << CELL_BITS) for _ in range(49)]
    board = sum(value << (CELL_BITS * cell) for cell, value in enumerate(cells))
    hand = 0b110100101
    table, moved_table = _push_tables(), _moved_players()
    for push in PUSHES:
        mask, forward, shift, popped_at, inserted_at = table[push.code]
        line = board & mask
        moved = (line << shift) & mask if forward else (line >> shift) & mask
        pushed = (board ^ line) | moved | (hand << inserted_at)
        expected, popped, carried = naive_push(cells, hand, list(range(49)), push)
        assert [pushed >> (CELL_BITS * cell) & CELL_MASK for cell in range(49)] == expected
        assert line >> popped_at & CELL_MASK == popped
        assert list(moved_table[push.code]) == carried, str(push)


def test_players_are_carried_by_the_table_of_their_push():
    moved = _moved_players()
    assert moved == tuple(tuple(naive_push([0] * 49, 0, list(range(49)), push)[2])
                          for push in PUSHES)
    assert moved[Push(3, RIGHT).code][27] == 21 and moved[Push(3, LEFT).code][21] == 27
    assert moved[Push(0, UP).code][0] == 42 and moved[Push(6, DOWN).code][48] == 6
    assert moved[Push(3, RIGHT).code][20] == 20                   # off the line: stays


def test_a_new_game_has_every_field_set():
    state = XmasRushState.new_game(5)
    assert state.rules == league(6) and state.deck_known is True
    assert state.end_reason() == "" and not state.is_over() and state._conn is None
    assert (state.turn, state.stale, state.score, state.pos) == (0, 0, (0, 0), (0, 48))
    assert [len(quests) for quests in state.quests] == [league(6).visible] * 2
    assert _fields(new_state(5)) == _fields(state)
    assert _fields(new_state(5, 2)) == _fields(XmasRushState.new_game(5, 2))
    assert new_state(5, 2).rules == league(2) != league(6)


def test_a_clone_copies_every_field():
    state = corridor_state(items=["BOOK 1 3 0"], quests=["BOOK 0"], level=1, remaining=(1, 1))
    state.connections()                                     # a cached _conn to copy
    state.apply((Move((1,), 22), Move((), state.pos[1])))   # seat 0 completes: the game ends
    assert state.is_over() and state.deck_known is False and state._conn is not None
    copy = state.clone()
    assert _fields(copy) == _fields(state) and copy.end_reason() == "every quest completed"
    fresh = XmasRushState.new_game(8)
    fresh.connections()
    assert _fields(fresh.clone()) == _fields(fresh) and fresh.clone().item_order is fresh.item_order


def test_both_seats_act_every_turn_and_either_can_win():
    state = XmasRushState.new_game(3)
    assert state.acting_seats() == (0, 1)
    for score, winner in (((3, 5), 1), ((5, 3), 0), ((4, 4), None), ((0, 1), 1)):
        state.score = score
        assert state.winner() == winner


def test_a_quest_is_revealed_for_the_one_seat_short_of_them():
    for seat in (0, 1):
        state = XmasRushState.new_game(9)
        full = state.quests[1 - seat]
        kept = state.quests[seat][:2]
        quests = [None, None]
        quests[seat], quests[1 - seat] = kept, full
        state.quests = tuple(quests)
        decks = state.decks
        state.apply((Push(3, RIGHT), Push(3, LEFT)))            # a stale push turn: nothing moves
        assert state.quests[seat] == kept + (decks[seat][-1],)
        assert state.decks[seat] == decks[seat][:-1]
        assert state.quests[1 - seat] == full and state.decks[1 - seat] == decks[1 - seat]


def test_seat_one_walks_and_collects_without_touching_seat_zero():
    key, book = code_of("KEY", 0), code_of("BOOK", 1)
    state = corridor_state(items=["KEY 2 2 0", "BOOK 5 3 1"], quests=["KEY 0", "BOOK 1"])
    assert state.quests == ((key,), (book,)) and state.pos == (21, 27)
    state._walk(1, (LEFT, LEFT))
    assert state.pos == (21, 25) and state.score == (0, 1)
    assert state.quests == ((key,), ()) and state.item_at(26) == 0
    assert state.item_at(16) == key
    state._walk(0, (RIGHT,))
    assert state.pos == (22, 25) and state.quests == ((key,), ()) and state.score == (0, 1)


def test_sideways_steps_need_both_tiles_open():
    """Row 3 is a corridor, every other tile a vertical straight: no sideways step off row 3,
    and none past either edge of the board (no wrap-around while walking)."""
    state = corridor_state(me=(6, 3), opponent=(0, 3))
    for seat, steps, end in ((0, (RIGHT,), 27), (1, (LEFT,), 21), (0, (LEFT, RIGHT, RIGHT), 27),
                             (1, (RIGHT, LEFT, LEFT), 21)):
        trial = state.clone()
        trial._walk(seat, steps)
        assert trial.pos[seat] == end, (seat, steps)
        assert trial.pos[1 - seat] == state.pos[1 - seat]
    inner = corridor_state(me=(3, 2), opponent=(4, 4))
    for steps in ((LEFT,), (RIGHT,)):
        trial = inner.clone()
        trial._walk(0, steps)
        trial._walk(1, steps)
        assert trial.pos == (17, 32), steps


def test_a_row_and_a_column_pushed_reset_the_stale_count():
    state = XmasRushState.new_game(12)
    state.stale = 5
    state.apply((Push(3, RIGHT), Push(2, UP)))
    assert state.stale == 0
    state.stale = 5
    state.apply((Move((), state.pos[0]), Move((), state.pos[1])))
    state.apply((Push(4, DOWN), Push(1, LEFT)))
    assert state.stale == 0


def test_distances_are_each_seats_own():
    for state in mixed_states(4):
        east, south = state.connections()
        for seat in (0, 1):
            assert state.distances(seat) == distances(east, south, state.pos[seat]) == \
                naive_distances(state, state.pos[seat])
    apart = corridor_state(me=(0, 0), opponent=(6, 6))
    assert apart.distances(0)[0] == 0 and apart.distances(1)[48] == 0
    assert apart.distances(0) != apart.distances(1)


def test_no_quests_hold_no_cells():
    state = corridor_state(items=["BOOK 2 3 0"], quests=["BOOK 1"])
    assert state.quest_cells(0) == 0 and state.quest_cells(1) == 0   # BOOK 1 is not on the board
    state = corridor_state(items=["BOOK 2 3 0"], quests=["BOOK 0"])
    assert state.quest_cells(0) == 1 << 23 and state.quest_cells(1) == 0


def _names(deck) -> list[int]:
    return [(code - 1) >> 1 for code in deck]


def test_shuffled_decks_keep_their_names_from_either_seats_view():
    for short in (0, 1):
        state = XmasRushState.new_game(19)
        decks = list(state.decks)
        decks[short] = decks[short][:5]
        state.decks = tuple(decks)
        state.shuffle_decks(random.Random(2))
        assert [len(deck) for deck in state.decks] == [len(deck) for deck in decks]
        assert sorted(_names(state.decks[short])) == sorted(_names(decks[short]))
        assert _names(state.decks[1 - short])[:5] == _names(state.decks[short])
        assert _names(state.decks[1 - short])[5:] == _names(decks[1 - short])[5:]
        assert all((code - 1) & 1 == seat for seat in (0, 1) for code in state.decks[seat])
        assert state.decks[short] != decks[short]               # seed 2 reorders these five


def test_items_are_checked_on_the_board_bits_of_each_seat():
    state = corridor_state(items=["BOOK 1 3 0", "KEY 5 3 1"], quests=["BOOK 0", "KEY 1"])
    state.pos = (22, 26)
    state.collect_items()
    assert state.score == (1, 1) and state.quests == ((), ())
    assert state.board >> (CELL_BITS * 22 + ITEM_SHIFT) & 31 == 0
