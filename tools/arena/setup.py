"""A game, its options and its time control, from a run's settings, each checked."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from referee.api import Game, TimeControl, UsageError
from referee.external.game import ExternalGame
from referee.games import load_game
from tools.arena.seeds import MAX_SEED, MIN_SEED
from tools.arena.settings import Settings


def parse_option_pairs(texts: list[str]) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for text in texts:
        key, sep, value = text.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option {text!r}: expected KEY=VALUE")
        pairs[key.strip()] = value.strip()
    return pairs


TIME_FIELDS = ("first_turn_ms", "turn_ms", "grace_ms")
MAX_TIME_MS = 3_600_000         # an hour a turn: beyond it a number is a typo, and overflows timers


def time_control_with(clock: TimeControl, changes: dict[str, Any],
                      label: Callable[[str], str]) -> TimeControl:
    """``clock`` with ``changes`` (milliseconds by field name), each checked as the command line
    checks it; ``label(field)`` names a setting in the message (``--turn-ms``, a replay's field)."""
    for field, value in changes.items():
        if field not in TIME_FIELDS:
            raise UsageError(f"{label(field)}: not a time control setting ({', '.join(TIME_FIELDS)})")
        if not isinstance(value, int) or isinstance(value, bool):
            raise UsageError(f"{label(field)} {value!r}: must be a whole number of milliseconds")
        low = 0 if field == "grace_ms" else 1
        if not low <= value <= MAX_TIME_MS:
            raise UsageError(f"{label(field)} {value}: must be {'positive' if low else '>= 0'} "
                             f"and at most {MAX_TIME_MS} ms (an hour)")
    return dataclasses.replace(clock, **changes)


def game_setup(settings: Settings) -> tuple[Game | ExternalGame, dict[str, Any], TimeControl]:
    """The game, its options and its time control; UsageError (one line, naming the command
    line's option) for the first setting that cannot be played, before any game."""
    game = load_game(settings.game)
    options = game.parse_options(dict(settings.options))
    clock = time_control_with(game.time_control, settings.time_changes(),
                              lambda field: f"--{field.replace('_', '-')}")
    check_time_control = getattr(game, "check_time_control", None)     # a game file's referee
    if check_time_control is not None:
        check_time_control(clock)
    settings.limits.check()
    seed = settings.seed
    if seed is not None and not MIN_SEED <= seed <= MAX_SEED:
        raise UsageError(f"--seed {seed}: must be a 64-bit signed integer, from {MIN_SEED:,} "
                         f"to {MAX_SEED:,}")
    if seed is not None and settings.seeds is not None:
        raise UsageError("--seed and --seeds: give one (--seeds plays the file's seeds; "
                         "--seed derives them)")
    return game, options, clock
