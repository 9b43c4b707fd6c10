"""Plays a uniformly random valid cell."""
from __future__ import annotations

from bots.runtime import play_random, random_bot_parser, read_line, read_lines


def build_parser():
    return random_bot_parser(__doc__)


def read_cells(_init) -> list[str]:
    read_line()                                    # the opponent's last move
    return read_lines(int(read_line()))            # the valid cells, answered as they are written


def main(argv: list[str] | None = None) -> None:
    play_random(build_parser().parse_args(argv), read_cells)


if __name__ == "__main__":
    main()
