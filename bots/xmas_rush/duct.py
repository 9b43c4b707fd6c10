"""DUCT: decoupled UCT over both players' pushes, playouts cut after --depth turns and evaluated;
plays its most visited action.

Each player picks by UCB1 on its own statistics at every node of the joint-action tree
(28 x 28 pushes on PUSH turns; on MOVE turns the bot's planned paths against the opponent's
``AUTO`` move, and ``AUTO`` for both deeper down); leaves are played out with random pushes
for --depth game turns and scored by the shared reachability evaluation.
"""
from __future__ import annotations

from bots.search.simultaneous import duct
from bots.xmas_rush._model import random_playout
from bots.xmas_rush._play import add_tree_arguments, play, search_parser


def build_parser():
    parser = search_parser(__doc__.splitlines()[0])
    add_tree_arguments(parser)
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    play(options, lambda root, rng, budget, evaluation: duct(
        root, 0, rng=rng, c=options.c, expand_threshold=options.expand_threshold,
        playout_depth=options.depth, evaluate=evaluation, playout=random_playout, **budget))


if __name__ == "__main__":
    main()
