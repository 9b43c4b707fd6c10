"""``botarena match``: BOT_A against BOT_B over seat-swapped pairs, with Elo, LOS and SPRT."""
from __future__ import annotations

import json

from referee.api import UsageError
from tools import stats
from tools.arena.headtohead import play_head_to_head
from tools.arena.printable import printable
from tools.arena.tally import summary_lines
from tools.cli.options import add_run_arguments, match_games, run_settings


def register(commands) -> None:
    parser = commands.add_parser(
        "match", help="play BOT_A against BOT_B: Elo with a 95 %% interval, LOS, SPRT",
        description="Play BOT_A against BOT_B in pairs of games (each seed twice, seats swapped; "
        "in a game of 3 or more players, each seed once per seating: BOT_A in every seat, BOT_B "
        "in the others) and report from BOT_A's point of view.")
    parser.add_argument("game")
    parser.add_argument("bot_a", metavar="BOT_A")
    parser.add_argument("bot_b", metavar="BOT_B")
    add_run_arguments(parser, games_default=100, games_help="number of games (the most, with --sprt)")
    parser.add_argument("--sprt", metavar="elo0=0,elo1=10,alpha=0.05,beta=0.05",
                        help="sequential test over pairs: stop as soon as H1 (BOT_A is elo1 "
                        "stronger) or H0 (it is only elo0 stronger) is accepted; -n caps the games")
    parser.set_defaults(func=run)


def run(args) -> int:
    sprt = None
    if args.sprt is not None:
        try:
            sprt = stats.parse_sprt(args.sprt)
        except ValueError as error:
            raise UsageError(f"--sprt {args.sprt!r}: {error}") from None
    settings = run_settings(args)
    result = play_head_to_head(settings, args.bot_a, args.bot_b,
                               games=match_games(args, settings), sprt=sprt)
    if args.json:
        print(json.dumps(result.summary))
    else:
        lines = summary_lines(result.summary)
        if sprt is not None:
            lines.append(sprt_text(result.summary["sprt"], interrupted=result.interrupted))
        if result.players > 2:
            lines.insert(1, _seating_text(result.players))
        print(printable("\n".join(lines + result.status_lines), keep_newlines=True))
    return 130 if result.interrupted else 0


def _seating_text(players: int) -> str:
    return (f"  {players}-player game: BOT_A took each seat once per seed, BOT_B the other "
            f"{players - 1} seats, so seat advantage cancels; each game counts as {players - 1} "
            "results of BOT_A against one BOT_B (rank against rank), seat-swapped pairs within "
            "a seed")


def sprt_text(sprt: dict, *, interrupted: bool = False) -> str:
    lower, upper = sprt["bounds"]
    head = (f"  SPRT elo0={sprt['elo0']:g} elo1={sprt['elo1']:g} alpha={sprt['alpha']:g} "
            f"beta={sprt['beta']:g}: LLR {sprt['llr']:+.3f} (bounds {lower:+.3f}, {upper:+.3f})")
    if sprt["result"] == "H1":
        return head + f"  H1 accepted after {sprt['decided_at_pairs']} pairs: BOT_A is stronger"
    if sprt["result"] == "H0":
        return head + f"  H0 accepted after {sprt['decided_at_pairs']} pairs: no gain of elo1"
    if interrupted:                 # -n was not the limit: the status line says how to go on
        return head + "  no decision yet (the run was interrupted first)"
    return head + "  no decision yet (play more games: raise -n)"
