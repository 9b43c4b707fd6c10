"""MCTS on determinized stocks: UCB1 trees on --determinizations guessed stock orders, votes summed.

Each guess shuffles the unseen cards into one stock order and runs MCTS on that deal as if the
order were known, with the same share of the budget; the root action with the most visits over
all guesses is played. Playouts build whenever they can and put other cards on a waste pile
(see --greedy-share).
"""
from __future__ import annotations

import argparse

from bots.calculation._belief import Deal, WinOnlyDeal, build_first_playout, playout_with
from bots.calculation._play import add_common_arguments, play_turns
from bots.search.alternating import mcts
from bots.search.choice import Choice
from bots.search.deadline import Deadline

DEALS = {"cards": Deal, "win": WinOnlyDeal}


def determinized_mcts(belief, deadline, rng, *, determinizations: int, iterations: int | None,
                      c: float, expand_threshold: int, deal_class=Deal,
                      playout=build_first_playout) -> Choice:
    """Sum the root visits of MCTS runs on ``determinizations`` guesses at the stock."""
    actions = belief.legal_actions()
    visits = dict.fromkeys(actions, 0)
    used = deepest = 0
    for index in range(determinizations):
        share_deadline = None
        if deadline is not None:
            share_deadline = deadline.share(1 / (determinizations - index))
        share = None if iterations is None else (iterations - used) // (determinizations - index)
        choice = mcts(deal_class.guess(belief, rng), rng=rng, deadline=share_deadline,
                      iterations=share, c=c, expand_threshold=expand_threshold,
                      playout=playout)
        used += choice.iterations
        deepest = max(deepest, choice.depth)
        for entry in choice.stats:
            if entry.action in visits:
                visits[entry.action] += entry.visits
        if not choice.stats and choice.action in visits:
            visits[choice.action] += 1
    best = max(actions, key=lambda action: (visits[action], -actions.index(action)))
    return Choice(best, used, deepest, visits[best] / max(used, 1))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--determinizations", type=int, default=8,
                        help="guessed stock orders per turn (default: 8)")
    parser.add_argument("--c", type=float, default=0.3, help="UCB1 exploration constant (default: 0.3)")
    parser.add_argument("--expand-threshold", type=int, default=3,
                        help="visits before a leaf's children are added (default: 3)")
    add_common_arguments(parser, "playouts (over all guesses)")
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    if options.determinizations < 1:
        raise SystemExit("--determinizations must be >= 1")
    play_turns(options, lambda belief, deadline, rng: determinized_mcts(
        belief, deadline, rng, determinizations=options.determinizations,
        iterations=options.iterations, c=options.c, expand_threshold=options.expand_threshold,
        deal_class=DEALS[options.reward], playout=playout_with(options.greedy_share)))


if __name__ == "__main__":
    main()
