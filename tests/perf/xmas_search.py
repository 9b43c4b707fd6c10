"""Xmas Rush search speed: playouts per 50 ms turn for the DUCT, hybrid and pmc bots (issue 4's target:
DUCT >= 1,000 iterations per 50 ms at playout depth 2 on one core of CPython 3.11).

Run: ``.venv/bin/python -m tests.perf.xmas_search [--turns N] [--depth D]``. Each search runs
on PUSH-turn positions of real games (greedy against greedy) for a 50 ms deadline, as the bots
do, and prints the median iterations per turn by the wall clock; since other processes on a
shared machine steal time, it also runs searches of a fixed number of iterations (--fixed, about
an idle core's turn) and prints their rate per 50 ms of this process's CPU time (the figure to
compare with the target). The hybrid's CPU figure includes its one-ply matrix.
"""
from __future__ import annotations

import argparse
import gc
import random
import statistics
import time

from bots.search.deadline import Deadline
from bots.search.hybrid import hybrid
from bots.search.simultaneous import duct, pmc
from bots.xmas_rush._evaluation import Evaluation, ranked_pushes
from bots.xmas_rush._model import SearchState, random_playout, same_line
from bots.xmas_rush._play import C
from bots.xmas_rush.greedy import choose_move, choose_push
from referee.games.xmas_rush.rules import XmasRushState, new_state

TURN_MS = 50
REPLIES = 8                     # the hybrid bot's --replies


def push_positions(count: int, seed: int) -> list[XmasRushState]:
    """PUSH-turn positions from greedy-vs-greedy games, a few turns apart."""
    rng = random.Random(seed)
    positions = []
    game = 0
    while len(positions) < count:
        state = new_state(seed * 1000 + game)
        game += 1
        while not state.is_over() and len(positions) < count:
            if state.is_push_turn():
                if state.turn % 6 == 2:
                    positions.append(state.clone())
                flipped = _mirror_push(state, rng)
                state.apply((choose_push(state, rng), flipped))
            else:
                state.apply((choose_move(state, 0), choose_move(state, 1)))
    return positions


def _mirror_push(state: XmasRushState, rng: random.Random):
    return choose_push(state, rng) if rng.random() < 0.5 else rng.choice(state.legal_actions(1))


SEARCHES = {               # as the bots call them, with their default options
    "duct": lambda root, rng, evaluation, depth, **budget: duct(
        root, 0, rng=rng, c=C, playout_depth=depth, evaluate=evaluation, playout=random_playout,
        **budget),
    "hybrid": lambda root, rng, evaluation, depth, **budget: hybrid(
        root, 0, rng=rng, c=C, playout_depth=depth, evaluate=evaluation, playout=random_playout,
        ignore_pair=same_line, matrix_share=0.6, opponent_pruning="minimax", keep=5, **budget),
    "pmc": lambda root, rng, evaluation, depth, **budget: pmc(
        root, 0, rng=rng, playout_depth=depth, evaluate=evaluation, playout=random_playout, **budget),
}


def _root(name: str, state: XmasRushState) -> SearchState:
    """The root the bot would search: both seats' pushes ranked, the hybrid's replies limited."""
    root = SearchState.from_rules(state)
    replies = ranked_pushes(root, 1)
    root.root_actions = (ranked_pushes(root, 0), replies[:REPLIES] if name == "hybrid" else replies)
    return root


def measure(name: str, positions: list[XmasRushState], depth: int, fixed: int) -> tuple[float, float]:
    """Median iterations per 50 ms turn by the wall clock, and iterations per 50 ms of CPU time
    over searches of ``fixed`` iterations each (the size of a turn on an idle core)."""
    search = SEARCHES[name]
    rng = random.Random(7)
    gc.disable()                # as the bots do
    wall = []
    for state in positions:
        root = _root(name, state)
        deadline = Deadline.after_ms(TURN_MS)
        wall.append(search(root, rng, Evaluation(root), depth, deadline=deadline).iterations)
    done, used = 0, 0.0
    for state in positions:
        root = _root(name, state)
        evaluation = Evaluation(root)
        cpu_start = time.process_time()
        done += search(root, rng, evaluation, depth, iterations=fixed).iterations
        used += time.process_time() - cpu_start
    return statistics.median(wall), done * TURN_MS / 1000 / used


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=40, help="positions searched per bot (default: 40)")
    parser.add_argument("--depth", type=int, default=2, help="playout depth in game turns (default: 2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games the positions come from")
    parser.add_argument("--fixed", type=int, default=1000,
                        help="iterations per search for the CPU-time figure (default: 1000)")
    options = parser.parse_args(argv)
    positions = push_positions(options.turns, options.seed)
    print(f"{len(positions)} PUSH-turn positions, {TURN_MS} ms per turn, playout depth {options.depth}")
    for name in SEARCHES:
        wall, cpu = measure(name, positions, options.depth, options.fixed)
        print(f"{name:7s} iterations per turn: median {wall:7,.0f} by the wall clock;   "
              f"{cpu:7,.0f} per {TURN_MS} ms of CPU ({options.fixed}-iteration searches)")


if __name__ == "__main__":
    main()
