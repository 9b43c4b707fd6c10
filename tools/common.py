"""Arguments and helpers the subcommands share."""
from __future__ import annotations

import argparse
import dataclasses
import os
from pathlib import Path

from referee.api import Game, TimeControl, UsageError
from referee.games import load_game
from referee.process import DEFAULT_MEMORY_MB


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


def check_output_file(text: str, option: str) -> None:
    """Refuse, before any game is played, an output file that cannot be written (UsageError).

    Creates the missing folders and a scratch file beside it, then removes the scratch
    file: an existing file at ``text`` is never touched.
    """
    path = Path(text)
    if not path.name or path.is_dir():
        raise UsageError(f"{option} {text!r} is a directory; give a file name")
    scratch = path.with_name(f".{path.name}.{os.getpid()}.check")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch.open("w").close()
        scratch.unlink()
    except OSError as error:
        raise UsageError(f"{option} {text!r} cannot be written: {error.strerror}") from None


def parse_option_pairs(texts: list[str]) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for text in texts:
        key, sep, value = text.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option {text!r}: expected KEY=VALUE")
        pairs[key.strip()] = value.strip()
    return pairs


def game_setup(args: argparse.Namespace) -> tuple[Game, dict, TimeControl]:
    """The game, its options and its time control from the shared arguments."""
    game = load_game(args.game)
    options = game.parse_options(parse_option_pairs(args.option))
    clock = game.time_control
    changes = {}
    for field, value in (("turn_ms", args.turn_ms), ("first_turn_ms", args.first_turn_ms),
                         ("grace_ms", args.grace_ms)):
        if value is not None:
            if value < 0 or (field != "grace_ms" and value == 0):
                raise UsageError(f"--{field.replace('_', '-')} {value}: must be positive")
            changes[field] = value
    if args.memory_mb is not None and args.memory_mb < 0:
        raise UsageError(f"--memory-mb {args.memory_mb}: must be >= 0 (0 disables the cap)")
    return game, options, dataclasses.replace(clock, **changes)
