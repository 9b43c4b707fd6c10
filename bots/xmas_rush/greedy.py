"""One-ply greedy: the push that best serves its own quests, then a move collecting what it can reach.

PUSH: the opponent's push is guessed as the one that best serves the opponent
alone (every one of its 28 pushes tried on the current board); then each of my
28 pushes is played against that guess by the rules. A board's value for a
player: quest items collected or reachable (1000 each), minus 10 per step of
Manhattan distance from the reachable area to each other revealed quest item,
plus the reachable area's size.
MOVE: among the paths the rules offer (each collects as many reachable quest
items as 20 steps allow), the one collecting most, ending nearest (Manhattan) to
the next quest item it cannot reach yet, shortest on ties.
"""
from __future__ import annotations

import argparse
import random
import time

from bots.runtime import TurnClock, answer
from bots.xmas_rush._input import TurnReader
from referee.games.xmas_rush.board import SIZE, cells_of, manhattan, plan_moves
from referee.games.xmas_rush.rules import HAND, PUSHES, Move, Push, XmasRushState

CENTRE = 3 * SIZE + 3
HAND_DISTANCE = (3, 6)          # distance charged for a quest item on my / the opponent's hand tile


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=None, help="breaks ties between equal pushes")
    parser.add_argument("--margin-ms", type=float, default=15,
                        help="stop evaluating this long before the turn's budget ends")
    parser.add_argument("--league", type=int, default=6, help="CodinGame league level of the game")
    return parser


def _nearest(area: list[int], target: int) -> int:
    return min(manhattan(cell, target) for cell in area)


def push_value(state: XmasRushState, seat: int = 0) -> int:
    """How well the board serves ``seat``'s revealed quests (the state after its push)."""
    reach = state.reachable(seat)
    area = cells_of(reach)
    where = state.item_cells()
    value = 1000 * state.score[seat] + reach.bit_count()
    for code in state.quests[seat]:
        cell = where.get(code)
        if cell is None:
            continue
        if cell < 0:
            value -= 10 * HAND_DISTANCE[0 if cell == HAND[seat] else 1]
        elif reach >> cell & 1:
            value += 1000
        else:
            value -= 10 * _nearest(area, cell)
    return value


def best_push(state: XmasRushState, seat: int, rng: random.Random, against: Push | None = None,
              deadline: float | None = None) -> Push:
    """``seat``'s best push by ``push_value``: alone, or played against the opponent's push ``against``."""
    best, best_value = PUSHES[0], None
    order = list(PUSHES)
    rng.shuffle(order)
    for push in order:
        trial = state.clone()
        if against is None:
            trial.push_line(seat, push)
            trial.collect_items()
        else:
            trial.apply((push, against) if seat == 0 else (against, push))
        value = push_value(trial, seat)
        if best_value is None or value > best_value:
            best, best_value = push, value
        if deadline is not None and time.perf_counter() > deadline:
            break
    return best


def choose_push(state: XmasRushState, rng: random.Random, deadline: float | None = None) -> Push:
    """My best push against the push the opponent would choose by the same one-ply rule."""
    guess = best_push(state, 1, rng, deadline=deadline)
    return best_push(state, 0, rng, against=guess, deadline=deadline)


def _heading(state: XmasRushState, seat: int, reach: int) -> list[int]:
    """Cells worth heading for: revealed quest items out of reach, else my other items, else the centre."""
    where = state.item_cells()
    revealed = [where[code] for code in state.quests[seat]
                if where.get(code, -1) >= 0 and not reach >> where[code] & 1]
    if revealed:
        return revealed
    mine = [cell for code, cell in where.items() if cell >= 0 and (code - 1) & 1 == seat
            and code not in state.quests[seat]]
    return mine or [CENTRE]


def choose_move(state: XmasRushState, seat: int = 0) -> Move:
    east, south = state.connections()
    start = state.pos[seat]
    reach = state.reachable(seat)
    plans = plan_moves(east, south, start, state.quest_cells(seat))
    goals = _heading(state, seat, reach)
    best_key, best = None, (start, ())
    for cell, (steps, picked) in plans.items():
        key = (picked, -min(manhattan(cell, goal) for goal in goals), -len(steps))
        if best_key is None or key > best_key:
            best_key, best = key, (cell, steps)
    cell, steps = best
    return Move(steps, cell)


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    rng = random.Random(options.seed)
    reader = TurnReader(options.league)
    clock = TurnClock(margin_ms=options.margin_ms)
    while True:
        state = reader.read()
        deadline = clock.start_turn()
        if state.is_push_turn():
            answer(str(choose_push(state, rng, deadline)))
        else:
            answer(str(choose_move(state)))


if __name__ == "__main__":
    main()
