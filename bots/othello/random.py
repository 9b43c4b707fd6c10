"""Plays a uniformly random legal move."""
from __future__ import annotations

import argparse
import random

from bots.othello._input import read_init, read_turn
from bots.runtime import answer
from referee.games.othello.codec import action_text


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: from the OS)")
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    rng = random.Random(options.seed)
    my_id = read_init()
    while True:
        _, moves = read_turn(my_id)
        answer(action_text(rng.choice(moves)))


if __name__ == "__main__":
    main()
