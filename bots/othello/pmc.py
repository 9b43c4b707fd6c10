"""Primitive Monte Carlo (seed 001): random playouts after each move in turn; best mean result wins.

A playout scores 1 for a win, 0.5 for a draw, 0 for a loss. With --depth a playout stops after
that many moves and is scored by who leads on discs (the seed's rule) or, with
--cut-eval heuristic, by the shared evaluation.
"""
from __future__ import annotations

import argparse

from bots.othello._evaluation import add_evaluation_arguments, disc_value, evaluation_from
from bots.othello._input import add_clock_arguments, play_turns
from bots.search.alternating import pmc


def fast_playout(state, rng, max_turns: int | None) -> None:
    """The library's playout hook on the bitboard playout (random moves, forced passes)."""
    state.playout(rng.random, 64 if max_turns is None else max_turns)


def add_playout_arguments(parser: argparse.ArgumentParser) -> None:
    """--depth and --cut-eval (with the evaluation's weights), shared with the MCTS bot."""
    parser.add_argument("--depth", type=int, default=None,
                        help="cut playouts after this many moves (default: play to the end)")
    parser.add_argument("--cut-eval", choices=("discs", "heuristic"), default="discs",
                        help="how a cut playout is scored (default: discs)")
    add_evaluation_arguments(parser)
    add_clock_arguments(parser, "playouts")


def cut_evaluation(options):
    return disc_value if options.cut_eval == "discs" else evaluation_from(options).value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--playouts-per-action", type=int, default=None, metavar="N",
                        help="at most N playouts per legal move (default: until the budget ends)")
    add_playout_arguments(parser)
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    evaluate = cut_evaluation(options)
    play_turns(options, lambda state, deadline, rng: pmc(
        state, rng=rng, deadline=deadline, iterations=options.iterations,
        playouts_per_action=options.playouts_per_action, playout_depth=options.depth,
        evaluate=evaluate, playout=fast_playout))


if __name__ == "__main__":
    main()
