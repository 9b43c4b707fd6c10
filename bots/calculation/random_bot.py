"""Plays a uniformly random legal action (builds, waste placements and waste moves alike)."""
from __future__ import annotations

from bots.calculation._input import read_init, read_turn
from bots.runtime import play_random, random_bot_parser
from referee.games.calculation.codec import action_text


def build_parser():
    return random_bot_parser(__doc__, uniform_command_line=True)


def read_actions(_init) -> list[int]:
    return read_turn().legal_actions()


def main(argv: list[str] | None = None) -> None:
    play_random(build_parser().parse_args(argv), read_actions, action_text, read_init=read_init,
                report_figures=True)


if __name__ == "__main__":
    main()
