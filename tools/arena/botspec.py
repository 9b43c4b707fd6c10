"""Turn a BOT argument into a command: a built-in bot's name, a .py path, or a command line."""
from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import shlex
import sys
from pathlib import Path

from referee.api import UsageError
from referee.match import PlayerSpec

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def builtin_bots(game: str) -> list[str]:
    """Names of the built-in bots of ``game`` (the modules in ``bots/<game>/``)."""
    folder = PROJECT_ROOT / "bots" / game
    if not folder.is_dir():
        return []
    return sorted(info.name for info in pkgutil.iter_modules([str(folder)])
                  if not info.name.startswith("_") and not info.ispkg)


def bot_parser(game: str, name: str) -> argparse.ArgumentParser:
    module = importlib.import_module(f"bots.{game}.{name}")
    parser = module.build_parser()
    parser.prog = name
    return parser


def bot_description(game: str, name: str) -> str:
    module = importlib.import_module(f"bots.{game}.{name}")
    return (module.__doc__ or "").strip().splitlines()[0] if module.__doc__ else ""


def _python_env() -> dict[str, str]:
    env = dict(os.environ)
    path = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(PROJECT_ROOT) + (os.pathsep + path if path else "")
    env.setdefault("PYTHONHASHSEED", "0")
    return env


def resolve_bot(game: str, text: str, *, check_args: bool = True) -> PlayerSpec:
    """The PlayerSpec for ``text``; UsageError (one line, says what to fix) when it cannot be."""
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise UsageError(f"bot {text!r}: {error}") from None
    if not words:
        raise UsageError("empty bot command")
    head, args = words[0], words[1:]
    if head in builtin_bots(game):
        if check_args:
            _check_bot_args(game, head, args, text)
        argv = (sys.executable, "-P", "-m", f"bots.{game}.{head}", *args)
        return PlayerSpec(name=text, argv=argv, env=_python_env())
    if head.endswith(".py"):
        if not Path(head).is_file():
            raise UsageError(f"bot {text!r}: no file {head!r}")
        return PlayerSpec(name=text, argv=(sys.executable, head, *args))
    if os.sep not in head and "." not in head and not _on_path(head):
        known = ", ".join(builtin_bots(game)) or "none"
        raise UsageError(f"unknown bot {head!r} for {game} (built-in: {known}; "
                         "or give a path to a .py file or a command)")
    if os.sep in head and not Path(head).exists():
        raise UsageError(f"bot {text!r}: no file {head!r}")
    return PlayerSpec(name=text, argv=tuple(words))


def _on_path(program: str) -> bool:
    from shutil import which
    return which(program) is not None


class _ArgumentProblem(Exception):
    pass


class _QuietParser(argparse.ArgumentParser):
    def error(self, message: str):
        raise _ArgumentProblem(message)


def _check_bot_args(game: str, name: str, args: list[str], text: str) -> None:
    """Reject a built-in bot's bad arguments here, with one line, rather than as a crash fault."""
    parser = bot_parser(game, name)
    parser.__class__ = _QuietParser
    try:
        parser.parse_args(args)
    except _ArgumentProblem as problem:
        raise UsageError(f"bot {text!r}: {problem} (see: botarena bots {game})") from None
    except SystemExit:
        raise UsageError(f"bot {text!r}: bad arguments (see: botarena bots {game})") from None
