"""Monte Carlo tree search (UCB1) with fast random playouts; optional playout cut scored by discs."""
from __future__ import annotations

import argparse

from bots.othello._input import play_turns
from bots.othello.pmc import add_playout_arguments, cut_evaluation, fast_playout
from bots.search.alternating import mcts


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--c", type=float, default=1.0, help="UCB1 exploration constant (default: 1.0)")
    parser.add_argument("--expand-threshold", type=int, default=10,
                        help="visits before a leaf's children are added (default: 10)")
    add_playout_arguments(parser)
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    evaluate = cut_evaluation(options)
    play_turns(options, lambda state, deadline, rng: mcts(
        state, rng=rng, deadline=deadline, iterations=options.iterations, c=options.c,
        expand_threshold=options.expand_threshold, playout_depth=options.depth,
        evaluate=evaluate, playout=fast_playout))


if __name__ == "__main__":
    main()
