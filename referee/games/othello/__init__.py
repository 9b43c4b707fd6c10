"""Othello (seed 001): 8x8, alternating, automatic passes, disc count decides."""
from __future__ import annotations

import random
from typing import Any

from referee.api import Game, OptionSpec, TimeControl, TurnOrder
from referee.games.othello import codec
from referee.games.othello.rules import OthelloState


class Othello(Game):
    name = "othello"
    description = "8x8 Othello; seat 0 black moves first; no move = pass; more discs wins"
    turn_order = TurnOrder.ALTERNATING
    seats = (2, 2)
    time_control = TimeControl(first_turn_ms=1000, turn_ms=100)
    codec = codec
    option_specs = (OptionSpec("opening", 0, "random moves played from the seed before the bots "
                               "take over (varies the games of deterministic bots)", 0, 30),)

    def new_state(self, seed: int, options: dict[str, Any]) -> OthelloState:
        state = OthelloState()
        rng = random.Random(seed)
        for _ in range(options.get("opening", 0)):
            if state.over:
                break
            state.play(rng.choice(state.legal_actions()))
        return state


GAME = Othello()
