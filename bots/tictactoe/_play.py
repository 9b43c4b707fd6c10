"""What the tic-tac-toe search bots share: their options and the turn loop."""
from __future__ import annotations

from bots.runtime import read_line, read_lines
from bots.search.alternating import iterative_deepening
from bots.turns import Search, play_turns
from bots.turns import search_parser as _search_parser
from referee.games.tictactoe import GAME, codec

CLOCK = GAME.time_control          # budgets default to the game's own, read from the game


def search_parser(description: str, unit: str):
    return _search_parser(description, unit=unit, first_turn_ms=CLOCK.first_turn_ms, turn_ms=CLOCK.turn_ms,
                          margin_ms=15)


def play(options, search: Search) -> None:
    """The bot keeps its own position: the opponent's move arrives, its own answer is played."""
    positions = [None]

    def read_state(first: str):
        read_lines(int(read_line()))                 # the valid cells: the position knows them
        positions[0] = codec.state_from_lines([first], positions[0])
        return positions[0]

    play_turns(options, read_state, search, codec.action_text, played=lambda state, cell: state.play(cell))


def deepening_parser(description: str):
    parser = search_parser(description, "nodes")
    parser.add_argument("--depth", type=int, default=9, help="deepest search in plies (9: the whole game)")
    return parser


def play_deepening(options, *, pruned: bool) -> None:
    """Iterative deepening, alpha-beta when ``pruned`` else plain minimax."""
    play(options, lambda state, rng, budget: iterative_deepening(
        state, max_depth=options.depth, pruned=pruned, **budget))
