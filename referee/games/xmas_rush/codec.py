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
from typing import Callable

from referee.api import InvalidAction
from referee.games.xmas_rush.board import (CELL_BITS, DIRECTION_NAMES, ITEM_INDEX, ITEM_SHIFT,
                                           MAX_MOVE_STEPS, SIZE, item_name, item_owner,
                                           pattern_of, tile_from_pattern)
from referee.games.xmas_rush.generation import league
from referee.games.xmas_rush.rules import HAND, Move, Push, XmasRushState

MAX_ANSWER_CHARS = 124
_DIRECTION = {name: index for index, name in enumerate(DIRECTION_NAMES)}
_PUSH = re.compile(r"PUSH ([0-6]) (UP|RIGHT|DOWN|LEFT)")
_MOVE = re.compile(r"MOVE((?: (?:UP|RIGHT|DOWN|LEFT))+)")
_EXPECTED = ("expected 'PUSH <0-6> <UP|RIGHT|DOWN|LEFT>' in a PUSH turn, "
             "'MOVE <1 to 20 of UP|RIGHT|DOWN|LEFT>' or 'PASS' in a MOVE turn")


# -- state -> input lines ---------------------------------------------------------
_TILE_TEXT = tuple(pattern_of(tile) for tile in range(16))
_ROW_SHIFTS = tuple(tuple(CELL_BITS * (y * SIZE + x) for x in range(SIZE)) for y in range(SIZE))
_CELL_TEXT = tuple(f"{cell % SIZE} {cell // SIZE}" for cell in range(SIZE * SIZE))
_ITEM_TEXT = ("",) + tuple(item_name(code) for code in range(1, 2 * len(ITEM_INDEX) + 1))
_CELL_VALUE = (1 << CELL_BITS) - 1
_board_cache: tuple[int, tuple[str, ...], dict[int, int]] = (-1, (), {})


def _board_view(board: int) -> tuple[tuple[str, ...], dict[int, int]]:
    """The 7 tile lines of ``board`` and where its items are (code -> cell), in one pass.

    Both seats of a turn, and every MOVE turn after a PUSH turn, see the same board: the last
    board's view is kept (one tuple, so threads that share it read a consistent entry).
    """
    global _board_cache
    cached = _board_cache
    if cached[0] == board:
        return cached[1], cached[2]
    tile_text, cell_value = _TILE_TEXT, _CELL_VALUE
    rows = []
    where = {}
    cell = 0
    for shifts in _ROW_SHIFTS:
        values = [board >> shift & cell_value for shift in shifts]
        rows.append(" ".join([tile_text[value & 15] for value in values]))
        for value in values:
            if value >> ITEM_SHIFT:
                where[value >> ITEM_SHIFT] = cell
            cell += 1
    view = tuple(rows)
    _board_cache = (board, view, where)
    return view, where


def turn_lines(state: XmasRushState, seat: int) -> list[str]:
    """The input block ``seat`` receives at the current turn."""
    other = 1 - seat
    rows, on_board = _board_view(state.board)
    lines = [str(state.turn & 1), *rows]
    hands = state.hands
    for player in (seat, other):
        cell = state.pos[player]
        lines.append(f"{state.remaining(player)} {_CELL_TEXT[cell]} {_TILE_TEXT[hands[player] & 15]}")
    on_hand = {hands[player] >> ITEM_SHIFT: player for player in (0, 1) if hands[player] >> ITEM_SHIFT}
    items = []
    for code in state.item_order:
        if code in on_board:
            place = _CELL_TEXT[on_board[code]]
        elif code in on_hand:
            place = "-1 -1" if on_hand[code] == seat else "-2 -2"
        else:
            continue
        items.append(f"{_ITEM_TEXT[code]} {place} {0 if (code - 1) & 1 == seat else 1}")
    lines.append(str(len(items)))
    lines += items
    quests = state.quests
    lines.append(str(len(quests[seat]) + len(quests[other])))
    lines += [f"{_ITEM_TEXT[code]} 0" for code in quests[seat]]
    lines += [f"{_ITEM_TEXT[code]} 1" for code in quests[other]]
    return lines


# -- answer line -> action -----------------------------------------------------------
def parse_action(state: XmasRushState, seat: int, line: str) -> Push | Move:
    """The action of ``line``; InvalidAction (a bad_output fault) for anything CodinGame rejects."""
    if len(line) > MAX_ANSWER_CHARS:
        raise InvalidAction(f"answer longer than {MAX_ANSWER_CHARS} characters: {line[:40]!r}...")
    push_turn = state.is_push_turn()
    match = _PUSH.fullmatch(line)
    if match:
        if not push_turn:
            raise InvalidAction(f"{line!r} in a MOVE turn (answer MOVE ... or PASS)")
        return Push(int(match.group(1)), _DIRECTION[match.group(2)])
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
    for y in range(SIZE):
        for x, pattern in enumerate(lines[1 + y].split()):
            board |= tile_from_pattern(pattern) << (CELL_BITS * (y * SIZE + x))
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


def _guess_decks(items: list[int], quests, score) -> tuple[tuple[int, ...], tuple[int, ...]]:
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
