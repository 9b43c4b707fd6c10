"""Chokudai search: narrow beams over the turns left, pass after pass, until the deadline."""
from __future__ import annotations

from bots.number_maze._play import play, search_parser
from bots.search.single import chokudai


def build_parser():
    parser = search_parser(__doc__)
    parser.add_argument("--width", type=int, default=1, help="states taken per level in each pass")
    parser.add_argument("--depth", type=int, default=None,
                        help="levels (turns) searched (default: none, to the end of the game)")
    parser.add_argument("--beams", type=int, default=None,
                        help="passes per turn (default: none, until the deadline)")
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)

    def search(state, rng, budget):
        depth = options.depth if options.depth is not None else state.turns - state.turn
        return chokudai(state, depth=max(depth, 1), width=options.width, beams=options.beams, **budget)

    play(options, search)


if __name__ == "__main__":
    main()
