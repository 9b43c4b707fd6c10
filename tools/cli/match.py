"""``botarena match``: BOT_A against BOT_B over seat-swapped pairs, with Elo, LOS and SPRT."""
from __future__ import annotations

import json

from referee.api import UsageError
from tools import stats
from tools.arena.runner import paired_jobs
from tools.arena.multiplayer import SeatGroups, group_count, match_lineup, pairwise_records
from tools.arena.solo import SoloComparisons, solo_jobs
from tools.arena.tally import HeadToHead, summary_lines
from tools.arena.tournament import Tournament, pair_count
from tools.cli.options import add_run_arguments


def register(commands) -> None:
    parser = commands.add_parser(
        "match", help="play BOT_A against BOT_B: Elo with a 95 %% interval, LOS, SPRT",
        description="Play BOT_A against BOT_B in pairs of games (each seed twice, seats swapped) "
        "and report from BOT_A's point of view.")
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
    pairs = pair_count(args.games)
    tournament = Tournament(args, [args.bot_a, args.bot_b])
    bot_a, bot_b = tournament.bots
    tally = HeadToHead(bot_a, bot_b)
    decision: dict = {}

    def decided() -> bool:
        if sprt is None or decision:
            return bool(decision)
        llr = tally.llr(sprt)
        verdict = stats.sprt_decision(llr, sprt)
        if verdict:
            decision.update(verdict=verdict, llr=llr, pairs=sum(tally.pentanomial()))
        return verdict is not None

    if tournament.solo:
        tally.solo = True
        feed = SoloComparisons([(bot_a, bot_b)], tally.add).add
        jobs = solo_jobs([bot_a, bot_b], args.games, tournament.base_seed)
    elif tournament.players > 2:
        lineup = match_lineup(bot_a, bot_b, tournament.players)
        jobs = SeatGroups(lineup, group_count(args.games, lineup), tournament.base_seed)
        def feed(record: dict) -> None:
            for pair in pairwise_records(record, paired=True):
                tally.add(pair)
    else:
        feed = tally.add
        jobs = paired_jobs(bot_a, bot_b, pairs, tournament.base_seed)

    def on_record(record: dict) -> bool:
        feed(record)
        return decided()

    outcome = tournament.play(jobs, on_record, tally.progress_text, stop_before=decided)
    summary = tally.summary()
    summary.update(seed=tournament.base_seed, interrupted=outcome.interrupted,
                   players=tournament.players)
    if sprt is not None:
        summary["sprt"] = _sprt_summary(tally, sprt, decision)
    if args.json:
        print(json.dumps(summary))
    else:
        lines = summary_lines(summary)
        if sprt is not None:
            lines.append(_sprt_text(summary["sprt"]))
        if tournament.players > 2:
            lines.insert(1, _seating_text(tournament.players))
        print("\n".join(lines + tournament.status_lines(outcome)))
    return 130 if outcome.interrupted else 0


def _seating_text(players: int) -> str:
    return (f"  {players}-player game: BOT_A took each seat once per seed, BOT_B the other "
            f"{players - 1} seats, so seat advantage cancels; each game counts as {players - 1} "
            "results of BOT_A against one BOT_B (rank against rank), seat-swapped pairs within "
            "a seed")


def _sprt_summary(tally: HeadToHead, sprt: stats.SprtSettings, decision: dict) -> dict:
    lower, upper = sprt.bounds
    return {**sprt.to_json(), "llr": round(tally.llr(sprt), 4),
            "llr_alt2": round(tally.llr_approximation(sprt), 4),
            "bounds": [round(lower, 4), round(upper, 4)],
            "result": decision.get("verdict"), "decided_at_pairs": decision.get("pairs")}


def _sprt_text(sprt: dict) -> str:
    lower, upper = sprt["bounds"]
    head = (f"  SPRT elo0={sprt['elo0']:g} elo1={sprt['elo1']:g} alpha={sprt['alpha']:g} "
            f"beta={sprt['beta']:g}: LLR {sprt['llr']:+.3f} (bounds {lower:+.3f}, {upper:+.3f})")
    if sprt["result"] == "H1":
        return head + f"  H1 accepted after {sprt['decided_at_pairs']} pairs: BOT_A is stronger"
    if sprt["result"] == "H0":
        return head + f"  H0 accepted after {sprt['decided_at_pairs']} pairs: no gain of elo1"
    return head + "  no decision yet (play more games: raise -n)"
