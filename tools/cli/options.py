"""Command-line arguments the subcommands share, the settings they make, and the output-file
check made before any game."""
from __future__ import annotations

import argparse
import csv
import dataclasses
import os
from pathlib import Path

from referee.api import UsageError
from referee.games import load_game
from referee.harness.process import DEFAULT_MEMORY_MB
from tools.arena.arena import usable_cores
from tools.arena.seeds import read_seeds
from tools.arena.settings import BotLimits, Settings
from tools.arena.setup import parse_option_pairs


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """--option, --turn-ms, --first-turn-ms, --grace-ms, --memory-mb."""
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="set a game option (see: botarena games)")
    parser.add_argument("--turn-ms", type=int, metavar="MS", help="budget of every turn after the first")
    parser.add_argument("--first-turn-ms", type=int, metavar="MS", help="budget of a bot's first turn")
    parser.add_argument("--grace-ms", type=int, metavar="MS",
                        help="allowance for harness jitter on top of each budget (default: 10)")
    parser.add_argument("--memory-mb", type=int, default=DEFAULT_MEMORY_MB, metavar="MB",
                        help=f"per-bot memory cap, 0 for none (default: {DEFAULT_MEMORY_MB})")
    parser.add_argument("--sandbox", action="store_true",
                        help="run each bot under bubblewrap (bwrap): its own PID namespace, no "
                        "network, a read-only filesystem but its own folder (docs/sandbox.md)")
    parser.add_argument("--no-line-buffering", action="store_true",
                        help="start bots as they are: by default their stdout is line-buffered "
                        "(PYTHONUNBUFFERED=1, stdbuf -oL's libstdbuf for C stdio), as on "
                        "CodinGame, so bots that never flush still answer")


def game_settings(args: argparse.Namespace) -> Settings:
    """The settings of ``add_game_arguments`` (and ``--seed``)."""
    limits = BotLimits(memory_mb=args.memory_mb or None, sandboxed=args.sandbox,
                       line_buffered=not args.no_line_buffering)
    return Settings(args.game, options=parse_option_pairs(args.option),
                    first_turn_ms=args.first_turn_ms, turn_ms=args.turn_ms,
                    grace_ms=args.grace_ms, limits=limits, seed=args.seed)


def run_settings(args: argparse.Namespace) -> Settings:
    """The settings of ``add_run_arguments``."""
    seeds = read_seeds(args.seeds) if args.seeds is not None else None
    return dataclasses.replace(game_settings(args), seeds=seeds, jobs=args.jobs,
                               cluster=args.cluster, workdir=args.workdir, results=args.out,
                               replays=args.replays, quiet=bool(args.quiet or args.json))


def match_games(args: argparse.Namespace, settings: Settings) -> int | None:
    """``match`` and ``league``'s -n; None when not given with --seeds: every seed of the file in
    every seating its group of games needs (whatever the game's player count)."""
    if args.games is None and settings.seeds is not None:
        return None
    return run_games(args, settings)


def run_games(args: argparse.Namespace, settings: Settings) -> int:
    """-n; when not given, two games per --seeds seed (one in a one-player game), else the
    command's default."""
    if args.games is not None:
        return args.games
    if settings.seeds is not None:
        return settings.seeds.games(load_game(settings.game).seats == (1, 1))
    return args.games_default


def add_output_argument(parser: argparse.ArgumentParser, metavar: str, help: str, *,
                        required: bool = False, old: str | None = None) -> None:
    """``-o/--output FILE``: the one file a command exists to make (a bundle, a page, a re-run's
    replay). A results file of many games, resumable, is ``--out FILE.jsonl`` (add_run_arguments);
    other files are named by what they hold (--replay, --replays, --csv, --plot). ``old``: a
    former spelling, still taken, not shown (given explicitly: argparse's prefix matching would
    drop it as soon as another option starts with it)."""
    parser.add_argument("-o", "--output", required=required, metavar=metavar, help=help)
    if old is not None:
        parser.add_argument(old, dest="output", metavar=metavar, help=argparse.SUPPRESS)


def check_output_file(text: str, option: str) -> None:
    """Refuse, before any game is played, an output file that cannot be written (UsageError).

    Creates the missing folders and a scratch file beside it, then removes the scratch
    file: an existing file at ``text`` is never touched.
    """
    if not text:
        raise UsageError(f"{option} '': give a file name")
    path = Path(text)
    if not path.name or path.is_dir():
        raise UsageError(f"{option} {text!r} is a directory; give a file name")
    if path.exists() and not path.is_file():
        raise UsageError(f"{option} {text!r} is not a regular file (a device, FIFO or socket); "
                         "give a file name")
    scratch = path.with_name(f".{path.name}.{os.getpid()}.check")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch.open("w").close()
        scratch.unlink()
    except OSError as error:
        raise UsageError(f"{option} {text!r} cannot be written: {error.strerror}") from None


def add_run_arguments(parser: argparse.ArgumentParser, *, games_default: int,
                      games_help: str) -> None:
    parser.add_argument("-n", "--games", type=int, metavar="GAMES",
                        help=f"{games_help}, rounded up to whole seatings of a seed (a seat-swapped "
                        "pair; in a game of 3+ players, a lineup turned through every seat) "
                        f"(default: {games_default}; with --seeds, every seed in every seating)")
    parser.set_defaults(games_default=games_default)
    parser.add_argument("--jobs", "-j", type=int, metavar="J",
                        help=f"games played at once (default: the number of cores, {usable_cores()})")
    parser.add_argument("--cluster", metavar="ADDRESS", help="play the games on a Dask cluster: a "
                        "scheduler (tcp://HOST:8786) or local[:N] for N worker processes here "
                        "(needs: pip install 'botarena[cluster]'; see docs/cluster.md)")
    parser.add_argument("--workdir", metavar="DIR", help="the folder relative bot paths start from: "
                        "on each worker with --cluster (default: the worker's own folder)")
    parser.add_argument("--seed", type=int, help="base seed; game seeds derive from it and the pair "
                        "id (default: random, or the one in the --out file)")
    parser.add_argument("--seeds", metavar="FILE", help="play exactly these game seeds, one a line "
                        "(CodinGame's, from its replays; # comments): the k-th seed in every "
                        "seating, both seat orders in a two-player game (see docs/tools.md)")
    parser.add_argument("--out", metavar="FILE.jsonl", help="one JSON line per finished game; run "
                        "the same command again to resume")
    parser.add_argument("--replays", metavar="DIR", help="keep each game's replay in DIR, named by "
                        "pair and seats; its results line names it (botarena view FILE.jsonl:LINE)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_game_arguments(parser)


def write_csv(path: str, fields: list[str], rows: list[dict]) -> None:
    """``rows`` as CSV with a header; UsageError (one line) when the file cannot be written."""
    try:
        with open(path, "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=fields)
            writer.writeheader()
            writer.writerows(rows)
    except OSError as error:
        raise UsageError(f"--csv {path!r}: {error.strerror}") from None
