"""Xmas Rush's CodinGame protocol: input blocks, answer parsing, and input -> state for bots.

No initialization block. Each turn, from the receiver's point of view (the
receiver is player 0): ``turnType`` (0 PUSH, 1 MOVE); 7 lines of 7 tiles; my
line then the opponent's (``numPlayerCards x y handTile``); ``numItems`` then
``name x y playerId`` (``-1 -1``: on my hand tile, ``-2 -2``: on the opponent's);
``numQuests`` then ``name playerId``, my revealed quests first.
Answers: ``PUSH <0-6> <UP|RIGHT|DOWN|LEFT>`` (PUSH turns), ``MOVE d1 .. dk``
(1 to 20 steps) or ``PASS`` (MOVE turns); the whole line, at most 124 characters.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from referee.api import InvalidAction
from referee.games.xmas_rush.board import (
    CELL_BITS,
    DIRECTION_NAMES,
    ITEM_INDEX,
    ITEM_SHIFT,
    MAX_MOVE_STEPS,
    SIZE,
    item_name,
    item_owner,
    pattern_of,
    tile_from_pattern,
)
from referee.games.xmas_rush.generation import league
from referee.games.xmas_rush.rules import PUSHES, Move, Push, XmasRushState

MAX_ANSWER_CHARS = 124
_DIRECTION = {name: index for index, name in enumerate(DIRECTION_NAMES)}
_PUSH_BY_TEXT = {str(push): push for push in PUSHES}     # the 28 valid PUSH answers
_MOVE = re.compile(r"MOVE((?: (?:UP|RIGHT|DOWN|LEFT))+)")
_EXPECTED = ("expected 'PUSH <0-6> <UP|RIGHT|DOWN|LEFT>' in a PUSH turn, "
             "'MOVE <1 to 20 of UP|RIGHT|DOWN|LEFT>' or 'PASS' in a MOVE turn")


# -- state -> input lines ---------------------------------------------------------
# Everything a block is made of is a string built once here; a block is table look-ups and
# one list. The harness asks for two blocks a turn (one per seat) on a board that changed at
# most once since the last turn, so the last board's lines are kept.
_TILE_TEXT = tuple(pattern_of(tile) for tile in range(16))
_CELL_TEXT = tuple(f"{cell % SIZE} {cell // SIZE}" for cell in range(SIZE * SIZE))
_ITEM_TEXT = ("",) + tuple(item_name(code) for code in range(1, 2 * len(ITEM_INDEX) + 1))
_CELL_VALUE = (1 << CELL_BITS) - 1
_ROW_BITS = CELL_BITS * SIZE
_ROW_VALUE = (1 << _ROW_BITS) - 1
_ROW_SHIFTS = tuple(range(0, _ROW_BITS, CELL_BITS))
_ROW_ITEM_BITS = sum(_CELL_VALUE >> ITEM_SHIFT << ITEM_SHIFT << shift for shift in _ROW_SHIFTS)
assert (SIZE, CELL_BITS) == (7, 9), "_row_text spells out 7 cells of 9 bits"
_MY_HAND, _THEIR_HAND = SIZE * SIZE, SIZE * SIZE + 1       # two more places after the 49 cells


def _item_lines(seat: int) -> tuple[tuple[str, ...], ...]:
    """Per item code, per place (cell, my hand, the opponent's hand): the item's line for ``seat``."""
    places = _CELL_TEXT + ("-1 -1", "-2 -2")
    return ((),) + tuple(
        tuple(f"{_ITEM_TEXT[code]} {place} {0 if (code - 1) & 1 == seat else 1}" for place in places)
        for code in range(1, len(_ITEM_TEXT)))


_ITEM_LINES = (_item_lines(0), _item_lines(1))
_QUEST_LINES = (tuple(f"{text} 0" for text in _ITEM_TEXT), tuple(f"{text} 1" for text in _ITEM_TEXT))
_COUNT_TEXT = tuple(str(count) for count in range(len(_ITEM_TEXT)))
_PLAYER_LINES: dict[tuple[int, int, int], str] = {}   # (quests left, cell, hand tile) -> line
_CACHE_SIZE = 4096              # entries of each cache below, emptied when full
_QUEST_BLOCKS: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[str, ...]] = {}
_board_cache: tuple[int, tuple[str, ...], dict[int, int]] = (-1, (), {})
_ItemsKey = tuple[int, tuple[int, ...], tuple[int, ...]]   # (board, hands, item order)
_items_cache: tuple[_ItemsKey, list[list[str] | None]] = ((-1, (), ()), [None, None])


def _row_text(row: int) -> str:
    """The tile line of one row (``row``: its 7 cells of 9 bits, tile in each cell's low 4)."""
    text = _TILE_TEXT
    return (f"{text[row & 15]} {text[row >> 9 & 15]} {text[row >> 18 & 15]} "
            f"{text[row >> 27 & 15]} {text[row >> 36 & 15]} {text[row >> 45 & 15]} "
            f"{text[row >> 54 & 15]}")


def _board_view(board: int) -> tuple[tuple[str, ...], dict[int, int]]:
    """The 7 tile lines of ``board`` and where its items are (code -> cell).

    Both seats of a turn, and every MOVE turn after a PUSH turn, see the same board: the last
    board's view is kept (one tuple, so threads that share it read a consistent entry).
    """
    global _board_cache
    cached = _board_cache
    if cached[0] == board:
        return cached[1], cached[2]
    rows = []
    where = {}
    rest = board
    for first_cell in range(0, SIZE * SIZE, SIZE):
        row = rest & _ROW_VALUE
        rest >>= _ROW_BITS
        rows.append(_row_text(row))
        if row & _ROW_ITEM_BITS:
            for x, shift in enumerate(_ROW_SHIFTS):
                code = row >> shift & _CELL_VALUE
                if code >> ITEM_SHIFT:
                    where[code >> ITEM_SHIFT] = first_cell + x
    view = tuple(rows)
    _board_cache = (board, view, where)
    return view, where


def _player_line(state: XmasRushState, player: int) -> str:
    key = (state.remaining(player), state.pos[player], state.hands[player] & 15)
    line = _PLAYER_LINES.get(key)
    if line is None:
        line = _PLAYER_LINES[key] = f"{key[0]} {_CELL_TEXT[key[1]]} {_TILE_TEXT[key[2]]}"
    return line


def _items(state: XmasRushState, seat: int, on_board: dict[int, int]) -> list[str]:
    """The item lines ``seat`` receives; the last (board, hands, order)'s are kept per seat."""
    global _items_cache
    key = (state.board, state.hands, state.item_order)
    cached_key, per_seat = _items_cache
    if cached_key != key:
        per_seat = [None, None]
        _items_cache = (key, per_seat)
    items = per_seat[seat]
    if items is None:
        item_lines = _ITEM_LINES[seat]
        places = dict(on_board)
        for player, hand in enumerate(state.hands):
            if hand >> ITEM_SHIFT:
                places[hand >> ITEM_SHIFT] = _MY_HAND if player == seat else _THEIR_HAND
        items = per_seat[seat] = [item_lines[code][places[code]] for code in state.item_order
                                  if code in places]
    return items


def turn_lines(state: XmasRushState, seat: int) -> list[str]:
    """The input block ``seat`` receives at the current turn."""
    other = 1 - seat
    rows, on_board = _board_view(state.board)
    lines = ["1" if state.turn & 1 else "0", *rows, _player_line(state, seat),
             _player_line(state, other)]
    items = _items(state, seat, on_board)
    lines.append(_COUNT_TEXT[len(items)])
    lines += items
    quests = state.quests
    key = (quests[seat], quests[other])
    quest_lines = _QUEST_BLOCKS.get(key)
    if quest_lines is None:
        quest_lines = _quest_lines(*key)
    lines += quest_lines
    return lines


def _quest_lines(mine: tuple[int, ...], theirs: tuple[int, ...]) -> tuple[str, ...]:
    """numQuests and the quest lines, mine first (kept: quests change a few times a game)."""
    if len(_QUEST_BLOCKS) >= _CACHE_SIZE:
        _QUEST_BLOCKS.clear()
    block = _QUEST_BLOCKS[mine, theirs] = (_COUNT_TEXT[len(mine) + len(theirs)],
                                           *(_QUEST_LINES[0][code] for code in mine),
                                           *(_QUEST_LINES[1][code] for code in theirs))
    return block


# -- answer line -> action -----------------------------------------------------------
def parse_action(state: XmasRushState, seat: int, line: str) -> Push | Move:
    """The action of ``line``; InvalidAction (a bad_output fault) for anything CodinGame rejects."""
    push = _PUSH_BY_TEXT.get(line)
    if push is not None:
        if not state.is_push_turn():
            raise InvalidAction(f"{line!r} in a MOVE turn (answer MOVE ... or PASS)")
        return push
    if len(line) > MAX_ANSWER_CHARS:
        raise InvalidAction(f"answer longer than {MAX_ANSWER_CHARS} characters: {line[:40]!r}...")
    push_turn = state.is_push_turn()
    if line == "PASS" or _MOVE.fullmatch(line):
        if push_turn:
            raise InvalidAction(f"{line!r} in a PUSH turn (answer PUSH <0-6> <direction>)")
        if line == "PASS":
            return Move((), state.pos[seat])
        steps = tuple(_DIRECTION[word] for word in line.split()[1:])
        if len(steps) > MAX_MOVE_STEPS:
            raise InvalidAction(f"MOVE with {len(steps)} steps (at most {MAX_MOVE_STEPS})")
        return Move(steps, state.walk_target(seat, steps))
    raise InvalidAction(f"{_EXPECTED}, got {line!r}")


def action_text(action: Push | Move) -> str:
    return str(action)


# -- input lines -> state (for bots) -----------------------------------------------------
def read_turn_block(read_line: Callable[[], str]) -> list[str]:
    """Read exactly one turn's input block with ``read_line`` (e.g. ``bots.runtime.read_line``)."""
    lines = [read_line() for _ in range(1 + SIZE + 2)]
    lines.append(read_line())
    lines.extend(read_line() for _ in range(int(lines[-1])))
    lines.append(read_line())
    lines.extend(read_line() for _ in range(int(lines[-1])))
    return lines


def state_from_lines(lines: list[str], *, turn: int | None = None, level: int = 6,
                     stale: int = 0) -> XmasRushState:
    """The state a bot can rebuild from one input block; the receiver becomes seat 0.

    The game turn and the stale-push count are not in the input: pass your own
    counts (``turn`` defaults to the turn type, i.e. the first PUSH or MOVE turn).
    ``level`` is the league (quests per player and revealed at once). The hidden
    quest order is unknown (``deck_known`` False): both decks hold the right
    names, with what the opponent's reveals tell about ours (both players draw the
    same sequence), the rest in an arbitrary order; see ``shuffle_decks``.
    """
    turn_type = int(lines[0])
    if turn is None:
        turn = turn_type
    elif turn & 1 != turn_type:
        raise ValueError(f"turn {turn} is a {'MOVE' if turn & 1 else 'PUSH'} turn, "
                         f"the input says turnType {turn_type}")
    rules = league(level)
    board = 0
    for row in range(SIZE):
        for column, pattern in enumerate(lines[1 + row].split()):
            board |= tile_from_pattern(pattern) << (CELL_BITS * (row * SIZE + column))
    players = [lines[8].split(), lines[9].split()]
    hands = [tile_from_pattern(words[3]) for words in players]
    pos = tuple(int(words[1]) + SIZE * int(words[2]) for words in players)
    remaining = [int(words[0]) for words in players]
    count = int(lines[10])
    order = []
    for text in lines[11:11 + count]:
        name, x, y, owner = text.split()
        code = 1 + 2 * ITEM_INDEX[name] + int(owner)
        order.append(code)
        if x == "-1":
            hands[0] |= code << ITEM_SHIFT
        elif x == "-2":
            hands[1] |= code << ITEM_SHIFT
        else:
            board |= code << (CELL_BITS * (int(x) + SIZE * int(y)) + ITEM_SHIFT)
    quests: tuple[list[int], list[int]] = ([], [])
    for text in lines[12 + count:]:
        name, owner = text.split()
        quests[int(owner)].append(1 + 2 * ITEM_INDEX[name] + int(owner))
    state = XmasRushState.__new__(XmasRushState)
    state.board = board
    state.hands = tuple(hands)
    state.pos = pos
    state.quests = (tuple(quests[0]), tuple(quests[1]))
    state.score = tuple(max(rules.quests - left, 0) for left in remaining)
    state.decks = _guess_decks(order, state.quests, state.score)
    state.turn = turn
    state.stale = stale
    state.rules = rules
    state.item_order = tuple(order)
    state.deck_known = False
    state._conn = None
    state._reason = ""
    return state


def _guess_decks(items: list[int], quests: tuple[tuple[int, ...], ...], score: tuple[int, ...]
                 ) -> tuple[tuple[int, ...], ...]:
    """Hidden quests per seat as decks (next reveal last) that share one draw order."""
    hidden = []
    for seat in (0, 1):
        visible = {(code - 1) >> 1 for code in quests[seat]}
        hidden.append({(code - 1) >> 1 for code in items if item_owner(code) == seat} - visible)
    drawn = [score[seat] + len(quests[seat]) for seat in (0, 1)]
    leader = 0 if drawn[0] >= drawn[1] else 1
    trailer = 1 - leader
    common = sorted(hidden[leader])
    if not hidden[leader] <= hidden[trailer]:          # not one sequence: keep each seat's own names
        return tuple(tuple(1 + 2 * name + seat for name in sorted(hidden[seat])) for seat in (0, 1))
    ahead = hidden[trailer] - hidden[leader]           # what the trailer draws next, the leader drew
    shown = [(code - 1) >> 1 for code in quests[leader] if (code - 1) >> 1 in ahead]
    reveal_order = sorted(ahead - set(shown)) + shown
    names = {leader: common, trailer: common + reveal_order[::-1]}
    return tuple(tuple(1 + 2 * name + seat for name in names[seat]) for seat in (0, 1))
