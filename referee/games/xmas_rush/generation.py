"""CodinGame's board generation for a seed, call for call, and the league table. Stdlib only.

The order of the random draws is the official referee's (``GameBoard`` constructor
and ``fillEmptyTiles``, the item-name shuffle, ``placeItems``): centre
``nextInt(3)``; per drawn tile ``nextInt(poolSize)`` then ``nextInt(3)`` (0..2
quarter turns, never 3); the names' Fisher-Yates with ``nextInt(12)``; one
``nextInt(49)`` per placement attempt; ``Collections.shuffle`` of the item tiles.
The item tiles are listed pair by pair, each pair (player 0's tile, then player 1's)
appended at the end, before that one shuffle: the final referee (df8eb80; commit
2748964 of 2018-12-07 stopped inserting the newest pair first), so the item lines
come in the order CodinGame sent during the contest.
"""
from __future__ import annotations

from dataclasses import dataclass

from referee.games.xmas_rush.board import (
    CELL_BITS,
    CELLS,
    ITEM_NAMES,
    ITEM_SHIFT,
    SIZE,
    item_code,
    rotate,
    tile_from_pattern,
)
from referee.games.xmas_rush.javarandom import JavaRandom, java_shuffle


@dataclass(frozen=True, slots=True)
class League:
    """What CodinGame's league level changes: quests, reveals, item tiles, tile pool."""

    level: int
    quests: int             # quests per player
    visible: int            # quests revealed at once
    three_way_items: bool   # items only on tiles with 3 or 4 paths
    pool: int


def league(level: int) -> League:
    """CodinGame's ``leagueLevel``: 1 Wood 2, 2 Wood 1, 3 Bronze, 4-5 Silver/Gold, 6+ Legend."""
    if level <= 1:
        return League(level, 1, 1, True, 1)
    if level == 2:
        return League(level, 6, 1, True, 1)
    if level == 3:
        return League(level, 12, 3, False, 1)
    if level <= 5:
        return League(level, 12, 3, False, 2)
    return League(level, 12, 3, False, 3)


def _pool(*groups: tuple[str, int]) -> tuple[str, ...]:
    return tuple(pattern for pattern, count in groups for _ in range(count))


TILE_POOLS = {
    1: _pool(("0110", 8), ("1101", 3), ("0111", 6), ("1010", 6), ("1111", 1)),
    2: _pool(("0110", 8), ("1101", 3), ("0111", 4), ("1010", 9)),
    3: _pool(("0110", 10), ("1101", 3), ("0111", 2), ("1010", 9)),
}
CENTRE_PATTERNS = ("1111", "1010", "0101")
CENTRE = 3 * SIZE + 3
BASES = (0, CELLS - 1)              # player 0 starts at (0, 0), player 1 at (6, 6)


@dataclass(frozen=True, slots=True)
class Setup:
    """A generated start: tiles per cell, hand tiles, items and the quest order."""

    tiles: tuple[int, ...]          # 49 tile masks
    hands: tuple[int, int]          # tile masks
    items: dict[int, int]           # item code -> cell
    item_order: tuple[int, ...]     # item codes in the input's (fixed) order
    deck: tuple[int, ...]           # name indices; the last is revealed first

    def board(self) -> int:
        value = 0
        for cell, tile in enumerate(self.tiles):
            value |= tile << (CELL_BITS * cell)
        for code, cell in self.items.items():
            value |= code << (CELL_BITS * cell + ITEM_SHIFT)
        return value


def _mirror(cell: int) -> int:
    return CELLS - 1 - cell


def _every_cell(tiles: list[int | None]) -> list[int]:
    """The tiles once the fill has placed one on every cell (each step places a cell's mirror too)."""
    placed = [tile for tile in tiles if tile is not None]
    if len(placed) != len(tiles):
        raise AssertionError(f"{len(tiles) - len(placed)} cells left without a tile")
    return placed


def generate(seed: int, rules: League) -> Setup:
    """The start CodinGame's referee builds for ``seed`` (a Java long) in the league ``rules``."""
    rnd = JavaRandom(seed)
    pool = [tile_from_pattern(pattern) for pattern in TILE_POOLS[rules.pool]]
    tiles: list[int | None] = [None] * CELLS
    tiles[CENTRE] = tile_from_pattern(CENTRE_PATTERNS[rnd.next_int(len(CENTRE_PATTERNS))])
    tiles[BASES[0]] = tile_from_pattern("0110")
    for y in range(SIZE):
        for x in range(SIZE - y):
            cell = y * SIZE + x
            tile = tiles[cell]
            if tile is None:
                pattern = pool.pop(rnd.next_int(len(pool)))
                tile = tiles[cell] = rotate(pattern, rnd.next_int(3))
            tiles[_mirror(cell)] = rotate(tile, 2)
    placed = _every_cell(tiles)
    hands = (pool[0], rotate(pool[0], 2))

    names = list(range(len(ITEM_NAMES)))
    for last in range(len(names) - 1, 0, -1):          # the referee's own shuffle: nextInt(12)
        other = rnd.next_int(len(names))
        names[other], names[last] = names[last], names[other]
    chosen = names[:rules.quests]

    items: dict[int, int] = {}
    occupied: set[int] = set()
    item_tiles: list[int] = []                          # cells, as the referee's list of tiles
    for name in chosen:
        while True:
            index = rnd.next_int(CELLS)
            cell = (index % SIZE) * SIZE + index // SIZE   # x = index / 7, y = index % 7
            if cell == CENTRE or cell in BASES or cell in occupied:
                continue
            if rules.three_way_items and bin(placed[cell]).count("1") < 3:
                continue
            break
        items[item_code(name, 0)] = cell
        items[item_code(name, 1)] = _mirror(cell)
        occupied.update((cell, _mirror(cell)))
        item_tiles += (cell, _mirror(cell))              # appended: the final code (commit 2748964)
    java_shuffle(item_tiles, rnd)
    owner_at = {cell: code for code, cell in items.items()}
    return Setup(tiles=tuple(placed), hands=hands, items=items,
                 item_order=tuple(owner_at[cell] for cell in item_tiles), deck=tuple(chosen))
