"""Plays a uniformly random legal action (builds, waste placements and waste moves alike)."""
from __future__ import annotations

import argparse
import random

from bots.calculation._input import read_init, read_turn
from bots.runtime import answer
from referee.games.calculation.codec import action_text


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: from the OS)")
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    rng = random.Random(options.seed)
    read_init()
    while True:
        state = read_turn()
        answer(action_text(rng.choice(state.legal_actions())))


if __name__ == "__main__":
    main()
