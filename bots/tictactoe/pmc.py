"""Primitive Monte Carlo: random playouts after each move in turn; plays the best mean."""
from __future__ import annotations

from bots.search.alternating import pmc
from bots.tictactoe._play import play, search_parser
from bots.turns import add_playouts_option


def build_parser():
    parser = search_parser(__doc__, "playouts")
    add_playouts_option(parser)
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    play(options, lambda state, rng, budget: pmc(
        state, rng=rng, playouts_per_action=options.playouts_per_action, **budget))


if __name__ == "__main__":
    main()
