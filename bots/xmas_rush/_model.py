"""A fast Xmas Rush position for search code: bit-sliced board, tracked quest items, a cheap MOVE.

The rules' ``XmasRushState`` is exact but a MOVE turn lists up to 49 planned paths, which a
search cannot afford at every node. ``SearchState`` plays the same PUSH turns (same conflict
rules, wrap-around, collections and reveals) on a board stored as nine 49-bit *planes*
(plane 0-3: the tile's UP/RIGHT/DOWN/LEFT paths, planes 4-8: the item code's bits), so a push
is a handful of big-int operations and the path masks are two ANDs. Only the revealed quest
items' cells are tracked (``quest_cells``); a reveal finds the new item by its plane bits.

MOVE turns: a seat's only search action is ``AUTO`` (collect every revealed quest item it can
reach, then stop at the reachable cell nearest to a quest item it cannot reach; the 20-step
limit is ignored), except at the root, where the bot plays the rules' planned paths (``Move``)
so that it can choose its real answer. PUSH actions are push codes 0..27 (at the root, in the
order the caller gives).
"""
from __future__ import annotations

from referee.games.xmas_rush.board import (
    CELL_BITS,
    CELLS,
    DELTA,
    FULL_MASK,
    SIZE,
    manhattan,
    reachable,
)
from referee.games.xmas_rush.rules import HAND, MAX_GAME_TURNS, MAX_STALE_PUSH_TURNS, MOVED, Move

AUTO = -1                       # the search's MOVE action: collect what is reachable (see above)
PUSH_CODES = list(range(4 * SIZE))
MOVE_CHOICES = [AUTO]
PLANES = 9
SLICE = sum(1 << (CELLS * plane) for plane in range(PLANES))   # bit 0 of every plane: one cell
_TILE_PLANES = sum(1 << (CELLS * plane) for plane in range(4))
EAST_OK = sum(1 << cell for cell in range(CELLS) if cell % SIZE < SIZE - 1)
SOUTH_OK = (1 << (CELLS - SIZE)) - 1


def _line_cells(code: int) -> list[int]:
    direction, line = divmod(code, SIZE)
    if direction & 1:           # RIGHT or LEFT: a row
        return [line * SIZE + x for x in range(SIZE)]
    return [y * SIZE + line for y in range(SIZE)]


def _push_table():
    """Per push code: (line mask over all planes, the rest of the board's mask, forward?, shift,
    popped cell, inserted cell)."""
    table = []
    everything = (1 << (CELLS * PLANES)) - 1
    for code in range(4 * SIZE):
        direction = code // SIZE
        cells = _line_cells(code)
        mask = sum(SLICE << cell for cell in cells)
        forward = direction in (1, 2)       # RIGHT, DOWN: towards higher cells
        popped, inserted = (cells[-1], cells[0]) if forward else (cells[0], cells[-1])
        table.append((mask, everything ^ mask, forward, 1 if direction & 1 else SIZE, popped, inserted))
    return tuple(table)


PUSH_TABLE = _push_table()


def _quest_moves():
    """Per seat and push code: where the push carries an item at each cell, indexed by the cell
    (49, 50, 51 stand for -3 'nowhere', HAND[1] = -2 and HAND[0] = -1, so negative cells index
    the table directly)."""
    tables = []
    for seat in (0, 1):
        per_code = []
        for code in range(4 * SIZE):
            popped_cell, inserted_cell = PUSH_TABLE[code][4:]
            carried = [MOVED[code][cell] for cell in range(CELLS)] + [-3, -2, -1]
            carried[popped_cell] = HAND[seat]
            carried[CELLS + 2 + HAND[seat] + 1] = inserted_cell
            per_code.append(tuple(carried))
        tables.append(tuple(per_code))
    return tuple(tables)


QUEST_MOVES = _quest_moves()
# per goal cell: the cell masks at Manhattan distance 0, 1, 2, ... (to find reachable cells near it)
def _rings():
    tables = []
    for goal in range(CELLS):
        rings = [0] * (2 * SIZE - 1)
        for cell in range(CELLS):
            rings[manhattan(cell, goal)] |= 1 << cell
        tables.append(tuple(rings))
    return tuple(tables)


RINGS = _rings()
_ITEM_PLANES = tuple((CELLS * (4 + bit), bit) for bit in range(5))


def to_sliced(cell_value: int) -> int:
    """A rules nine-bit cell value (tile + item << 4) as one bit per plane."""
    return sum(1 << (CELLS * plane) for plane in range(PLANES) if cell_value >> plane & 1)


def from_sliced(sliced: int) -> int:
    return sum(1 << plane for plane in range(PLANES) if sliced >> (CELLS * plane) & 1)


class SearchState:
    """See the module docstring. Seat-symmetric; implements the State contract searches use."""

    __slots__ = ("board", "hands", "pos", "quests", "quest_cells", "decks", "score", "turn",
                 "stale", "over", "target", "visible", "root_turn", "root_actions", "_conn")

    @classmethod
    def from_rules(cls, state, root_actions: tuple = (None, None)) -> SearchState:
        """``state`` (a rules ``XmasRushState``, decks already determinized) as a search state.

        ``root_actions``: per seat, what it may choose from at the root (``Move`` answers on a
        MOVE turn, push codes in a preferred order on a PUSH turn); None: every push, ``AUTO``.
        """
        model = cls.__new__(cls)
        board = 0
        for cell in range(CELLS):
            board |= to_sliced(state.board >> (CELL_BITS * cell) & 511) << cell
        model.board = board
        model.hands = tuple(to_sliced(hand) for hand in state.hands)
        model.pos = tuple(state.pos)
        model.quests = tuple(tuple(seat_quests) for seat_quests in state.quests)
        model.decks = tuple(tuple(deck) for deck in state.decks)
        model.score = tuple(state.score)
        model.turn = state.turn
        model.stale = state.stale
        model.over = state.is_over()
        model.target = state.rules.quests
        model.visible = state.rules.visible
        model.root_turn = state.turn
        model.root_actions = root_actions
        model._conn = None
        model.quest_cells = tuple(tuple(model.locate(code) for code in model.quests[seat]) for seat in (0, 1))
        model.collect_under()          # the rules' item check right after the input was sent
        return model

    def clone(self) -> SearchState:
        other = SearchState.__new__(SearchState)
        other.board = self.board
        other.hands = self.hands
        other.pos = self.pos
        other.quests = self.quests
        other.quest_cells = self.quest_cells
        other.decks = self.decks
        other.score = self.score
        other.turn = self.turn
        other.stale = self.stale
        other.over = self.over
        other.target = self.target
        other.visible = self.visible
        other.root_turn = self.root_turn
        other.root_actions = self.root_actions
        other._conn = self._conn
        return other

    # -- the State contract ---------------------------------------------------------
    def acting_seats(self) -> tuple[int, int]:
        return (0, 1)

    def is_push_turn(self) -> bool:
        return not self.turn & 1

    def legal_actions(self, seat: int) -> list:
        if self.turn == self.root_turn and self.root_actions[seat]:
            return self.root_actions[seat]
        return MOVE_CHOICES if self.turn & 1 else PUSH_CODES

    def apply(self, actions) -> None:
        first, second = actions
        if not self.turn & 1:
            self.apply_pushes(first, second)
        else:
            self.apply_move(0, first)
            self.apply_move(1, second)
            self.end_turn()

    def is_over(self) -> bool:
        return self.over

    def scores(self) -> tuple[int, int]:
        return self.score

    # -- geometry -----------------------------------------------------------------------
    def connections(self) -> tuple[int, int]:
        """(east, south) cell masks: cell c joins c + 1 / c + 7."""
        conn = self._conn
        if conn is None:
            board = self.board
            conn = self._conn = (board >> CELLS & board >> (3 * CELLS + 1) & EAST_OK,
                                 board >> (2 * CELLS) & board >> SIZE & SOUTH_OK)
        return conn

    def reachable(self, seat: int) -> int:
        east, south = self.connections()
        return reachable(east, south, self.pos[seat])

    def locate(self, code: int) -> int:
        """The cell of item ``code`` (HAND[seat] on a hand tile; -3 if it is nowhere)."""
        board = self.board
        match = FULL_MASK
        for shift, bit in _ITEM_PLANES:
            plane = board >> shift & FULL_MASK
            match &= plane if code >> bit & 1 else ~plane
        if match:
            return (match & -match).bit_length() - 1
        for seat in (0, 1):
            if from_sliced(self.hands[seat]) >> 4 == code:
                return HAND[seat]
        return -3

    def tile(self, cell: int) -> int:
        return from_sliced(self.board >> cell & SLICE) & 15

    # -- PUSH turns -----------------------------------------------------------------------
    def apply_pushes(self, first: int, second: int) -> None:
        """Both seats' pushes as the referee resolves them, then the next turn's start."""
        first_row, second_row = (first // SIZE) & 1, (second // SIZE) & 1
        if first_row == second_row:
            if first % SIZE == second % SIZE:
                self.stale += 1
            else:
                self.stale = 0
                self.push(0, first)
                self.push(1, second)
                self.collect_under()
        else:
            self.stale = 0
            row_seat, column_seat = (0, 1) if first_row else (1, 0)
            self.push(row_seat, first if first_row else second)
            self.collect_under()
            self.push(column_seat, second if first_row else first)
            self.collect_under()
        self.end_turn()

    def push(self, seat: int, code: int) -> None:
        """``seat`` inserts its hand tile with push ``code``; the popped tile becomes its hand."""
        mask, rest, forward, shift, popped_cell, inserted_cell = PUSH_TABLE[code]
        board = self.board
        line = board & mask
        popped = line >> popped_cell & SLICE
        line ^= popped << popped_cell       # so the shift keeps every other cell inside the line
        moved = line << shift if forward else line >> shift
        hands = self.hands
        self.board = (board & rest) | moved | (hands[seat] << inserted_cell)
        self.hands = (popped, hands[1]) if seat == 0 else (hands[0], popped)
        carried = MOVED[code]
        self.pos = (carried[self.pos[0]], carried[self.pos[1]])
        self._conn = None
        where = QUEST_MOVES[seat][code]
        first, second = self.quest_cells
        self.quest_cells = (tuple([where[cell] for cell in first]), tuple([where[cell] for cell in second]))

    def collect_under(self) -> None:
        """The rules' item check: a revealed quest item under its owner is collected."""
        for seat in (0, 1):
            if self.pos[seat] in self.quest_cells[seat]:
                self._collect(seat, self.pos[seat])

    def _collect(self, seat: int, cell: int) -> None:
        index = self.quest_cells[seat].index(cell)
        self.board &= ~(SLICE << (CELLS * 4) << cell)          # the item leaves its tile
        quests = self.quests[seat][:index] + self.quests[seat][index + 1:]
        cells = self.quest_cells[seat][:index] + self.quest_cells[seat][index + 1:]
        if seat == 0:
            self.quests, self.quest_cells = (quests, self.quests[1]), (cells, self.quest_cells[1])
            self.score = (self.score[0] + 1, self.score[1])
        else:
            self.quests, self.quest_cells = (self.quests[0], quests), (self.quest_cells[0], cells)
            self.score = (self.score[0], self.score[1] + 1)

    # -- MOVE turns --------------------------------------------------------------------
    def apply_move(self, seat: int, action) -> None:
        if action == AUTO:
            self.auto_move(seat)
        elif action.steps:
            self._walk(seat, action.steps)

    def _walk(self, seat: int, steps) -> None:
        """A planned path (legal on this board): every revealed quest item on it is collected."""
        cell = self.pos[seat]
        for step in steps:
            cell += DELTA[step]
            if cell in self.quest_cells[seat]:
                self._collect(seat, cell)
        self.pos = (cell, self.pos[1]) if seat == 0 else (self.pos[0], cell)

    def auto_move(self, seat: int) -> None:
        """Collect every reachable revealed quest item, then stop near the next one out of reach."""
        reach = self.reachable(seat)
        end = self.pos[seat]
        goal = -1
        for cell in self.quest_cells[seat]:
            if cell < 0:
                continue
            if reach >> cell & 1:
                self._collect(seat, cell)
                end = cell
            elif goal < 0:
                goal = cell
        if goal >= 0:
            for ring in RINGS[goal]:
                near = reach & ring
                if near:
                    end = (near & -near).bit_length() - 1
                    break
        self.pos = (end, self.pos[1]) if seat == 0 else (self.pos[0], end)

    # -- turn structure ---------------------------------------------------------------------
    def end_turn(self) -> None:
        """The next game turn's start: end conditions, then reveals (and their item check)."""
        self.turn += 1
        score = self.score
        if self.turn >= MAX_GAME_TURNS or self.stale >= MAX_STALE_PUSH_TURNS or self.target in score:
            self.over = True
            return
        visible = self.visible
        if len(self.quests[0]) < visible and self.decks[0] or len(self.quests[1]) < visible and self.decks[1]:
            self._reveal()
            self.collect_under()

    def _reveal(self) -> None:
        quests, cells, decks = list(self.quests), list(self.quest_cells), list(self.decks)
        for seat in (0, 1):
            count = min(self.visible - len(quests[seat]), len(decks[seat]))
            if count > 0:
                drawn = decks[seat][len(decks[seat]) - count:][::-1]
                quests[seat] = quests[seat] + drawn
                cells[seat] = cells[seat] + tuple(self.locate(code) for code in drawn)
                decks[seat] = decks[seat][:len(decks[seat]) - count]
        self.quests, self.quest_cells, self.decks = tuple(quests), tuple(cells), tuple(decks)


def random_playout(state: SearchState, rng, max_turns: int | None = None) -> None:
    """Uniformly random pushes for both seats, ``AUTO`` moves, for ``max_turns`` game turns."""
    rand = rng.random
    turns = 0
    limit = max_turns if max_turns is not None else -1
    while turns != limit and not state.over:
        if state.turn & 1:
            state.auto_move(0)
            state.auto_move(1)
            state.end_turn()
        else:
            state.apply_pushes(int(rand() * 28), int(rand() * 28))
        turns += 1


def same_line(first: int, second: int) -> bool:
    """Two pushes of one line cancel (the rules' stale push): the hybrid's minimax ignores them."""
    if first == AUTO or second == AUTO or isinstance(first, Move) or isinstance(second, Move):
        return False
    return first % SIZE == second % SIZE and (first // SIZE) & 1 == (second // SIZE) & 1


__all__ = ["AUTO", "RINGS", "PUSH_CODES", "SearchState", "random_playout", "same_line"]
