"""Xmas Rush MOVE turns: the paths the search bots consider (``collecting_moves``) are exactly
the best-collecting ones, checked against a brute-force search over every walk of up to 20
steps (states: cell and the quest items picked so far), independent of ``board.plan_moves``."""
from __future__ import annotations

from bots.xmas_rush._play import collecting_moves
from referee.games.xmas_rush.board import DELTA, DOWN, LEFT, MAX_MOVE_STEPS, RIGHT, SIZE, UP
from referee.games.xmas_rush.codec import state_from_lines
from tests.bots.test_xmas_rush_bots_search import _played


def _open(east: int, south: int, cell: int, step: int) -> bool:
    if step == RIGHT:
        return bool(east >> cell & 1)
    if step == LEFT:
        return bool(cell % SIZE and east >> (cell - 1) & 1)
    if step == UP:
        return bool(cell >= SIZE and south >> (cell - SIZE) & 1)
    return bool(south >> cell & 1)


def most_collectable(state, seat: int = 0) -> int:
    """The most quest items any walk of up to 20 steps picks up, by breadth-first search."""
    east, south = state.connections()
    quests = state.quest_cells(seat) & ~(1 << state.pos[seat])   # the start's is picked anyway
    frontier = {(state.pos[seat], 0)}
    seen = set(frontier)
    for _ in range(MAX_MOVE_STEPS):
        following = set()
        for cell, picked in frontier:
            for step in (UP, RIGHT, DOWN, LEFT):
                if _open(east, south, cell, step):
                    nxt = cell + DELTA[step]
                    state_after = (nxt, picked | (quests & 1 << nxt))
                    if state_after not in seen:
                        seen.add(state_after)
                        following.add(state_after)
        frontier = following
    return max(bin(picked).count("1") for _, picked in seen)


def picked_by(state, move, seat: int = 0) -> int:
    """Quest items the rules give ``seat`` for walking ``move`` (the start's item aside)."""
    probe = state.clone()
    probe.collect_items()
    before = probe.score[seat]
    probe._walk(seat, move.steps)
    return probe.score[seat] - before


def open_board(start: tuple[int, int], items: list[tuple[int, int]]):
    """A MOVE turn on a board of crossroads (every step open), seat 0 at ``start`` with quests
    on ``items``: some cells are too far to take the items on the way (a walk has 20 steps), so
    not every reachable cell is a best-collecting target."""
    names = ["SWORD", "FISH", "SHIELD"][:len(items)]
    lines = ["1", *[" ".join(["1111"] * 7)] * 7, f"12 {start[0]} {start[1]} 1111", "12 3 3 1111",
             str(len(items) + 1), *[f"{name} {x} {y} 0" for name, (x, y) in zip(names, items)],
             "KEY 5 5 1", str(len(items) + 1), *[f"{name} 0" for name in names], "KEY 1"]
    return state_from_lines(lines, turn=1)


CROSSROADS = [((0, 0), [(6, 6)]), ((0, 0), [(6, 6), (0, 6)]), ((3, 0), [(0, 6), (6, 6)]),
              ((0, 3), [(6, 0), (6, 6), (3, 6)])]


def test_on_open_boards_only_the_best_collecting_paths_are_answers():
    for start, items in CROSSROADS:
        state = open_board(start, items)
        most = most_collectable(state)
        assert most == len(items) and len(state.move_actions(0)) > 40, (start, items)
        moves = collecting_moves(state)
        assert moves and [picked_by(state, move) for move in moves] == [most] * len(moves)


def test_every_move_answer_collects_the_most_any_walk_can():
    checked = collecting = 0
    for seed in range(40):
        for turns in (1, 3, 5, 9, 15):
            state = _played(seed, turns)
            if state.is_over():
                continue
            most = most_collectable(state)
            moves = collecting_moves(state)
            assert moves, (seed, turns)
            assert [picked_by(state, move) for move in moves] == [most] * len(moves), (seed, turns)
            checked += 1
            collecting += most > 0
    assert checked >= 150 and collecting >= 12     # positions where some path picks items up
