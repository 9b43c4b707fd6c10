"""xmas_rush's board module exactly (mutation testing: ``python -m tests.mutation.runner board``).

The bit masks built at import (``_line_bits``) are rebuilt here, since mutmut switches a mutant on
only after import; the helpers the bots use (``manhattan``, ``cell_xy``) and the limits of
``layers``, ``distances`` and ``path_to`` are checked against values worked by hand.
"""
from __future__ import annotations

import random

from referee.games.xmas_rush.board import (
    _EAST_BITS,
    _SOUTH_BITS,
    CELLS,
    DELTA,
    RIGHT,
    SIZE,
    _line_bits,
    can_step,
    cell_xy,
    connections,
    distances,
    layers,
    manhattan,
    path_to,
    pattern_of,
    plan_moves,
    rotate,
    tile_from_pattern,
)


def _open_board() -> int:
    """Every tile a crossroads ('1111'): each cell joins all its neighbours."""
    return sum(tile_from_pattern("1111") << (9 * cell) for cell in range(CELLS))


def test_line_bits_set_one_bit_per_cell_at_stride_nine():
    assert _line_bits(0, [0]) == 1 and _line_bits(1, [0, 2]) == (1 << 1) | (1 << 19)
    assert _line_bits(2, range(3)) == (1 << 2) | (1 << 11) | (1 << 20)
    assert _line_bits(3, []) == 0
    east_cells = [cell for cell in range(CELLS) if cell % SIZE != SIZE - 1]
    assert _line_bits(1, east_cells) == _EAST_BITS and bin(_EAST_BITS).count("1") == 42
    assert _line_bits(2, range(CELLS - SIZE)) == _SOUTH_BITS and bin(_SOUTH_BITS).count("1") == 42


def test_cells_and_manhattan_distances_by_hand():
    assert [cell_xy(cell) for cell in (0, 6, 7, 24, 48)] == [(0, 0), (6, 0), (0, 1), (3, 3), (6, 6)]
    assert all(isinstance(value, int) for value in cell_xy(30))
    for a, b, expected in ((0, 48, 12), (48, 0, 12), (6, 42, 12), (24, 24, 0), (10, 12, 2),
                           (3, 38, 5), (38, 3, 5), (13, 7, 6)):
        assert manhattan(a, b) == expected, (a, b)
    assert all(isinstance(manhattan(a, 47), int) for a in range(CELLS))


def test_layers_and_distances_stop_at_their_limit():
    east, south = connections(_open_board())
    assert [bin(layer).count("1") for layer in layers(east, south, 0)] == \
        [1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1]
    assert len(layers(east, south, 0, 2)) == 3 and len(layers(east, south, 24, 0)) == 1
    near = distances(east, south, 24, 2)
    assert sorted(near).count(-1) == CELLS - 13          # the 13 cells within 2 steps of the centre
    assert near[24] == 0 and near[24 + 2] == 2 and near[24 + 3] == -1 and near[0] == -1
    assert distances(east, south, 0)[48] == 12


def test_a_path_to_the_start_is_empty_whatever_the_limit():
    east, south = connections(_open_board())
    for limit in (0, 1, CELLS):
        assert path_to(east, south, distances(east, south, 24, limit), 24) == []
    assert len(path_to(east, south, distances(east, south, 0), 48)) == 12


def test_rotation_counts_quarter_turns_modulo_four():
    tile = tile_from_pattern("1100")                      # UP and RIGHT
    assert [pattern_of(rotate(tile, turns)) for turns in range(9)] == \
        ["1100", "0110", "0011", "1001"] * 2 + ["1100"]
    assert rotate(tile, -1) == rotate(tile, 3)


def _brute_force_plans(east: int, south: int, start: int, goals: list[int], max_steps: int):
    """Per cell within max_steps: (most goals a walk of at most max_steps visits on its way there,
    start included; the fewest steps doing so), by breadth-first search over (cell, goals seen)."""
    bit = {goal: 1 << index for index, goal in enumerate(goals)}
    first = (start, bit.get(start, 0))
    steps = {first: 0}
    frontier = [first]
    for depth in range(1, max_steps + 1):
        grown = []
        for cell, seen in frontier:
            for direction in range(4):
                if can_step(east, south, cell, direction):
                    there = cell + DELTA[direction]
                    state = (there, seen | bit.get(there, 0))
                    if state not in steps:
                        steps[state] = depth
                        grown.append(state)
        frontier = grown
    best: dict[int, tuple[int, int]] = {}
    for (cell, seen), depth in steps.items():
        key = (bin(seen).count("1"), -depth)
        if cell not in best or key > best[cell]:
            best[cell] = key
    return {cell: (count, -negative) for cell, (count, negative) in best.items()}


def _random_board(rng: random.Random, open_chance: float) -> int:
    return sum(sum(1 << side for side in range(4) if rng.random() < open_chance) << (9 * cell)
               for cell in range(CELLS))


def test_move_plans_are_the_best_walks_a_brute_force_finds():
    """plan_moves against a breadth-first search over (cell, goals seen) on random boards, step
    limits from 0 to 20 (walks of exactly the limit included), 0 to 6 targets (4 considered)."""
    rng = random.Random(5)
    for trial in range(120):
        east, south = connections(_random_board(rng, rng.choice((0.5, 0.6, 0.8))))
        start = rng.randrange(CELLS)
        max_steps = rng.choice((0, 1, 2, 3, 5, 8, 12, 20))
        targets = sum(1 << cell for cell in rng.sample(range(CELLS), rng.randrange(7)))
        if rng.random() < 0.2:
            targets |= 1 << start                                # an item under the player
        near = distances(east, south, start, max_steps)
        goals = [cell for cell in range(CELLS) if targets >> cell & 1 and near[cell] >= 0][:4]
        expected = _brute_force_plans(east, south, start, goals, max_steps)
        plans = plan_moves(east, south, start, targets, max_steps)
        assert sorted(plans) == sorted(expected), trial
        for cell, (steps, picked) in plans.items():
            assert (picked, len(steps)) == expected[cell], (trial, cell)
            here, seen = start, {start} & set(goals)
            for step in steps:
                assert can_step(east, south, here, step), (trial, cell)
                here += DELTA[step]
                seen |= {here} & set(goals)
            assert here == cell and len(seen) == picked, (trial, cell)


def test_only_the_first_four_reachable_targets_are_planned_for():
    east, south = connections(_open_board())
    targets = sum(1 << cell for cell in (1, 2, 3, 4, 5))       # five on the top row
    plans = plan_moves(east, south, 0, targets)
    assert max(picked for _, picked in plans.values()) == 4
    assert plans[6] == ((RIGHT,) * 6, 4) and plans[5] == ((RIGHT,) * 5, 4)
