"""Builds whenever it can, else puts the card on the waste pile where it blocks the least.

A card's distance is how many cards its nearest foundation still needs before it (0: it fits
now). A card may go on a pile whose top is needed no sooner than itself; among those the bot
takes the tightest fit (the smallest distance gap), an empty pile counting as a gap of
--empty-gap. When every top is needed sooner, it buries the top that is needed last.
(bots/calculation/_policy.py; the search bots' playouts can use the same rule.)
"""
from __future__ import annotations

import argparse
import time

from bots.calculation._input import read_init, read_turn
from bots.calculation._policy import EMPTY_GAP, greedy_action
from bots.runtime import add_fixed_policy_arguments, answer, report
from referee.games.calculation.codec import action_text


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--empty-gap", type=int, default=EMPTY_GAP,
                        help=f"the distance gap an empty waste pile counts as (default: {EMPTY_GAP})")
    add_fixed_policy_arguments(parser, uses_seed=False)
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    read_init()
    while True:
        state = read_turn()
        started = time.perf_counter()
        answer(action_text(greedy_action(state, options.empty_gap)))
        report(iterations=0, depth=0, elapsed_ms=round((time.perf_counter() - started) * 1000, 1))


if __name__ == "__main__":
    main()
