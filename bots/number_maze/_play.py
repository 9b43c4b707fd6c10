"""What the number_maze search bots share: their options and the turn loop."""
from __future__ import annotations

from bots.runtime import read_lines
from bots.turns import Search, play_turns
from bots.turns import search_parser as _search_parser
from referee.games.number_maze import GAME, codec

CLOCK = GAME.time_control          # budgets default to the game's own, read from the game


def search_parser(description: str):
    """--iterations counts expanded states."""
    return _search_parser(description, unit="expanded states",
                          first_turn_ms=CLOCK.first_turn_ms, turn_ms=CLOCK.turn_ms)


def play(options, search: Search) -> None:
    init = read_lines(1)
    height = int(init[0].split()[0])
    play_turns(options, lambda first: codec.state_from_lines(init, [first, *read_lines(1 + height)]),
               search, codec.action_text)
