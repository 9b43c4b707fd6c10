"""MCTS over its own moves only; the opponent moves at random, as part of the environment (open loop)."""
from __future__ import annotations

from bots.number_maze_duel._play import play_tree, tree_parser
from bots.search.simultaneous import mcts


def build_parser():
    return tree_parser(__doc__)


def main(argv: list[str] | None = None) -> None:
    play_tree(build_parser().parse_args(argv), mcts)


if __name__ == "__main__":
    main()
