"""A game, its options and its time control, from the settings the commands share."""
from __future__ import annotations

import argparse
import dataclasses

from referee.api import Game, TimeControl, UsageError
from referee.games import load_game
from referee.sandbox import check_available as check_sandbox


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
    if getattr(args, "sandbox", False):
        check_sandbox()                 # before any game: one line saying how to install bwrap
    if args.memory_mb is not None and args.memory_mb < 0:
        raise UsageError(f"--memory-mb {args.memory_mb}: must be >= 0 (0 disables the cap)")
    return game, options, dataclasses.replace(clock, **changes)
