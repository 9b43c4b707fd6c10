"""The game registry: every folder here with a ``GAME`` object in its ``__init__`` is a game."""
from __future__ import annotations

import importlib
import os
import pkgutil

from referee.api import Game, UsageError


def game_names() -> list[str]:
    return sorted(info.name for info in pkgutil.iter_modules(__path__) if info.ispkg)


def load_game(name: str) -> Game:
    """The game called ``name``; UsageError naming the known games otherwise, or the folder
    when it holds no game (one being written, say)."""
    if name not in game_names():
        raise UsageError(f"unknown game {name!r} (known: {', '.join(game_names())})")
    module = importlib.import_module(f"referee.games.{name}")
    game = getattr(module, "GAME", None)
    if not isinstance(game, Game):
        folder = os.path.dirname(module.__file__ or name)
        raise UsageError(f"{folder}: not a game yet, its __init__.py defines no GAME (a Game "
                         "instance; see docs/adding-a-game.md)")
    return game
