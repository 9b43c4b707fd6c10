"""The game registry: every folder here with a ``GAME`` object in its ``__init__`` is a game."""
from __future__ import annotations

import importlib
import os
import pkgutil
from typing import TYPE_CHECKING

from referee.api import Game, UsageError

if TYPE_CHECKING:        # (a game file's game; imported lazily at run time)
    from referee.external.game import ExternalGame


def game_names() -> list[str]:
    return sorted(info.name for info in pkgutil.iter_modules(__path__) if info.ispkg)


def load_game(name: str) -> Game | ExternalGame:
    """The game called ``name``, or the game file at that path (an external referee, see
    ``referee.external``); UsageError naming the known games otherwise, or the folder when it
    holds no game (one being written, say)."""
    if name in game_names():
        return _builtin_game(name)
    # imported by name, not by an import statement: a bot imports this package (its game's rules
    # and codec), and the bundler would otherwise carry the whole external-referee package into
    # every bundle (over CodinGame's 100,000 characters); bots never load a game file
    if importlib.import_module("referee.external.gamefile").looks_like_game_file(name):
        game: ExternalGame = importlib.import_module("referee.external.game").load_game_file(name)
        return game
    raise UsageError(f"unknown game {name!r} (known: {', '.join(game_names())}; or a path to a "
                     "game file, NAME.toml: see docs/codingame-referees.md)")


def _builtin_game(name: str) -> Game:
    module = importlib.import_module(f"referee.games.{name}")
    game = getattr(module, "GAME", None)
    if not isinstance(game, Game):
        folder = os.path.dirname(module.__file__ or name)
        raise UsageError(f"{folder}: not a game yet, its __init__.py defines no GAME (a Game "
                         "instance; see docs/adding-a-game.md)")
    return game
