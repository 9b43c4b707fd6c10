"""Iterative-deepening alpha-beta with the shared evaluation: depth 1, 2, ... until the turn's time ends."""
from __future__ import annotations

import argparse

from bots.othello._evaluation import add_evaluation_arguments, evaluation_from
from bots.othello._input import add_clock_arguments, play_turns
from bots.search.alternating import iterative_deepening


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-depth", type=int, default=None,
                        help="never search deeper than this many plies (default: no limit)")
    add_evaluation_arguments(parser)
    add_clock_arguments(parser, "nodes (over all depths)")
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    evaluate = evaluation_from(options).value
    play_turns(options, lambda state, deadline, rng: iterative_deepening(
        state, deadline=deadline, iterations=options.iterations, max_depth=options.max_depth,
        evaluate=evaluate))


if __name__ == "__main__":
    main()
