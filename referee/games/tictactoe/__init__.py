"""Tic-tac-toe, alternating, with CodinGame's protocol."""
from __future__ import annotations

from typing import Any

from referee.api import Game, TimeControl, TurnOrder
from referee.games.tictactoe import codec
from referee.games.tictactoe.rules import TicTacToeState


class TicTacToe(Game):
    name = "tictactoe"
    description = "Tic-tac-toe, alternating; CodinGame's protocol (opponent's move, valid actions)"
    turn_order = TurnOrder.ALTERNATING
    seats = (2, 2)
    time_control = TimeControl(first_turn_ms=1000, turn_ms=100)
    codec = codec

    def new_state(self, seed: int, options: dict[str, Any]) -> TicTacToeState:
        return TicTacToeState()


GAME = TicTacToe()
