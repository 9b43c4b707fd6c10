"""``botarena league``: a round robin (or a gauntlet) rated by a Bradley-Terry fit."""
from __future__ import annotations

import json

from tools.arena.league import play_league
from tools.arena.printable import printable
from tools.cli.options import add_run_arguments, match_games, run_settings


def register(commands) -> None:
    parser = commands.add_parser(
        "league", help="round robin or gauntlet between bots, Bradley-Terry ratings",
        description="Every bot plays every other (or, with --gauntlet, one bot plays each of the "
        "others) in seat-swapped pairs of games; in a game of 3 or more players, each lineup of "
        "bots is turned through every seating per seed, and a game counts as the pairwise results "
        "of its seats. Ratings by a Bradley-Terry fit on the Elo scale.")
    parser.add_argument("game")
    parser.add_argument("bots", nargs="+", metavar="BOT")
    add_run_arguments(parser, games_default=20, games_help="games per matchup")
    parser.add_argument("--gauntlet", metavar="BOT",
                        help="only this bot's matchups (it is added if not among the BOTs)")
    parser.add_argument("--anchor", metavar="BOT", help="rate this bot 0 (default: mean 0)")
    parser.set_defaults(func=run)


def run(args) -> int:
    settings = run_settings(args)
    result = play_league(settings, args.bots, games=match_games(args, settings),
                         gauntlet=args.gauntlet, anchor=args.anchor)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        standings = result.standings
        lines = [f"{result.game} league: {len(standings.names)} bots, {result.matchups} matchups, "
                 f"{standings.games} games"]
        if result.players > 2:
            lines[0] = (f"{result.game} league: {len(standings.names)} bots, "
                        f"{len(standings.lineups)} lineups of {result.players} (each rotated "
                        f"through the seats per seed), {standings.played_games} games, "
                        f"{standings.games} pairwise results")
        lines += standings.table_lines(result.ratings, result.anchor) + [""]
        order = [rating.name for rating in result.ratings]
        lines += standings.matrix_lines(order) + [""] + standings.win_matrix_lines(order)
        print(printable("\n".join(lines + result.status_lines), keep_newlines=True))
    return 130 if result.interrupted else 0
