"""Othello speed figures: move generation, random playouts, and the search bots' work rates.

Run: ``.venv/bin/python -m tests.perf.othello [--seconds S]``. Prints one line per figure,
per CPU second of this process; compare runs made back to back all the same.
"""
from __future__ import annotations

import argparse
import random
import time

from bots.othello._evaluation import Evaluation, OrderedState
from bots.othello.pmc import fast_playout
from bots.search.alternating import alphabeta, minimax, pmc
from bots.search.deadline import Deadline
from referee.games.othello.rules import OthelloState, flips, legal_moves, random_playout


def midgame_positions(count: int, plies: int, seed: int) -> list[OthelloState]:
    """Positions ``plies`` random moves into random games (games that end sooner are skipped)."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = OthelloState()
        for _ in range(plies):
            if state.over:
                break
            state.play(rng.choice(state.legal_actions()))
        if not state.over:
            positions.append(state)
    return positions


def rate(work, seconds: float) -> float:
    """Units of work per CPU second of this process (``work()`` returns how many it did).

    CPU time rather than wall time, so other programs on a busy machine do not count against
    the figure (they still slow it a little through shared caches).
    """
    done, started = 0, time.process_time()
    while time.process_time() - started < seconds:
        done += work()
    return done / (time.process_time() - started)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU time per figure (default: 2)")
    options = parser.parse_args(argv)
    seconds = options.seconds
    positions = midgame_positions(50, 20, seed=1)
    boards = [state.mine_theirs() for state in positions]
    def legal_count():
        return sum(1 for mine, theirs in boards if legal_moves(mine, theirs) >= 0)
    print(f"legal_moves:        {rate(legal_count, seconds):>10,.0f} calls/s")
    moves = [(mine, theirs, (legal_moves(mine, theirs) & -legal_moves(mine, theirs)).bit_length() - 1)
             for mine, theirs in boards]

    def flip_count():
        return sum(1 for mine, theirs, square in moves if flips(mine, theirs, square) >= 0)
    print(f"flips:              {rate(flip_count, seconds):>10,.0f} calls/s")
    start = OthelloState()
    rng = random.Random(2)

    def playout():
        return random_playout(*start.mine_theirs(), rng.random) and 1
    print(f"random playout:     {rate(playout, seconds):>10,.0f} playouts/s (from the opening)")
    root = OrderedState.of(positions[0])

    def pmc_search(deadline):
        return pmc(root, rng=rng, deadline=deadline, playout=fast_playout)
    print(f"pmc bot:            {search_rate(pmc_search, seconds):>10,.0f} playouts/s (20 plies in)")
    evaluate = Evaluation().value

    def evaluations():
        return sum(1 for state in positions if evaluate(state, 0) >= 0)
    print(f"evaluation:         {rate(evaluations, seconds):>10,.0f} calls/s")

    def minimax_3(deadline):
        return minimax(root, 3, evaluate=evaluate, deadline=deadline)

    def alphabeta_5(deadline):
        return alphabeta(root, 5, evaluate=evaluate, deadline=deadline)
    print(f"minimax depth 3:    {search_rate(minimax_3, seconds):>10,.0f} nodes/s")
    print(f"alphabeta depth 5:  {search_rate(alphabeta_5, seconds):>10,.0f} nodes/s")


def search_rate(search, seconds: float) -> float:
    """A search's iterations per CPU second, over searches of 0.2 s (wall) each."""
    return rate(lambda: search(Deadline.after(0.2)).iterations, seconds)


if __name__ == "__main__":
    main()
