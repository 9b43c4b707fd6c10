"""``botarena bots GAME``: the built-in bots of a game and their parameters."""
from __future__ import annotations

from referee.games import load_game
from tools.arena.botspec import bot_description, bot_parser, builtin_bots


def register(commands) -> None:
    parser = commands.add_parser("bots", help="list a game's built-in bots and their parameters")
    parser.add_argument("game")
    parser.set_defaults(func=run)


def run(args) -> int:
    game = load_game(args.game)
    for name in builtin_bots(game.name):
        print(f"{name}: {bot_description(game.name, name)}")
        for action in bot_parser(game.name, name)._actions:
            if not action.option_strings or "--help" in action.option_strings:
                continue
            flag = "/".join(action.option_strings)
            documented = "(default" in (action.help or "")
            default = "" if action.default is None or documented else f" (default: {action.default})"
            print(f"    {flag:<22} {action.help or ''}{default}")
    return 0
