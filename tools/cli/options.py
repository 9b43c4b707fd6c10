"""Command-line arguments the subcommands share, and the output-file check made before any game."""
from __future__ import annotations

import argparse
import csv
import os
from pathlib import Path

from referee.api import UsageError
from referee.games import load_game
from referee.process import DEFAULT_MEMORY_MB
from tools.arena.runner import usable_cores
from tools.arena.seeds import read_seeds


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
                        help=f"{games_help}, rounded up to whole seat-swapped pairs "
                        f"(default: {games_default}; with --seeds, two per seed)")
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
                        "(CodinGame's, from its replays; # comments): pair k plays the k-th seed, "
                        "both seat orders (see docs/tools.md)")
    parser.add_argument("--out", metavar="FILE.jsonl", help="one JSON line per finished game; run "
                        "the same command again to resume")
    parser.add_argument("--replays", metavar="DIR", help="keep each game's replay in DIR, named by "
                        "pair and seats; its results line names it (botarena view FILE.jsonl:LINE)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_game_arguments(parser)


def settle_run_arguments(args: argparse.Namespace) -> None:
    """-n and --seeds, before anything uses them: ``args.seed_list`` is the --seeds file's
    seeds (or None); -n, when not given, is two games per seed (one per seed in a one-player
    game), else the command's default."""
    args.seed_list = None
    if args.seeds is not None:
        if args.seed is not None:
            raise UsageError("--seed and --seeds: give one (--seeds plays the file's seeds; "
                             "--seed derives them)")
        args.seed_list = read_seeds(args.seeds)
        if args.games is None:
            solo = load_game(args.game).seats == (1, 1)
            args.games = len(args.seed_list) * (1 if solo else 2)
    if args.games is None:
        args.games = args.games_default


def write_csv(path: str, fields: list[str], rows: list[dict]) -> None:
    """``rows`` as CSV with a header; UsageError (one line) when the file cannot be written."""
    try:
        with open(path, "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=fields)
            writer.writeheader()
            writer.writerows(rows)
    except OSError as error:
        raise UsageError(f"--csv {path!r}: {error.strerror}") from None
