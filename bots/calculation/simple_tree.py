"""Simple-tree Monte Carlo (seed 004): expand --level steps, --width playouts at every leaf.

Choices take the best child, chance steps (the next card) average over the ranks still unseen,
weighted by how many of each are left; a level counts choices and chance steps alike, as in
the seed. Levels deepen 1, 2, ... --level while the turn's time lasts. Playouts build
whenever they can and put other cards on a waste pile (see --greedy-share).
"""
from __future__ import annotations

import argparse

from bots.calculation._belief import playout_with
from bots.calculation._play import REWARDS, add_common_arguments, play_turns
from bots.search.chance import simple_tree


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", type=int, default=2,
                        help="steps expanded below the root, chance steps included (default: 2)")
    parser.add_argument("--width", type=int, default=5, help="playouts per leaf (default: 5)")
    add_common_arguments(parser, "playouts")
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    if options.level < 1 or options.width < 1:
        raise SystemExit("--level and --width must be >= 1")
    evaluate = REWARDS[options.reward]
    play_turns(options, lambda belief, deadline, rng: simple_tree(
        belief, rng=rng, levels=options.level, playouts=options.width, deadline=deadline,
        iterations=options.iterations, evaluate=evaluate, playout=playout_with(options.greedy_share)))


if __name__ == "__main__":
    main()
