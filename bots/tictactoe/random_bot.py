"""Plays a uniformly random valid cell."""
from __future__ import annotations

import argparse
import random

from bots.runtime import answer, read_line, read_lines


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: from the OS)")
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    rng = random.Random(options.seed)
    while True:
        read_line()                                    # the opponent's last move
        cells = read_lines(int(read_line()))
        answer(rng.choice(cells))


if __name__ == "__main__":
    main()
