"""Moves in a uniformly random open direction."""
from __future__ import annotations

from bots.runtime import play_random, random_bot_parser, read_line, read_lines
from referee.games.number_maze_duel.codec import action_text, state_from_lines


def build_parser():
    return random_bot_parser(__doc__)


def read_init() -> list[str]:
    return [read_line()]                           # height width turns


def read_directions(init: list[str]) -> list[int]:
    height = int(init[0].split()[0])
    return state_from_lines(init, read_lines(3 + height)).legal_actions(0)


def main(argv: list[str] | None = None) -> None:
    play_random(build_parser().parse_args(argv), read_directions, action_text, read_init=read_init)


if __name__ == "__main__":
    main()
