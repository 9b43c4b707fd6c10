"""Work rates of the search library on the built-in games: iterations per second and per turn.

Run: ``.venv/bin/python -m tests.perf.search [--ms 50] [--turns 20] [--only duct]``. Each
figure runs its search for ``--turns`` turns of ``--ms`` milliseconds on fixed positions and
prints the iterations per wall-clock second, per CPU second (what an idle core would give) and
per turn, in each search's own unit (nodes, expanded states or playouts). A loaded machine
lowers the wall-clock figures a lot and the CPU figures by tens of percent: compare runs made
back to back.
"""
from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from bots.number_maze_duel._play import evaluate as lead_value
from bots.number_maze_duel._play import playout as maze_playout
from bots.search import alternating, hybrid, simultaneous, single
from bots.search.choice import Choice
from bots.search.deadline import Deadline
from referee.games.number_maze.rules import NumberMazeState
from referee.games.number_maze_duel.rules import NumberMazeDuelState
from referee.games.tictactoe.rules import TicTacToeState

Figure = tuple[str, str, Callable[[], object], Callable[[object, random.Random, Deadline], Choice]]


def tictactoe() -> TicTacToeState:
    state = TicTacToeState()
    state.play(4)
    return state


def duel() -> NumberMazeDuelState:
    return NumberMazeDuelState.generate(1, 5, 5, 20)


def maze() -> NumberMazeState:
    return NumberMazeState.generate(1, 7, 7, 16)


def xmas_rush():
    from referee.games.xmas_rush.rules import XmasRushState
    return XmasRushState.new_game(1)


def xmas_value(state, seat: int) -> float:
    """A stand-in evaluation (quests done, normalized): the real one belongs to the xmas_rush bots."""
    mine, theirs = state.scores()[seat], state.scores()[1 - seat]
    return 0.5 + (mine - theirs) / 24


FIGURES: list[Figure] = [
    ("tictactoe alphabeta (iterative deepening)", "nodes", tictactoe,
     lambda s, rng, d: alternating.iterative_deepening(s, deadline=d)),
    ("tictactoe minimax depth 8", "nodes", tictactoe,
     lambda s, rng, d: alternating.minimax(s, 8, deadline=d)),
    ("tictactoe mcts", "playouts", tictactoe, lambda s, rng, d: alternating.mcts(s, rng=rng, deadline=d)),
    ("tictactoe pmc", "playouts", tictactoe, lambda s, rng, d: alternating.pmc(s, rng=rng, deadline=d)),
    ("number_maze beam width 50", "states", maze, lambda s, rng, d: single.beam(s, width=50, deadline=d)),
    ("number_maze chokudai width 1", "states", maze,
     lambda s, rng, d: single.chokudai(s, depth=16, deadline=d)),
    ("number_maze_duel pmc (generic playout)", "playouts", duel,
     lambda s, rng, d: simultaneous.pmc(s, 0, rng=rng, deadline=d)),
    ("number_maze_duel pmc (bot playout)", "playouts", duel,
     lambda s, rng, d: simultaneous.pmc(s, 0, rng=rng, deadline=d, playout=maze_playout)),
    ("number_maze_duel mcts open loop (bot playout)", "playouts", duel,
     lambda s, rng, d: simultaneous.mcts(s, 0, rng=rng, deadline=d, playout=maze_playout)),
    ("number_maze_duel duct (generic playout)", "playouts", duel,
     lambda s, rng, d: simultaneous.duct(s, 0, rng=rng, deadline=d)),
    ("number_maze_duel duct (bot playout)", "playouts", duel,
     lambda s, rng, d: simultaneous.duct(s, 0, rng=rng, deadline=d, playout=maze_playout)),
    ("number_maze_duel duct depth 2 + evaluation", "playouts", duel,
     lambda s, rng, d: simultaneous.duct(s, 0, rng=rng, deadline=d, playout=maze_playout,
                                         playout_depth=2, evaluate=lead_value)),
    ("number_maze_duel hybrid keep 2 depth 2", "playouts", duel,
     lambda s, rng, d: hybrid.hybrid(s, 0, rng=rng, deadline=d, keep=2, playout=maze_playout,
                                     evaluate=lead_value)),
    ("xmas_rush duct depth 2 (generic playout)", "playouts", xmas_rush,
     lambda s, rng, d: simultaneous.duct(s, 0, rng=rng, deadline=d, playout_depth=2, evaluate=xmas_value)),
]


def measure(make, search, milliseconds: float, turns: int, seed: int = 1) -> tuple[float, float, float, int]:
    """(iterations per wall second, per CPU second, mean per turn, deepest depth) over ``turns``
    searches of ``milliseconds`` each (the CPU figure is what an idle machine would give)."""
    rng = random.Random(seed)
    state = make()
    done = deepest = 0
    wall = cpu = 0.0
    for _ in range(turns):
        started, started_cpu = time.perf_counter(), time.process_time()
        choice = search(state, rng, Deadline.after_ms(milliseconds))
        wall += time.perf_counter() - started
        cpu += time.process_time() - started_cpu
        done += choice.iterations
        deepest = max(deepest, choice.depth)
    return done / wall, done / max(cpu, 1e-9), done / turns, deepest


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ms", type=float, default=50.0, help="milliseconds per search (default: 50)")
    parser.add_argument("--turns", type=int, default=20, help="searches per figure (default: 20)")
    parser.add_argument("--only", default="", help="run only the figures whose name contains this text")
    options = parser.parse_args(argv)
    print(f"{'search':<46} {'per second':>11} {'per CPU s':>10} {f'per {options.ms:g} ms':>10}  "
          "unit      depth")
    for name, unit, make, search in FIGURES:
        if options.only not in name:
            continue
        per_second, per_cpu_second, per_turn, deepest = measure(make, search, options.ms, options.turns)
        print(f"{name:<46} {per_second:>11,.0f} {per_cpu_second:>10,.0f} {per_turn:>10,.0f}  {unit:<9} "
              f"{deepest:>5}", flush=True)


if __name__ == "__main__":
    main()
