"""DUCT: decoupled UCT, each player choosing by UCB1 on its own statistics; plays its most visited move."""
from __future__ import annotations

from bots.number_maze_duel._play import play_tree, tree_parser
from bots.search.simultaneous import duct


def build_parser():
    return tree_parser(__doc__)


def main(argv: list[str] | None = None) -> None:
    play_tree(build_parser().parse_args(argv), duct)


if __name__ == "__main__":
    main()
