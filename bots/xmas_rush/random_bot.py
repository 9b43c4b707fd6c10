"""Plays a uniformly random legal action: any of the 28 pushes; PASS or a path to a random reachable cell."""
from __future__ import annotations

from bots.runtime import play_random, random_bot_parser
from bots.xmas_rush._input import TurnReader


def build_parser():
    parser = random_bot_parser(__doc__)
    parser.add_argument("--margin-ms", type=float, default=10,
                        help="time kept in reserve per turn (the bot answers at once anyway)")
    parser.add_argument("--league", type=int, default=6, help="CodinGame league level of the game")
    return parser


def main(argv: list[str] | None = None) -> None:
    options = build_parser().parse_args(argv)
    play_random(options, lambda reader: reader.read().legal_actions(0),
                read_init=lambda: TurnReader(options.league))


if __name__ == "__main__":
    main()
