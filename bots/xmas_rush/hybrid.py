"""Minimax-pruned DUCT (seed 002): a one-ply minimax keeps both players' --keep best pushes, then
DUCT over that matrix.

1. the opponent is limited to its --replies best pushes by their value alone;
2. each own push's worst evaluation over those replies (two pushes of one line cancel, so those
   pairs are left out of the minimum, as the seed does) keeps the best --keep; the same matrix
   from the opponent's side keeps its --keep replies with the best worst case (--opponent-pruning
   search: a short DUCT run on --opponent-share of the time instead);
3. DUCT over the --keep x --keep matrix with the rest of the time, playouts cut after --depth
   game turns and scored by the shared reachability evaluation; the most visited push is played.

MOVE turns skip the pruning (see ``keep_on``): DUCT over the bot's best-collecting paths.
"""
from __future__ import annotations

from bots.search.hybrid import hybrid
from bots.xmas_rush._model import random_playout, same_line
from bots.xmas_rush._play import add_tree_arguments, play, search_parser


def build_parser():
    parser = search_parser(__doc__.splitlines()[0])
    parser.add_argument("--keep", type=int, default=5, metavar="N",
                        help="actions kept per player after pruning (default: 5)")
    parser.add_argument("--opponent-pruning", choices=("minimax", "search"), default="minimax",
                        help="keep the opponent's best replies by their worst case in the one-ply "
                             "matrix (minimax), or by a short DUCT run (search) (default: minimax)")
    parser.add_argument("--opponent-share", type=float, default=0.15, metavar="F",
                        help="with --opponent-pruning search: share of the search time that run "
                             "takes (default: 0.15)")
    parser.add_argument("--matrix-share", type=float, default=0.6, metavar="F",
                        help="most of the time the one-ply matrix may take; pushes it did not reach "
                             "(the weakest alone) are dropped (default: 0.6)")
    parser.add_argument("--replies", type=int, default=8, metavar="K",
                        help="opponent pushes the matrix and the search consider: its K best by "
                             "their value alone (default: 8; 28 is all)")
    add_tree_arguments(parser)
    return parser


def keep_on(root, keep: int) -> int:
    """The pruning width: ``keep`` on PUSH turns; on MOVE turns every path is kept, since the
    position right after a MOVE tells its end cells apart only by what they collect."""
    return keep if root.is_push_turn() else max(keep, len(root.legal_actions(0)))


def with_replies(root, replies: int):
    """``root`` with the opponent limited to its ``replies`` best pushes (ranked by the root)."""
    if root.is_push_turn() and replies < 28:
        root.root_actions = (root.root_actions[0], root.legal_actions(1)[:replies])
    return root


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    play(options, lambda root, rng, budget, evaluation: hybrid(
        with_replies(root, options.replies), 0, rng=rng, keep=keep_on(root, options.keep),
        playout_depth=options.depth,
        opponent_share=options.opponent_share, c=options.c,
        expand_threshold=options.expand_threshold, evaluate=evaluation, playout=random_playout,
        ignore_pair=same_line, matrix_share=options.matrix_share,
        opponent_pruning=options.opponent_pruning, **budget))


if __name__ == "__main__":
    main()
