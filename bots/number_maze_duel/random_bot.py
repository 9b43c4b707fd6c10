"""Moves in a uniformly random open direction."""
from __future__ import annotations

import argparse
import random

from bots.runtime import answer, read_line, read_lines
from referee.games.number_maze_duel.codec import action_text, state_from_lines


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: from the OS)")
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    rng = random.Random(options.seed)
    init = [read_line()]
    height = int(init[0].split()[0])
    while True:
        state = state_from_lines(init, read_lines(3 + height))
        answer(action_text(rng.choice(state.legal_actions(0))))


if __name__ == "__main__":
    main()
