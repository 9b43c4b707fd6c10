"""The game registry: every folder here with a ``GAME`` object in its ``__init__`` is a game."""
from __future__ import annotations

import importlib
import pkgutil

from referee.api import Game, UsageError


def game_names() -> list[str]:
    return sorted(info.name for info in pkgutil.iter_modules(__path__) if info.ispkg)


def load_game(name: str) -> Game:
    """The game called ``name``; UsageError naming the known games otherwise."""
    if name not in game_names():
        raise UsageError(f"unknown game {name!r} (known: {', '.join(game_names())})")
    return importlib.import_module(f"referee.games.{name}").GAME
