"""xmas_rush protocol: golden input blocks for both seats, every invalid answer form, input -> state."""
from __future__ import annotations

import random

import pytest

from referee.api import InvalidAction
from referee.games import load_game
from referee.games.xmas_rush import codec
from referee.games.xmas_rush.board import (
    CELL_BITS,
    DOWN,
    ITEM_INDEX,
    ITEM_SHIFT,
    LEFT,
    RIGHT,
    UP,
    item_name,
    item_owner,
)
from referee.games.xmas_rush.generation import league
from referee.games.xmas_rush.rules import Move, Push, XmasRushState

GAME = load_game("xmas_rush")


@pytest.fixture(autouse=True)
def cold_codec_caches():
    """Each test starts with the codec's caches empty, so its blocks come from the code that
    builds the lines as well as from the look-ups (a warm cache left by other tests hides the
    former)."""
    codec._PLAYER_LINES.clear()
    codec._QUEST_BLOCKS.clear()
    codec._board_cache = (-1, (), {})
    codec._items_cache = ((), [None, None])

# seed 1, league 6, seat 0; item lines in the final referee's order (df8eb80: pairs appended,
# then one shuffle), printed by its own GameBoard on a JVM
SEED_1_SEAT_0 = """0
0110 0011 1101 1001 0011 1110 0101
0111 1001 1010 1010 1110 1001 1010
0101 1101 0011 1010 1001 1001 1100
1010 0110 0101 1111 0101 1001 1010
0011 0110 0110 1010 1100 0111 0101
1010 0110 1011 1010 1010 0110 1101
0101 1011 1100 0110 0111 1100 1001
12 0 0 1010
12 6 6 1010
24
SWORD 0 3 1
ARROW 6 0 1
SCROLL 5 4 0
SCROLL 1 2 1
SWORD 6 3 0
BOOK 1 1 1
SHIELD 6 1 1
KEY 1 0 0
CANE 2 1 0
ARROW 0 6 0
POTION 1 6 1
SHIELD 0 5 0
CANE 4 5 1
BOOK 5 5 0
KEY 5 6 1
FISH 3 5 1
MASK 4 3 0
DIAMOND 4 4 1
DIAMOND 2 2 0
CANDY 0 4 1
POTION 5 0 0
MASK 2 3 1
FISH 3 1 0
CANDY 6 2 0
6
ARROW 0
DIAMOND 0
KEY 0
ARROW 1
DIAMOND 1
KEY 1""".splitlines()


def flipped(block: list[str]) -> list[str]:
    """The same block from the other seat: player lines swapped, ids 0 <-> 1, hands -1 <-> -2."""
    count = int(block[10])
    hands = {"-1": "-2", "-2": "-1"}
    items = []
    for line in block[11:11 + count]:
        name, x, y, owner = line.split()
        items.append(f"{name} {hands.get(x, x)} {hands.get(y, y)} {1 - int(owner)}")
    quests = block[12 + count:]
    mine = sum(1 for line in quests if line.endswith(" 0"))
    quests = [line[:-1] + "0" for line in quests[mine:]] + [line[:-1] + "1" for line in quests[:mine]]
    return block[:8] + [block[9], block[8]] + [block[10]] + items + [block[11 + count]] + quests


def test_golden_first_block_for_both_seats():
    state = GAME.new_state(1, GAME.parse_options({}))
    assert GAME.init_lines(state, 0) == []                 # no initialization block
    assert GAME.turn_lines(state, 0) == SEED_1_SEAT_0
    assert GAME.turn_lines(state, 1) == flipped(SEED_1_SEAT_0)


@pytest.mark.parametrize("seat", [0, 1])
def test_item_line_tables(seat):
    """Built once at import: per item code, its line at each of the 49 cells and both hands."""
    table = codec._item_lines(seat)
    sword_of_seat_1 = 1 + 2 * ITEM_INDEX["SWORD"] + 1
    assert table[sword_of_seat_1][21] == ("SWORD 0 3 1" if seat == 0 else "SWORD 0 3 0")
    assert table[0] == () and len(table) == 1 + 2 * len(ITEM_INDEX)
    for code in range(1, len(table)):
        owner = 0 if item_owner(code) == seat else 1
        places = [f"{cell % 7} {cell // 7}" for cell in range(49)] + ["-1 -1", "-2 -2"]
        assert table[code] == tuple(f"{item_name(code)} {place} {owner}" for place in places)


def test_hand_items_are_minus_one_for_me_and_minus_two_for_the_opponent():
    state = GAME.new_state(1, GAME.parse_options({}))
    state.apply((Push(0, RIGHT), Push(3, UP)))               # FISH (3,1) rides column 3 up...
    state.apply((Move((), 0), Move((), 48)))
    state.apply((Push(6, LEFT), Push(3, UP)))               # ...and pops onto seat 1's hand
    lines = [GAME.turn_lines(state, seat) for seat in (0, 1)]
    assert "FISH -2 -2 0" in lines[0] and "FISH -1 -1 1" in lines[1]
    assert lines[1] == flipped(lines[0])


def test_every_later_block_is_the_perspective_swap_and_round_trips():
    rng = random.Random(2)
    state = XmasRushState.new_game(-2634497367583446500)
    while not state.is_over():
        blocks = [GAME.turn_lines(state, seat) for seat in (0, 1)]
        for seat in (0, 1):
            assert codec.turn_lines(codec.state_from_lines(blocks[seat], turn=state.turn), 0) == blocks[seat]
        assert blocks[1] == flipped(blocks[0])
        state.apply([rng.choice(state.legal_actions(seat)) for seat in (0, 1)])


# -- answers ---------------------------------------------------------------------------------
PUSH_TURN_INVALID = ["MOVE UP", "PASS", "push 1 UP", "PUSH 1 up", "Push 1 UP", "PUSH 7 UP", "PUSH -1 UP",
                     "PUSH 10 UP", "PUSH 1", "PUSH UP 1", "PUSH 1 UP LEFT", "PUSH  1 UP", " PUSH 1 UP",
                     "PUSH 1 UP ", "PUSH 1 UP\t", "PUSH\t1 UP", "PUSH 1 NORTH", "PUSH 1 U", "", " ",
                     "PUSH 1 UP PUSH 2 UP", "PUSH 1 UP;", "MOVE", "PUSH 1 UP hello", "PUSH 1,UP"]
MOVE_TURN_INVALID = ["PUSH 1 UP", "MOVE", "MOVE ", "move UP", "MOVE up", "MOVE UP ", " MOVE UP", "MOVE  UP",
                     "MOVE UP  LEFT", "MOVE UP,LEFT", "MOVE UPLEFT", "PASS ", "pass", "PASS UP", "MOVE PASS",
                     "MOVE 3 UP", "MOVE" + " UP" * 21, "MOVE" + " RIGHT" * 21, "MOVE UP\tLEFT", ""]


@pytest.mark.parametrize("line", PUSH_TURN_INVALID)
def test_invalid_answers_in_a_push_turn(line):
    state = GAME.new_state(1, {"league": 6})
    with pytest.raises(InvalidAction):
        GAME.parse_action(state, 0, line)


@pytest.mark.parametrize("line", MOVE_TURN_INVALID)
def test_invalid_answers_in_a_move_turn(line):
    state = GAME.new_state(1, {"league": 6})
    state.apply((Push(1, RIGHT), Push(5, LEFT)))
    with pytest.raises(InvalidAction):
        GAME.parse_action(state, 1, line)


def test_longest_answers():
    state = GAME.new_state(1, {"league": 6})
    assert GAME.parse_action(state, 0, "PUSH 6 LEFT") == Push(6, LEFT)
    assert GAME.parse_action(state, 0, "PUSH 0 DOWN") == Push(0, DOWN)
    state.apply((Push(1, RIGHT), Push(5, LEFT)))
    twenty = "MOVE" + " RIGHT" * 20
    assert len(twenty) == 124
    move = GAME.parse_action(state, 0, twenty)
    assert move.steps == (RIGHT,) * 20 and str(move) == twenty
    with pytest.raises(InvalidAction, match="124"):
        GAME.parse_action(state, 0, twenty + " ")
    assert GAME.parse_action(state, 0, "PASS") == Move((), state.pos[0])


EXPECTED = ("expected 'PUSH <0-6> <UP|RIGHT|DOWN|LEFT>' in a PUSH turn, "
            "'MOVE <1 to 20 of UP|RIGHT|DOWN|LEFT>' or 'PASS' in a MOVE turn, got ")


@pytest.mark.parametrize("move_turn, line, reason", [
    (False, "MOVE UP", "'MOVE UP' in a PUSH turn (answer PUSH <0-6> <direction>)"),
    (False, "PASS", "'PASS' in a PUSH turn (answer PUSH <0-6> <direction>)"),
    (False, "PUSH 7 UP", EXPECTED + "'PUSH 7 UP'"),
    (False, "", EXPECTED + "''"),
    (True, "PUSH 1 UP", "'PUSH 1 UP' in a MOVE turn (answer MOVE ... or PASS)"),
    (True, "pass", EXPECTED + "'pass'"),
    (True, "MOVE" + " UP" * 21, "MOVE with 21 steps (at most 20)"),
    (True, "MOVE" + " UP" * 41,
     "answer longer than 124 characters: 'MOVE UP UP UP UP UP UP UP UP UP UP UP UP'..."),
])
def test_refusals_say_exactly_why(move_turn, line, reason):
    state = GAME.new_state(1, {"league": 6})
    if move_turn:
        state.apply((Push(1, RIGHT), Push(5, LEFT)))
    with pytest.raises(InvalidAction) as refused:
        GAME.parse_action(state, 0, line)
    assert str(refused.value) == reason


def test_answers_round_trip_through_their_wire_form():
    state = GAME.new_state(3, {"league": 6})
    for push in state.legal_actions(0):
        assert GAME.parse_action(state, 0, GAME.action_text(push)) == push
    state.apply((Push(2, RIGHT), Push(4, LEFT)))
    for seat in (0, 1):
        for move in state.legal_actions(seat):
            assert GAME.parse_action(state, seat, str(move)) == move


# -- input -> state -----------------------------------------------------------------------------
def test_read_turn_block_reads_exactly_one_block():
    lines = iter(SEED_1_SEAT_0 + ["next"])
    assert codec.read_turn_block(lambda: next(lines)) == SEED_1_SEAT_0
    assert next(lines) == "next"


def test_state_from_lines_is_the_game_as_the_receiver_sees_it():
    state = GAME.new_state(1, {"league": 6})
    seen = codec.state_from_lines(GAME.turn_lines(state, 1))
    assert seen.pos == (48, 0) and seen.turn == 0 and not seen.deck_known
    def other_owner(codes):
        return tuple(((code - 1) ^ 1) + 1 for code in codes)
    assert [seen.tile(cell) for cell in range(49)] == [state.tile(cell) for cell in range(49)]
    assert seen.quests == (other_owner(state.quests[1]), other_owner(state.quests[0]))
    assert seen.item_cells() == {((code - 1) ^ 1) + 1: cell for code, cell in state.item_cells().items()}
    assert sorted(seen.decks[0]) == sorted(other_owner(state.decks[1]))
    with pytest.raises(ValueError):
        codec.state_from_lines(GAME.turn_lines(state, 0), turn=1)


def test_state_from_lines_defaults_and_the_turn_it_is_told():
    state = GAME.new_state(1, {"league": 6})
    push_block = GAME.turn_lines(state, 0)
    seen = codec.state_from_lines(push_block)
    assert seen.rules == league(6) and seen.stale == 0 and seen.turn == 0
    assert seen.deck_known is False and seen.end_reason() == "" and not seen.is_over()
    told = codec.state_from_lines(push_block, turn=8, level=3, stale=2)
    assert told.rules == league(3) and told.stale == 2 and told.turn == 8
    state.apply((Push(1, RIGHT), Push(5, LEFT)))
    move_block = GAME.turn_lines(state, 0)
    assert codec.state_from_lines(move_block).turn == 1
    for block, turn, reason in (
            (push_block, 1, "turn 1 is a MOVE turn, the input says turnType 0"),
            (push_block, 3, "turn 3 is a MOVE turn, the input says turnType 0"),
            (move_block, 2, "turn 2 is a PUSH turn, the input says turnType 1")):
        with pytest.raises(ValueError) as refused:
            codec.state_from_lines(block, turn=turn)
        assert str(refused.value) == reason


def complete_quests(state: XmasRushState, seat: int, codes: list[int]) -> None:
    """``seat`` collects these revealed quests in this order (each reveal draws the next one)."""
    for code in codes:
        assert code in state.quests[seat]
        state._collect(seat, code, CELL_BITS * state.item_cells()[code] + ITEM_SHIFT)
        state._reveal(state.rules.visible)


def test_hidden_quests_of_both_seats_from_the_leaders_and_the_trailers_view():
    state = GAME.new_state(4, {"league": 6})
    # the names in draw order (both seats draw the same sequence)
    draws = [(code - 1) >> 1 for code in state.quests[0] + state.decks[0][::-1]]
    def code(name, seat):
        return 1 + 2 * name + seat
    # seat 0 collects its first five, out of order; seat 1 none: seat 0 shows draws 5-7, seat 1 0-2
    complete_quests(state, 0, [code(draws[number], 0) for number in (1, 0, 3, 2, 4)])
    assert state.quests == (tuple(code(name, 0) for name in draws[5:8]),
                            tuple(code(name, 1) for name in draws[0:3]))
    unknown = sorted(draws[8:])                            # drawn by neither: order unknown
    # the trailer draws next the two the leader collected unseen (order unknown), then the three
    # the leader shows, in its order; a deck's next reveal is last
    trailer_deck = unknown + draws[7:4:-1] + sorted(draws[3:5], reverse=True)
    assert trailer_deck != unknown + sorted(draws[3:8], reverse=True)
    leader_view = codec.state_from_lines(GAME.turn_lines(state, 0))
    assert leader_view.decks == (tuple(code(name, 0) for name in unknown),
                                 tuple(code(name, 1) for name in trailer_deck))
    trailer_view = codec.state_from_lines(GAME.turn_lines(state, 1))
    assert trailer_view.decks == (tuple(code(name, 0) for name in trailer_deck),
                                  tuple(code(name, 1) for name in unknown))


def test_hidden_quests_that_are_not_one_sequence_keep_each_seats_own_names():
    """A hand-made block whose seats miss different items: each deck is its own names, sorted."""
    state = GAME.new_state(4, {"league": 6})
    draws = [(code - 1) >> 1 for code in state.quests[0] + state.decks[0][::-1]]
    cells = state.item_cells()
    for name, seat in ((draws[5], 0), (draws[6], 1)):
        item = 1 + 2 * name + seat
        state.board ^= item << (CELL_BITS * cells[item] + ITEM_SHIFT)
    seen = codec.state_from_lines(GAME.turn_lines(state, 0))
    assert seen.decks == (tuple(1 + 2 * name for name in sorted(set(draws[3:]) - {draws[5]})),
                          tuple(2 + 2 * name for name in sorted(set(draws[3:]) - {draws[6]})))


def test_hidden_quests_follow_what_the_leader_already_drew():
    state = GAME.new_state(4, {"league": 6})
    sequence = [(code - 1) >> 1 for code in state.quests[0] + state.decks[0][::-1]]   # draw order
    for code in state.quests[0][:2]:                       # seat 0 completes its first two quests
        cell = state.item_cells()[code]
        state.board &= ~(31 << (9 * cell + 4))
    state.quests, state.score = ((state.quests[0][2],), state.quests[1]), (2, 0)
    state._reveal(3)
    assert [(code - 1) >> 1 for code in state.quests[0]] == sequence[2:5]
    seen = codec.state_from_lines(GAME.turn_lines(state, 1))   # the trailer's view
    names = [[(code - 1) >> 1 for code in deck] for deck in seen.decks]
    assert names[0][::-1][:2] == sequence[3:5]             # its next two draws are known
    assert names[0][:len(names[1])] == names[1]            # the rest: one order for both decks
    assert sorted(names[1]) == sorted(sequence[5:])


def _plain_turn_lines(state: XmasRushState, seat: int) -> list[str]:
    """The input block built the slow, obvious way: cell by cell, items by a full scan."""
    from referee.games.xmas_rush.board import CELL_BITS, SIZE, item_name, item_owner, pattern_of
    from referee.games.xmas_rush.rules import HAND
    other = 1 - seat
    lines = [str(state.turn & 1)]
    for y in range(SIZE):
        lines.append(" ".join(pattern_of(state.board >> (CELL_BITS * (y * SIZE + x)) & 15)
                              for x in range(SIZE)))
    for player in (seat, other):
        cell = state.pos[player]
        lines.append(f"{state.remaining(player)} {cell % SIZE} {cell // SIZE} "
                     f"{pattern_of(state.hands[player] & 15)}")
    where = state.item_cells()
    present = [code for code in state.item_order if code in where]
    lines.append(str(len(present)))
    for code in present:
        cell = where[code]
        place = ("-1 -1" if cell == HAND[seat] else "-2 -2" if cell == HAND[other]
                 else f"{cell % SIZE} {cell // SIZE}")
        lines.append(f"{item_name(code)} {place} {0 if item_owner(code) == seat else 1}")
    lines.append(str(len(state.quests[seat]) + len(state.quests[other])))
    for player, label in ((seat, 0), (other, 1)):
        lines.extend(f"{item_name(code)} {label}" for code in state.quests[player])
    return lines


@pytest.mark.parametrize("level", [1, 3, 6])
def test_the_fast_input_block_equals_the_plain_one_all_game_long(level):
    """turn_lines keeps the last board's lines and items: both seats, every turn, whole games."""
    for seed in range(4):
        state, rng = XmasRushState.new_game(seed * 7919 - 3, level), random.Random(seed)
        while not state.is_over():
            for seat in (1, 0, 1):
                assert codec.turn_lines(state, seat) == _plain_turn_lines(state, seat), state.turn
            state.apply([rng.choice(state.legal_actions(0)), rng.choice(state.legal_actions(1))])
