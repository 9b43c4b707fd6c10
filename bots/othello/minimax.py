"""Plain minimax to a fixed depth with the shared evaluation (seed 001's MiniMax, default depth 2)."""
from __future__ import annotations

import argparse

from bots.othello._evaluation import add_evaluation_arguments, evaluation_from
from bots.othello._input import add_clock_arguments, play_turns
from bots.search.alternating import minimax


def fixed_depth_parser(description: str, depth: int) -> argparse.ArgumentParser:
    """The options of a fixed-depth search bot: --depth, the evaluation's weights, the budget."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--depth", type=int, default=depth, help=f"plies searched (default: {depth})")
    add_evaluation_arguments(parser)
    add_clock_arguments(parser, "nodes")
    return parser


def fixed_depth_main(search, parser: argparse.ArgumentParser, argv: list[str] | None) -> None:
    """Play every turn with ``search(state, depth, ...)`` (minimax or alphabeta)."""
    options = parser.parse_args(argv)
    evaluate = evaluation_from(options).value
    play_turns(options, lambda state, deadline, rng: search(
        state, options.depth, evaluate=evaluate, deadline=deadline, iterations=options.iterations))


def build_parser() -> argparse.ArgumentParser:
    return fixed_depth_parser(__doc__, depth=2)


def main(argv: list[str] | None = None) -> None:
    fixed_depth_main(minimax, build_parser(), argv)


if __name__ == "__main__":
    main()
