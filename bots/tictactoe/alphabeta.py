"""Alpha-beta with iterative deepening under the turn's time limit (the whole game fits: perfect play)."""
from __future__ import annotations

from bots.tictactoe._play import deepening_parser, play_deepening


def build_parser():
    return deepening_parser(__doc__)


def main(argv: list[str] | None = None) -> None:
    play_deepening(build_parser().parse_args(argv), pruned=True)


if __name__ == "__main__":
    main()
