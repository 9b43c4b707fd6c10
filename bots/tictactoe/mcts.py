"""Monte Carlo tree search with UCB1 and random playouts; plays the most visited move."""
from __future__ import annotations

from bots.search.alternating import mcts
from bots.tictactoe._play import play, search_parser
from bots.turns import add_uct_options


def build_parser():
    parser = search_parser(__doc__, "playouts")
    add_uct_options(parser, expand_threshold=10)
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    play(options, lambda state, rng, budget: mcts(
        state, rng=rng, c=options.c, expand_threshold=options.expand_threshold, **budget))


if __name__ == "__main__":
    main()
