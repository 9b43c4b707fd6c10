"""The Xmas Rush board as one integer, and the fast path-finding search code needs. Stdlib only.

Cells are numbered ``c = y * 7 + x`` ((0, 0) top-left). The whole board is one
int of 49 nine-bit fields, cell c at bits ``9c .. 9c + 8``: bits 0-3 are the
tile's paths (UP 1, RIGHT 2, DOWN 4, LEFT 8), bits 4-8 the item code on the tile
(0: none). A push is then a shift of one row or column field; a hand tile is one
nine-bit value (tile and item together).

Reachability works on 49-bit *cell masks* (bit c = cell c): ``connections``
turns a board into two masks, ``east`` (cell c joins c + 1) and ``south``
(cell c joins c + 7); flood fills over them are a few big-int operations.
"""
from __future__ import annotations

from collections.abc import Iterable
from itertools import permutations

SIZE = 7
CELLS = 49
CELL_BITS = 9
ITEM_SHIFT = 4
TILE_MASK = 15
CELL_MASK = (1 << CELL_BITS) - 1

UP, RIGHT, DOWN, LEFT = range(4)
DIRECTION_NAMES = ("UP", "RIGHT", "DOWN", "LEFT")
DELTA = (-SIZE, 1, SIZE, -1)
OPPOSITE = (DOWN, LEFT, UP, RIGHT)
FULL_MASK = (1 << CELLS) - 1
MAX_MOVE_STEPS = 20

ITEM_NAMES = ("ARROW", "BOOK", "CANE", "CANDY", "DIAMOND", "FISH",
              "MASK", "KEY", "POTION", "SCROLL", "SHIELD", "SWORD")
ITEM_INDEX = {name: index for index, name in enumerate(ITEM_NAMES)}


# -- tiles and items ------------------------------------------------------------
def tile_from_pattern(pattern: str) -> int:
    """'0110' (UP, RIGHT, DOWN, LEFT; '1' = a path) -> the tile's 4-bit mask."""
    return sum(1 << index for index, char in enumerate(pattern) if char == "1")


def pattern_of(tile: int) -> str:
    return "".join("1" if tile >> index & 1 else "0" for index in range(4))


def rotate(tile: int, quarter_turns: int) -> int:
    """Clockwise quarter turns (Java's ``TileModel.rotate``: the pattern string shifted right)."""
    turns = quarter_turns % 4
    return ((tile << turns) | (tile >> (4 - turns))) & TILE_MASK


def item_code(name_index: int, owner: int) -> int:
    """Items are coded 1..24: ``1 + 2 * name index + owner``."""
    return 1 + 2 * name_index + owner


def item_name(code: int) -> str:
    return ITEM_NAMES[(code - 1) >> 1]


def item_owner(code: int) -> int:
    return (code - 1) & 1


def cell_value(board: int, cell: int) -> int:
    return board >> (CELL_BITS * cell) & CELL_MASK


def cell_xy(cell: int) -> tuple[int, int]:
    return cell % SIZE, cell // SIZE


# -- packing: bits at stride 9 -> bits at stride 1 ------------------------------
# Two exact multiplications (every partial product lands on its own bit, so nothing
# carries): the first moves bit 9i of each row (stride 63) to bit 48 + i of that row,
# the second moves each row's 7 bits (stride 63) next to each other (stride 7).
_ROW_SCATTER = sum(1 << (48 - 8 * i) for i in range(SIZE))
_ROW_GROUPS = sum(127 << (63 * y) for y in range(SIZE))
_ROWS_SCATTER = sum(1 << (336 - 56 * y) for y in range(SIZE))


def gather(spread: int) -> int:
    """The cell mask of a board-wide int whose set bits are all at 9c (c = 0..48)."""
    return ((((spread * _ROW_SCATTER) >> 48) & _ROW_GROUPS) * _ROWS_SCATTER >> 336) & FULL_MASK


def _line_bits(bit: int, cells: Iterable[int]) -> int:
    return sum(1 << (CELL_BITS * cell + bit) for cell in cells)


_EAST_BITS = _line_bits(1, [c for c in range(CELLS) if c % SIZE < SIZE - 1])
_SOUTH_BITS = _line_bits(2, range(CELLS - SIZE))


def connections(board: int) -> tuple[int, int]:
    """(east, south) cell masks: cell c joins c + 1 / c + 7 (both tiles open towards each other)."""
    east = board & (board >> (CELL_BITS + 2)) & _EAST_BITS           # RIGHT of c, LEFT of c + 1
    south = board & (board >> (CELL_BITS * SIZE - 2)) & _SOUTH_BITS  # DOWN of c, UP of c + 7
    return gather(east >> 1), gather(south >> 2)


_SLOT_ONES = sum(1 << (CELL_BITS * cell) for cell in range(CELLS))
_ITEM_FIELDS = 31 * _SLOT_ONES
_CARRY_BITS = _SLOT_ONES << 5


def item_mask(board: int, codes: Iterable[int]) -> int:
    """Cell mask of the board cells holding any of the item ``codes`` (no loop over cells)."""
    fields = (board >> ITEM_SHIFT) & _ITEM_FIELDS
    hits = 0
    for code in codes:
        # a field equal to ``code`` XORs to 0, and 0 + 31 is the only sum not carrying into bit 5
        hits |= ~((fields ^ (code * _SLOT_ONES)) + _ITEM_FIELDS) & _CARRY_BITS
    return gather(hits >> 5) if hits else 0


# -- reachability and distances --------------------------------------------------
def reachable(east: int, south: int, start: int) -> int:
    """The cell mask reachable from ``start`` (any number of steps)."""
    reach = 1 << start
    while True:
        grown = (reach | ((reach & east) << 1) | ((reach >> 1) & east)
                 | ((reach & south) << 7) | ((reach >> 7) & south))
        if grown == reach:
            return reach
        reach = grown


def layers(east: int, south: int, start: int, limit: int = CELLS) -> list[int]:
    """Breadth-first layers from ``start``: ``layers[k]`` is the mask of cells at distance k."""
    seen = frontier = 1 << start
    result = [frontier]
    while len(result) <= limit:
        grown = (((frontier & east) << 1) | ((frontier >> 1) & east)
                 | ((frontier & south) << 7) | ((frontier >> 7) & south)) & ~seen
        if not grown:
            break
        seen |= grown
        result.append(grown)
        frontier = grown
    return result


def cells_of(mask: int) -> list[int]:
    """The cells of a cell mask, in increasing order."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


def distances(east: int, south: int, start: int, limit: int = CELLS) -> list[int]:
    """Steps from ``start`` to every cell (-1: unreachable or farther than ``limit``)."""
    dist = [-1] * CELLS
    for depth, layer in enumerate(layers(east, south, start, limit)):
        for cell in cells_of(layer):
            dist[cell] = depth
    return dist


def can_step(east: int, south: int, cell: int, direction: int) -> bool:
    """Whether one step from ``cell`` towards ``direction`` is legal (no wrap-around)."""
    if direction == RIGHT:
        return bool(east >> cell & 1)
    if direction == DOWN:
        return bool(south >> cell & 1)
    if direction == LEFT:
        return bool(cell % SIZE and east >> (cell - 1) & 1)
    return bool(cell >= SIZE and south >> (cell - SIZE) & 1)


def path_to(east: int, south: int, dist_from: list[int], target: int) -> list[int]:
    """Directions of a shortest path to ``target``, given the distances from its start."""
    steps: list[int] = []
    cell = target
    depth = dist_from[cell]
    while depth > 0:
        for direction in (UP, LEFT, DOWN, RIGHT):
            if can_step(east, south, cell, direction) and dist_from[cell + DELTA[direction]] == depth - 1:
                cell += DELTA[direction]
                steps.append(OPPOSITE[direction])
                break
        depth -= 1
    steps.reverse()
    return steps


def manhattan(a: int, b: int) -> int:
    return abs(a % SIZE - b % SIZE) + abs(a // SIZE - b // SIZE)


def plan_moves(east: int, south: int, start: int, targets: int,
               max_steps: int = MAX_MOVE_STEPS) -> dict[int, tuple[tuple[int, ...], int]]:
    """For every cell reachable in one MOVE: (steps, items picked up) of the best path there.

    The best path visits as many ``targets`` cells (at most 4 are considered) as
    the step limit allows on the way, then ends at the cell; among those, the shortest.
    """
    dist_start = distances(east, south, start, max_steps)
    goals = [cell for cell in cells_of(targets) if dist_start[cell] >= 0][:4]
    dist_goal = {goal: distances(east, south, goal, max_steps) for goal in goals}
    tours: list[tuple[tuple[int, ...], int]] = [((), 0)]
    for size in range(1, len(goals) + 1):
        for order in permutations(goals, size):
            cost = dist_start[order[0]]
            for here, there in zip(order, order[1:]):
                leg = dist_goal[here][there]
                cost = max_steps + 1 if leg < 0 else cost + leg
            if cost <= max_steps:
                tours.append((order, cost))
    best: dict[int, tuple[int, ...]] = {}          # cell -> the goals visited on the way, in order
    for cell in range(CELLS):
        if dist_start[cell] < 0:
            continue
        choice = None
        for order, cost in tours:
            leg = dist_goal[order[-1]][cell] if order else dist_start[cell]
            if leg < 0 or cost + leg > max_steps:
                continue
            key = (len(order), -(cost + leg))
            if choice is None or key > choice[0]:
                choice = (key, order)
        if choice is not None:
            best[cell] = choice[1]
    legs: dict[tuple[int, int], list[int]] = {}

    def leg_steps(here: int, there: int) -> list[int]:
        if (here, there) not in legs:
            source = dist_start if here == start and here not in dist_goal else dist_goal[here]
            legs[(here, there)] = path_to(east, south, source, there)
        return legs[(here, there)]

    plans = {}
    for cell, order in best.items():
        steps: list[int] = []
        here = start
        for goal in order:
            steps += leg_steps(here, goal)
            here = goal
        steps += leg_steps(here, cell)
        plans[cell] = (tuple(steps), len(order))
    return plans
