"""Xmas Rush rules (CodinGame, December 2018; the post-contest multiplayer game). Stdlib only.

State API for search code
-------------------------
``XmasRushState`` (``__slots__``, immutable fields only, so ``clone()`` copies references):

- ``turn``: game turns played (0-based; even = PUSH turn, odd = MOVE turn); ``is_push_turn()``.
- ``acting_seats()`` -> ``(0, 1)``; both act every turn (simultaneous).
- ``legal_actions(seat)``: PUSH turns: the 28 ``Push(line, direction)`` (always all legal);
  MOVE turns: ``PASS`` (``Move((), cell)``) plus one ``Move(steps, target)`` per cell
  reachable within 20 steps, each path picking up on the way as many of the seat's revealed
  quest items as the 20 steps allow (``board.plan_moves``); the start cell is a target too
  when a round trip picks something up.
- ``apply((action0, action1))``: one game turn, exactly as the referee plays it (item check
  after the input, conflicts, row before column, wrap-around, step-by-step moves, reveals).
- ``is_over()``, ``scores()`` (quests completed per seat), ``end_reason()``, ``winner()``.
- Actions are NamedTuples: ``str(action)`` is the wire form (``PUSH 3 RIGHT``, ``MOVE UP LEFT``,
  ``PASS``); ``Push.code`` (0..27) indexes per-push tables (``PUSH_TABLE``, ``MOVED``: where a
  push carries a player). ``push_line(seat, push)`` applies one push alone (no opponent, no turn
  change) and ``collect_items()`` is the referee's item check: the primitives of a one-ply search.
- Board: ``board`` is one int, cell ``c = y * 7 + x`` at bits ``9c..9c+8`` (tile bits 0-3:
  UP 1, RIGHT 2, DOWN 4, LEFT 8; item code in bits 4-8); ``tile(cell)``, ``item_at(cell)``.
  ``hands[seat]`` is a nine-bit cell value (tile and item). ``pos[seat]`` is a cell.
- Items: code ``1 + 2 * name_index + owner`` (``board.item_name``/``item_owner``).
  ``item_cells()`` -> {code: cell, or ``HAND[seat]`` (-1: seat 0's hand, -2: seat 1's)}.
  ``quests[seat]``: revealed quest item codes; ``quest_cells(seat)``: mask of the cells holding
  them (``board.item_mask(board, codes)`` for any codes); ``score``, ``remaining(seat)``.
- Paths: ``connections()`` -> (east, south) masks (cached per board); ``reachable(seat)`` ->
  cell mask; ``distances(seat)`` -> 49 step counts (-1 unreachable); ``walk_target(seat, steps)``;
  see ``board`` for ``layers``, ``path_to``, ``plan_moves``, ``manhattan``, ``cells_of``.
  A cheap MOVE for playouts: pick a cell with ``0 < dist[cell] <= 20`` (``dist =
  distances(seat)``), build ``Move(tuple(path_to(east, south, dist, cell)), cell)`` for it alone.
- Speed (``python -m tests.perf.xmas_rush``, per CPU second on CPython 3.11): push_line
  ~1.1M, clone ~2.6M, reachability of a fresh board ~290k, MOVE-turn legal_actions ~34k.
- Hidden information: ``decks[seat]`` (next reveal last). A state rebuilt from a bot's input
  has ``deck_known`` False: ``shuffle_decks(rng)`` draws one consistent order (determinization).
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple

from referee.games.xmas_rush.board import (
    CELL_BITS,
    CELL_MASK,
    CELLS,
    DELTA,
    DIRECTION_NAMES,
    DOWN,
    ITEM_SHIFT,
    LEFT,
    MAX_MOVE_STEPS,
    RIGHT,
    SIZE,
    TILE_MASK,
    UP,
    connections,
    distances,
    item_mask,
    plan_moves,
    reachable,
)
from referee.games.xmas_rush.generation import BASES, League, generate, league

MAX_GAME_TURNS = 150
MAX_STALE_PUSH_TURNS = 10
HAND = (-1, -2)                 # where an item on seat 0's / seat 1's hand tile is (absolute)


class Push(NamedTuple):
    line: int                   # a row (y) for LEFT/RIGHT, a column (x) for UP/DOWN
    direction: int              # board.UP, RIGHT, DOWN, LEFT

    @property
    def code(self) -> int:
        return self.direction * SIZE + self.line

    def __str__(self) -> str:
        return f"PUSH {self.line} {DIRECTION_NAMES[self.direction]}"


class Move(NamedTuple):
    steps: tuple[int, ...]      # directions; empty = PASS
    target: int                 # the cell where the rules leave the player

    def __str__(self) -> str:
        if not self.steps:
            return "PASS"
        return "MOVE " + " ".join(DIRECTION_NAMES[step] for step in self.steps)


PUSHES = tuple(Push(code % SIZE, code // SIZE) for code in range(4 * SIZE))


def _push_tables() -> tuple[tuple[int, bool, int, int, int], ...]:
    """Per push code: (line mask, shift towards higher bits?, shift, popped-cell shift, insert shift)."""
    tables = []
    row_bits = (1 << (CELL_BITS * SIZE)) - 1
    for code in range(4 * SIZE):
        direction, line = divmod(code, SIZE)
        if direction in (LEFT, RIGHT):
            cells = [line * SIZE + x for x in range(SIZE)]
            mask = row_bits << (CELL_BITS * SIZE * line)
            shift = CELL_BITS
        else:
            cells = [y * SIZE + line for y in range(SIZE)]
            mask = sum(CELL_MASK << (CELL_BITS * cell) for cell in cells)
            shift = CELL_BITS * SIZE
        forward = direction in (RIGHT, DOWN)
        popped, inserted = (cells[-1], cells[0]) if forward else (cells[0], cells[-1])
        tables.append((mask, forward, shift, CELL_BITS * popped, CELL_BITS * inserted))
    return tuple(tables)


def _moved_players() -> tuple[tuple[int, ...], ...]:
    """Per push code: the cell each of the 49 cells' occupant is carried to (wrap-around)."""
    tables = []
    for code in range(4 * SIZE):
        direction, line = divmod(code, SIZE)
        moved = []
        for cell in range(CELLS):
            x, y = cell % SIZE, cell // SIZE
            if direction in (LEFT, RIGHT) and y == line:
                x = (x + (1 if direction == RIGHT else -1)) % SIZE
            elif direction in (UP, DOWN) and x == line:
                y = (y + (1 if direction == DOWN else -1)) % SIZE
            moved.append(y * SIZE + x)
        tables.append(tuple(moved))
    return tuple(tables)


PUSH_TABLE = _push_tables()
MOVED = _moved_players()


class XmasRushState:
    __slots__ = ("board", "hands", "pos", "quests", "decks", "score", "turn", "stale",
                 "rules", "item_order", "deck_known", "_conn", "_reason")
    # made by new_game / clone / the codec's parse, which set every slot (no __init__: a clone
    # copies the slots straight, the fastest way)
    board: int                                      # 49 cells of CELL_BITS: tile and item
    hands: tuple[int, ...]                          # per seat (two): its hand tile
    pos: tuple[int, ...]                            # per seat: its cell
    quests: tuple[tuple[int, ...], ...]             # per seat: its revealed quest items
    decks: tuple[tuple[int, ...], ...]              # per seat: its hidden ones, next reveal last
    score: tuple[int, ...]                          # per seat: quests done
    turn: int
    stale: int                                      # push turns in a row that changed nothing
    rules: League
    item_order: tuple[int, ...]
    deck_known: bool
    _conn: tuple[int, int] | None                   # (east, south) masks, None once pushed
    _reason: str                                    # why the game ended; "" while it goes on

    # -- construction ------------------------------------------------------------
    @classmethod
    def new_game(cls, seed: int, level: int = 6) -> XmasRushState:
        """The start CodinGame's referee plays for ``seed`` in league ``level``."""
        rules = league(level)
        setup = generate(seed, rules)
        state = cls.__new__(cls)
        state.board = setup.board()
        state.hands = setup.hands
        state.pos = BASES
        deck_codes = tuple(setup.deck)
        state.decks = tuple(tuple(1 + 2 * name + seat for name in deck_codes) for seat in (0, 1))
        state.quests = ((), ())
        state.score = (0, 0)
        state.turn = 0
        state.stale = 0
        state.rules = rules
        state.item_order = setup.item_order
        state.deck_known = True
        state._conn = None
        state._reason = ""
        state._start_turn()
        return state

    def clone(self) -> XmasRushState:
        other = XmasRushState.__new__(XmasRushState)
        other.board = self.board
        other.hands = self.hands
        other.pos = self.pos
        other.quests = self.quests
        other.decks = self.decks
        other.score = self.score
        other.turn = self.turn
        other.stale = self.stale
        other.rules = self.rules
        other.item_order = self.item_order
        other.deck_known = self.deck_known
        other._conn = self._conn
        other._reason = self._reason
        return other

    # -- the State contract --------------------------------------------------------
    def acting_seats(self) -> tuple[int, int]:
        return (0, 1)

    def is_push_turn(self) -> bool:
        return not self.turn & 1

    def legal_actions(self, seat: int) -> list[Any]:
        if not self.turn & 1:
            return list(PUSHES)
        return self.move_actions(seat)

    def move_actions(self, seat: int) -> list[Move]:
        east, south = self.connections()
        start = self.pos[seat]
        actions = [Move((), start)]
        for cell, (steps, _) in plan_moves(east, south, start, self.quest_cells(seat)).items():
            if steps:
                actions.append(Move(steps, cell))
        return actions

    def apply(self, actions: Sequence[Any]) -> None:
        """One game turn: the item check after the input was sent, both actions, the next turn's start."""
        self.collect_items()
        first, second = actions
        if not self.turn & 1:
            self._push_turn(first, second)
        else:
            self._walk(0, first.steps)
            self._walk(1, second.steps)
        self.turn += 1
        self._start_turn()

    def is_over(self) -> bool:
        return bool(self._reason)

    def scores(self) -> tuple[int, ...]:
        return self.score

    def end_reason(self) -> str:
        return self._reason

    def winner(self) -> int | None:
        """The seat with more quests done, None for a tie (meaningful once the game is over)."""
        first, second = self.score
        return None if first == second else (0 if first > second else 1)

    # -- turn structure -------------------------------------------------------------
    def _start_turn(self) -> None:
        """A game turn's start: end conditions, then the quest reveal."""
        quests = self.rules.quests
        if self.turn >= MAX_GAME_TURNS:
            self._reason = f"{MAX_GAME_TURNS} game turns played"
        elif self.stale >= MAX_STALE_PUSH_TURNS:
            self._reason = f"{MAX_STALE_PUSH_TURNS} push turns in a row changed nothing"
        elif quests in self.score:
            both = self.score[0] == self.score[1]
            self._reason = "both completed every quest" if both else "every quest completed"
        else:
            visible = self.rules.visible
            if len(self.quests[0]) < visible or len(self.quests[1]) < visible:
                self._reveal(visible)

    def _reveal(self, visible: int) -> None:
        quests, decks = list(self.quests), list(self.decks)
        for seat in (0, 1):
            count = min(visible - len(quests[seat]), len(decks[seat]))
            if count > 0:
                drawn = decks[seat][len(decks[seat]) - count:]
                quests[seat] = quests[seat] + drawn[::-1]
                decks[seat] = decks[seat][:len(decks[seat]) - count]
        self.quests, self.decks = tuple(quests), tuple(decks)

    def collect_items(self) -> None:
        """The referee's ``checkForFinishedItems``: collect a revealed quest item under a player."""
        board = self.board
        for seat in (0, 1):
            shift = CELL_BITS * self.pos[seat] + ITEM_SHIFT
            code = board >> shift & 31
            if code and code in self.quests[seat]:
                self._collect(seat, code, shift)
                board = self.board

    def _collect(self, seat: int, code: int, shift: int) -> None:
        self.board ^= code << shift
        mine = tuple(quest for quest in self.quests[seat] if quest != code)
        self.quests = (mine, self.quests[1]) if seat == 0 else (self.quests[0], mine)
        self.score = (self.score[0] + 1, self.score[1]) if seat == 0 else \
            (self.score[0], self.score[1] + 1)

    def _push_turn(self, first: Push, second: Push) -> None:
        first_row, second_row = first.direction & 1, second.direction & 1   # LEFT/RIGHT are odd
        if first_row == second_row:
            if first.line == second.line:
                self.stale += 1                 # same line, whatever the directions: nothing
                return
            self.stale = 0
            self.push_line(0, first)
            self.push_line(1, second)
            self.collect_items()
            return
        self.stale = 0
        (row_seat, row), (column_seat, column) = ((0, first), (1, second)) if first_row else \
            ((1, second), (0, first))
        self.push_line(row_seat, row)           # the row first, then the column
        self.collect_items()
        self.push_line(column_seat, column)
        self.collect_items()

    def push_line(self, seat: int, push: Push) -> None:
        """``seat`` inserts its hand tile with ``push``; the popped tile (and item) becomes its hand."""
        code = push.direction * SIZE + push.line
        mask, forward, shift, popped_at, inserted_at = PUSH_TABLE[code]
        board = self.board
        line = board & mask
        popped = line >> popped_at & CELL_MASK
        moved = (line << shift) & mask if forward else (line >> shift) & mask
        hands = self.hands
        self.board = (board ^ line) | moved | (hands[seat] << inserted_at)
        self.hands = (popped, hands[1]) if seat == 0 else (hands[0], popped)
        carried = MOVED[code]
        self.pos = (carried[self.pos[0]], carried[self.pos[1]])
        self._conn = None

    def _walk(self, seat: int, steps: Sequence[int]) -> None:
        """A MOVE: step by step, items checked after every step; an illegal step ends the move."""
        if not steps:
            return
        east, south = self.connections()
        cell = self.pos[seat]
        for step in steps:
            if step == RIGHT:
                legal = east >> cell & 1
            elif step == LEFT:
                legal = cell % SIZE and east >> (cell - 1) & 1
            elif step == UP:
                legal = cell >= SIZE and south >> (cell - SIZE) & 1
            else:
                legal = south >> cell & 1
            if not legal:
                break
            cell += DELTA[step]
            shift = CELL_BITS * cell + ITEM_SHIFT
            code = self.board >> shift & 31
            if code and code in self.quests[seat]:
                self._collect(seat, code, shift)
        self.pos = (cell, self.pos[1]) if seat == 0 else (self.pos[0], cell)

    # -- queries for search code -------------------------------------------------------
    def connections(self) -> tuple[int, int]:
        """(east, south) cell masks of the current board (cached until the next push)."""
        if self._conn is None:
            self._conn = connections(self.board)
        return self._conn

    def reachable(self, seat: int) -> int:
        east, south = self.connections()
        return reachable(east, south, self.pos[seat])

    def distances(self, seat: int) -> list[int]:
        east, south = self.connections()
        return distances(east, south, self.pos[seat])

    def walk_target(self, seat: int, steps: Sequence[int]) -> int:
        """The cell where ``steps`` leave ``seat`` (stopping at the first illegal step)."""
        probe = self.clone()
        probe.quests = ((), ())
        probe._walk(seat, steps)
        return probe.pos[seat]

    def tile(self, cell: int) -> int:
        return self.board >> (CELL_BITS * cell) & TILE_MASK

    def item_at(self, cell: int) -> int:
        return self.board >> (CELL_BITS * cell + ITEM_SHIFT) & 31

    def item_cells(self) -> dict[int, int]:
        """Every remaining item: code -> cell, or HAND[seat] when on a hand tile."""
        where = {}
        board = self.board
        for cell in range(CELLS):
            code = board >> (CELL_BITS * cell + ITEM_SHIFT) & 31
            if code:
                where[code] = cell
        for seat in (0, 1):
            code = self.hands[seat] >> ITEM_SHIFT
            if code:
                where[code] = HAND[seat]
        return where

    def quest_cells(self, seat: int) -> int:
        """Cell mask of the board cells holding ``seat``'s revealed quest items."""
        return item_mask(self.board, self.quests[seat]) if self.quests[seat] else 0

    def remaining(self, seat: int) -> int:
        """Quests ``seat`` still has to complete (the protocol's numPlayerCards)."""
        return self.rules.quests - self.score[seat]

    def shuffle_decks(self, rng: random.Random) -> None:
        """Draw an order for the hidden quests, keeping both decks one sequence (determinization)."""
        short, long_ = (0, 1) if len(self.decks[0]) <= len(self.decks[1]) else (1, 0)
        names = [(code - 1) >> 1 for code in self.decks[short]]
        rng.shuffle(names)
        head = tuple(1 + 2 * name + short for name in names)
        extra = self.decks[long_][len(names):]
        other = tuple(1 + 2 * name + long_ for name in names) + extra
        self.decks = (head, other) if short == 0 else (other, head)

    def __repr__(self) -> str:
        return (f"XmasRushState(turn={self.turn}, pos={self.pos}, score={self.score}, "
                f"quests={self.quests}, over={self._reason!r})")


def new_state(seed: int, level: int = 6) -> XmasRushState:
    return XmasRushState.new_game(seed, level)


__all__ = ["HAND", "League", "MAX_GAME_TURNS", "MAX_MOVE_STEPS", "MAX_STALE_PUSH_TURNS", "Move",
           "PUSHES", "Push", "XmasRushState", "league", "new_state"]
