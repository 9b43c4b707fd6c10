"""Plain minimax to a fixed depth with the shared evaluation (seed 001's MiniMax, default depth 2)."""
from __future__ import annotations

import argparse

from bots.othello._evaluation import add_evaluation_arguments, evaluation_from
from bots.othello._input import add_clock_arguments, play_turns
from bots.search.alternating import minimax


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depth", type=int, default=2, help="plies searched (default: 2)")
    add_evaluation_arguments(parser)
    add_clock_arguments(parser, "nodes")
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    evaluate = evaluation_from(options).value
    play_turns(options, lambda state, deadline, rng: minimax(
        state, options.depth, evaluate=evaluate, deadline=deadline, iterations=options.iterations))


if __name__ == "__main__":
    main()
