"""Beam search: keeps the best --width paths per turn, to the end of the game or the deadline."""
from __future__ import annotations

from bots.number_maze._play import play, search_parser
from bots.search.single import beam


def build_parser():
    parser = search_parser(__doc__)
    parser.add_argument("--width", type=int, default=20, help="states kept per level")
    parser.add_argument("--depth", type=int, default=None,
                        help="levels (turns) to search (default: none, to the end of the game)")
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    play(options, lambda state, rng, budget: beam(state, width=options.width, depth=options.depth, **budget))


if __name__ == "__main__":
    main()
