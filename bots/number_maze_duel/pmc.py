"""Primitive Monte Carlo: each own move in turn against a random reply, then a random playout."""
from __future__ import annotations

from bots.number_maze_duel._play import play, search_keywords, search_parser
from bots.search.simultaneous import pmc
from bots.turns import add_playouts_option


def build_parser():
    parser = search_parser(__doc__)
    add_playouts_option(parser)
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    play(options, lambda state, rng, budget: pmc(
        state, 0, rng=rng, playouts_per_action=options.playouts_per_action, **search_keywords(options),
        **budget))


if __name__ == "__main__":
    main()
