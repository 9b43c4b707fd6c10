"""``botarena league``: a round robin (or a gauntlet) rated by a Bradley-Terry fit."""
from __future__ import annotations

import json

from referee.api import UsageError
from tools.arena.standings import Standings, gauntlet, round_robin
from tools.arena.tournament import Tournament, pair_count
from tools.cli.options import add_run_arguments


def register(commands) -> None:
    parser = commands.add_parser(
        "league", help="round robin or gauntlet between bots, Bradley-Terry ratings",
        description="Every bot plays every other (or, with --gauntlet, one bot plays each of the "
        "others) in seat-swapped pairs; ratings by a Bradley-Terry fit on the Elo scale.")
    parser.add_argument("game")
    parser.add_argument("bots", nargs="+", metavar="BOT")
    add_run_arguments(parser, games_default=20, games_help="games per matchup")
    parser.add_argument("--gauntlet", metavar="BOT",
                        help="only this bot's matchups (it is added if not among the BOTs)")
    parser.add_argument("--anchor", metavar="BOT", help="rate this bot 0 (default: mean 0)")
    parser.set_defaults(func=run)


def run(args) -> int:
    texts = list(args.bots)
    if args.gauntlet is not None and args.gauntlet not in texts:
        texts.insert(0, args.gauntlet)
    if len(texts) < 2:
        raise UsageError("league needs at least two bots")
    pair_count(args.games)                        # checks -n
    tournament = Tournament(args, texts)
    names = list(tournament.bots)
    anchor = _named(args.anchor, texts, names, "--anchor")
    if args.gauntlet is not None:
        matchups = gauntlet(_named(args.gauntlet, texts, names, "--gauntlet"), names)
    else:
        matchups = round_robin(names)
    standings = Standings(names, matchups, solo=tournament.solo, players=tournament.players)
    outcome = tournament.play(standings.jobs(args.games, tournament.base_seed), standings.add,
                              standings.progress_text)
    ratings = standings.ratings(anchor)
    if args.json:
        summary = standings.to_json(ratings)
        summary.update(seed=tournament.base_seed, anchor=anchor, interrupted=outcome.interrupted,
                       players=tournament.players)
        print(json.dumps(summary))
    else:
        lines = [f"{tournament.game.name} league: {len(names)} bots, {len(matchups)} matchups, "
                 f"{standings.games} games"]
        if tournament.players > 2:
            lines[0] = (f"{tournament.game.name} league: {len(names)} bots, "
                        f"{len(standings.lineups)} lineups of {tournament.players} (each rotated "
                        f"through the seats per seed), {standings.games} pairwise results")
        lines += standings.table_lines(ratings, anchor) + [""]
        order = [rating.name for rating in ratings]
        lines += standings.matrix_lines(order) + [""] + standings.win_matrix_lines(order)
        print("\n".join(lines + tournament.status_lines(outcome)))
    return 130 if outcome.interrupted else 0


def _named(text: str | None, texts: list[str], names: list[str], flag: str) -> str | None:
    """The name of the bot given as ``text`` (the first copy when repeated)."""
    if text is None:
        return None
    if text not in texts:
        raise UsageError(f"{flag} {text!r} is not one of the bots ({', '.join(texts)})")
    return names[texts.index(text)]
