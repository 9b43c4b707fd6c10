"""Alpha-beta to a fixed depth with the shared evaluation, corners first (default depth 3)."""
from __future__ import annotations

import argparse

from bots.othello._evaluation import add_evaluation_arguments, evaluation_from
from bots.othello._input import add_clock_arguments, play_turns
from bots.search.alternating import alphabeta


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depth", type=int, default=3, help="plies searched (default: 3)")
    add_evaluation_arguments(parser)
    add_clock_arguments(parser, "nodes")
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    evaluate = evaluation_from(options).value
    play_turns(options, lambda state, deadline, rng: alphabeta(
        state, options.depth, evaluate=evaluate, deadline=deadline, iterations=options.iterations))


if __name__ == "__main__":
    main()
