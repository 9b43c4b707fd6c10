"""Greedy: steps onto the neighbouring cell with the most points (the first such, in UP RIGHT DOWN
LEFT order)."""
from __future__ import annotations

from bots.number_maze._play import play, search_parser
from bots.search.single import greedy


def build_parser():
    return search_parser(__doc__)


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    play(options, lambda state, rng, budget: greedy(state))


if __name__ == "__main__":
    main()
