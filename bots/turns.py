"""The turn loop and options every built-in search bot shares: read a turn from stdin, search,
answer, report. The bot side of the search library (which knows only states and deadlines)."""
from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import Any

from bots.runtime import add_budget_arguments, answer, clock_from, read_line, report
from bots.search.choice import Choice
from bots.search.deadline import turn_budget

# search(state, rng, budget) -> Choice, where budget holds the keywords ``deadline=`` or ``iterations=``
Search = Callable[[Any, random.Random, dict], Choice]


def search_parser(description: str, *, unit: str, first_turn_ms: int, turn_ms: int,
                  margin_ms: int = 10) -> argparse.ArgumentParser:
    """A bot's parser with the budget options; ``unit`` names what --iterations counts."""
    parser = argparse.ArgumentParser(description=description)
    add_budget_arguments(parser, unit=unit, first_turn_ms=first_turn_ms, turn_ms=turn_ms,
                         margin_ms=margin_ms)
    return parser


def add_uct_options(parser: argparse.ArgumentParser, *, expand_threshold: int) -> None:
    """--c and --expand-threshold, the two knobs of the UCB1 tree searches."""
    parser.add_argument("--c", type=float, default=1.0,
                        help="UCB1 exploration constant C in w/n + C*sqrt(2 ln t / n)")
    parser.add_argument("--expand-threshold", type=int, default=expand_threshold,
                        help="visits a leaf gets before its children are added")


def add_playouts_option(parser: argparse.ArgumentParser) -> None:
    """--playouts-per-action, the primitive Monte Carlo searches' cap."""
    parser.add_argument("--playouts-per-action", type=int, default=None, metavar="N",
                        help="stop after N playouts per move (default: none, until the deadline)")


def play_turns(options, read_state: Callable[[str], Any], search: Search,
               action_text: Callable[[Any], str],
               played: Callable[[Any, Any], None] | None = None) -> None:
    """Answer every turn: ``read_state(first line)`` reads the rest of the turn and returns the
    position, ``search`` chooses, ``played(state, action)`` (if given) records the answer.

    Reports ``[PDATA]`` iterations, depth, value and elapsed_ms on stderr every turn.
    """
    rng = random.Random(options.seed)
    clock = clock_from(options)
    while True:
        first = read_line()
        deadline_at = clock.start_turn()
        state = read_state(first)
        choice = search(state, rng, turn_budget(options.iterations, deadline_at))
        answer(action_text(choice.action))
        if played is not None:
            played(state, choice.action)
        report(iterations=choice.iterations, depth=choice.depth, value=f"{choice.value:.4g}",
               elapsed_ms=f"{clock.elapsed_ms():.1f}")
