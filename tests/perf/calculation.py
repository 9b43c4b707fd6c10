"""Calculation speed figures: playouts per second early in a deal, and the search bots' rates.

Run: ``.venv/bin/python -m tests.perf.calculation [--seconds S]``. Figures are per CPU second
of this process; compare runs made back to back all the same.
"""
from __future__ import annotations

import argparse
import random

from bots.calculation._belief import Belief, build_first_playout, playout_with
from bots.calculation._policy import greedy_action
from bots.calculation.mcts import infoset_mcts
from bots.search.chance import simple_tree
from referee.games.calculation.rules import CalculationState
from tests.perf.othello import rate, search_rate


def position_with_choices(seed: int, actions: int = 3) -> Belief:
    """The first position of a greedy game with at least ``actions`` distinct actions."""
    state = CalculationState.deal(seed)
    while len(Belief.of(state).legal_actions()) < actions:
        state.play(greedy_action(state))
    return Belief.of(state)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU time per figure (default: 2)")
    seconds = parser.parse_args(argv).seconds
    rng = random.Random(1)
    root = position_with_choices(seed=1)

    def playouts(share: float):
        def one() -> int:
            build_first_playout(root.clone(), rng, None, share)
            return 1
        return one

    for share in (0.0, 0.5, 1.0):
        print(f"playout, greedy share {share:.1f}: {rate(playouts(share), seconds):>9,.0f} playouts/s")
    for name, search in (
            ("simple_tree level 2 width 5", lambda deadline: simple_tree(
                root, rng=rng, levels=2, playouts=5, deadline=deadline, playout=playout_with(0.5))),
            ("mcts (information sets)", lambda deadline: infoset_mcts(
                root, deadline, rng, iterations=None, playout=playout_with(0.5)))):
        print(f"{name + ':':<32} {search_rate(search, seconds):>9,.0f} playouts/s")


if __name__ == "__main__":
    main()
