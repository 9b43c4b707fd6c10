"""Plays a uniformly random legal move."""
from __future__ import annotations

import argparse
import random
import time

from bots.othello._input import read_init, read_turn
from bots.runtime import add_fixed_policy_arguments, answer, report
from referee.games.othello.codec import action_text


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__)
    add_fixed_policy_arguments(parser, uses_seed=True)
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    rng = random.Random(options.seed)
    my_id = read_init()
    while True:
        _, moves = read_turn(my_id)
        started = time.perf_counter()
        answer(action_text(rng.choice(moves)))
        report(iterations=0, depth=0, elapsed_ms=round((time.perf_counter() - started) * 1000, 1))


if __name__ == "__main__":
    main()
