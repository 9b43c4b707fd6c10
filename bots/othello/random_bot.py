"""Plays a uniformly random legal move."""
from __future__ import annotations

from bots.othello._input import read_init, read_turn
from bots.runtime import play_random, random_bot_parser
from referee.games.othello.codec import action_text


def build_parser():
    return random_bot_parser(__doc__, uniform_command_line=True)


def read_moves(my_id: int) -> list[int]:
    return read_turn(my_id)[1]


def main(argv: list[str] | None = None) -> None:
    play_random(build_parser().parse_args(argv), read_moves, action_text, read_init=read_init,
                report_figures=True)


if __name__ == "__main__":
    main()
