"""Plays a uniformly random legal action: any of the 28 pushes; PASS or a path to a random reachable cell."""
from __future__ import annotations

import argparse
import random

from bots.runtime import answer
from bots.xmas_rush._input import TurnReader


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: from the OS)")
    parser.add_argument("--margin-ms", type=float, default=10,
                        help="time kept in reserve per turn (the bot answers at once anyway)")
    parser.add_argument("--league", type=int, default=6, help="CodinGame league level of the game")
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    rng = random.Random(options.seed)
    reader = TurnReader(options.league)
    while True:
        state = reader.read()
        answer(str(rng.choice(state.legal_actions(0))))


if __name__ == "__main__":
    main()
