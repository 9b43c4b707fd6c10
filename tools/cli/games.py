"""``botarena games``: the games, a line each, with their options."""
from __future__ import annotations

from referee.games import game_names, load_game


def register(commands) -> None:
    parser = commands.add_parser("games", help="list the games and their options")
    parser.set_defaults(func=run)


def run(args) -> int:
    games = {name: load_game(name) for name in game_names()}    # a broken folder: one line, first
    for name, game in games.items():
        clock = game.time_control
        print(f"{name:<18} {game.description}")
        print(f"{'':<18} {game.turn_order.value}, {game.seats[0]}-{game.seats[1]} players, "
              f"{clock.first_turn_ms} ms first turn, {clock.turn_ms} ms after")
        for spec in game.option_specs:
            print(f"{'':<18}   --option {spec.name}={spec.default}  {spec.help}")
    return 0
