"""What the number_maze search bots share: their options and the turn loop."""
from __future__ import annotations

from bots.runtime import read_lines
from bots.turns import Search, play_turns
from bots.turns import search_parser as _search_parser
from referee.games.number_maze import codec

FIRST_TURN_MS, TURN_MS = 1000, 50        # the game's time control


def search_parser(description: str):
    """--iterations counts expanded states."""
    return _search_parser(description, unit="expanded states", first_turn_ms=FIRST_TURN_MS,
                          turn_ms=TURN_MS)


def play(options, search: Search) -> None:
    init = read_lines(1)
    height = int(init[0].split()[0])
    play_turns(options, lambda first: codec.state_from_lines(init, [first, *read_lines(1 + height)]),
               search, codec.action_text)
