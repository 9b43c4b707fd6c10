"""Primitive Monte Carlo: each own action in turn against a random reply, a short playout, the
evaluation; best mean wins.

PUSH turns try the 28 pushes, MOVE turns the planned paths (see ``bots.xmas_rush._play``); the
opponent pushes at random and moves with ``AUTO``; playouts are cut after --depth game turns and
scored by the shared reachability evaluation (``bots.xmas_rush._evaluation``).
"""
from __future__ import annotations

from bots.search.simultaneous import pmc
from bots.xmas_rush._model import random_playout
from bots.xmas_rush._play import play, search_parser


def build_parser():
    parser = search_parser(__doc__.splitlines()[0])
    parser.add_argument("--playouts-per-action", type=int, default=None, metavar="N",
                        help="at most N playouts per action (default: until the budget ends)")
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    play(options, lambda root, rng, budget, evaluation: pmc(
        root, 0, rng=rng, playouts_per_action=options.playouts_per_action,
        playout_depth=options.depth, evaluate=evaluation, playout=random_playout, **budget),
        by_visits=False)


if __name__ == "__main__":
    main()
