"""Xmas Rush (CodinGame, December 2018): exact rules, exact protocol, CodinGame's seeds."""
from __future__ import annotations

from typing import Any

from referee.api import Game, OptionSpec, TimeControl, TurnOrder, UsageError
from referee.games.xmas_rush import codec
from referee.games.xmas_rush.javarandom import LONG_MAX, LONG_MIN
from referee.games.xmas_rush.rules import XmasRushState


class XmasRush(Game):
    name = "xmas_rush"
    description = ("CodinGame's Xmas Rush: 7x7 push-the-tiles labyrinth, simultaneous; "
                   "CodinGame's seeds and protocol")
    turn_order = TurnOrder.SIMULTANEOUS
    seats = (2, 2)
    time_control = TimeControl(first_turn_ms=1000, turn_ms=50)
    codec = codec
    option_specs = (
        OptionSpec("league", 6, "CodinGame's league level: 1 Wood 2, 2 Wood 1, 3 Bronze, "
                   "4-5 Silver/Gold, 6+ Legend (quests, reveals, item tiles, tile pool)", minimum=1),
    )

    def new_state(self, seed: int, options: dict[str, Any]) -> XmasRushState:
        if not LONG_MIN <= seed <= LONG_MAX:
            raise UsageError(f"seed {seed}: xmas_rush seeds are signed 64-bit integers "
                             f"({LONG_MIN} to {LONG_MAX}), as CodinGame shows them")
        return XmasRushState.new_game(seed, options.get("league", 6))


GAME = XmasRush()
