"""Tic-tac-toe, alternating, with CodinGame's protocol."""
from __future__ import annotations

from referee.api import Game, TimeControl, TurnOrder
from referee.games.tictactoe import codec
from referee.games.tictactoe.rules import TicTacToeState


class TicTacToe(Game):
    name = "tictactoe"
    description = "Tic-tac-toe, alternating; CodinGame's protocol (opponent's move, valid actions)"
    turn_order = TurnOrder.ALTERNATING
    seats = (2, 2)
    time_control = TimeControl(first_turn_ms=1000, turn_ms=100)

    def new_state(self, seed, options, players):
        return TicTacToeState()

    def turn_lines(self, state, seat):
        return codec.turn_lines(state, seat)

    def parse_action(self, state, seat, line):
        return codec.parse_action(state, line)

    def action_text(self, action):
        return codec.action_text(action)


GAME = TicTacToe()
