"""Turn a BOT argument into a command: a built-in bot's name, a .py path, a C, C++, Java or Rust
source file (compiled), or a command line."""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import importlib
import os
import pkgutil
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.api import UsageError
from referee.match import PlayerSpec
from tools.languages.compilers import is_source

PROJECT_ROOT = Path(__file__).resolve().parents[2]


# A bot file named after a standard-library module (random.py) would shadow that module when the
# bot runs as a plain script (Python puts the script's folder first on sys.path), so the file of
# such a bot carries this suffix: bots/tictactoe/random_bot.py is the bot ``random``.
BOT_FILE_SUFFIX = "_bot"


def _bot_modules(game: str) -> dict[str, str]:
    """{bot name: module name} of the bots in ``bots/<game>/``."""
    folder = PROJECT_ROOT / "bots" / game
    if not folder.is_dir():
        return {}
    return {info.name.removesuffix(BOT_FILE_SUFFIX): info.name
            for info in pkgutil.iter_modules([str(folder)])
            if not info.name.startswith("_") and not info.ispkg}


def builtin_bots(game: str) -> list[str]:
    """Names of the built-in bots of ``game`` (the modules in ``bots/<game>/``)."""
    return sorted(_bot_modules(game))


def bot_module(game: str, name: str) -> str:
    """The dotted module of the built-in bot ``name`` (``bots.tictactoe.random_bot``)."""
    return f"bots.{game}.{_bot_modules(game)[name]}"


def bot_path(game: str, name: str) -> Path:
    """The script file of the built-in bot ``name``."""
    return PROJECT_ROOT / "bots" / game / f"{_bot_modules(game)[name]}.py"


def bot_parser(game: str, name: str) -> argparse.ArgumentParser:
    module = importlib.import_module(bot_module(game, name))
    parser = module.build_parser()
    parser.prog = name
    return parser


def bot_description(game: str, name: str) -> str:
    module = importlib.import_module(bot_module(game, name))
    return first_paragraph(module.__doc__ or "")


def first_paragraph(docstring: str) -> str:
    """A docstring's first paragraph on one line: its summary, whole even when it wraps (the
    first line alone of 'keeps the best pushes, then\nDUCT over them.' ends at 'then')."""
    return " ".join(docstring.strip().split("\n\n")[0].split())


def _python_env() -> dict[str, str]:
    env = dict(os.environ)
    path = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(PROJECT_ROOT) + (os.pathsep + path if path else "")
    env.setdefault("PYTHONHASHSEED", "0")
    return env


@dataclass(frozen=True)
class BotSpec(PlayerSpec):
    """A PlayerSpec as the user named it: ``command`` is the BOT text; ``seeded_by_harness``
    is True for a built-in bot that takes --seed and was not given one (see ``for_game``)."""

    command: str = ""
    seeded_by_harness: bool = False


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed a built-in bot without --seed gets: a function of the game seed and its seat."""
    digest = hashlib.sha256(f"botarena-bot:{game_seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def for_game(spec: PlayerSpec, game_seed: int, seat: int) -> PlayerSpec:
    """``spec`` as it plays seat ``seat`` of the game on ``game_seed``: a built-in bot left
    without --seed gets ``--seed bot_seed(...)``, so the same seed plays the same game (a
    replay re-runs it, a results file's game can be played again); other bots are untouched."""
    if not isinstance(spec, BotSpec) or not spec.seeded_by_harness:
        return spec
    seed = str(bot_seed(game_seed, seat))
    return dataclasses.replace(spec, argv=(*spec.argv, "--seed", seed),
                               command=f"{spec.command} --seed {seed}", seeded_by_harness=False)


def command_of(spec: PlayerSpec) -> str:
    """What to type to start ``spec`` again (the BOT text, with a harness-given seed)."""
    return spec.command if isinstance(spec, BotSpec) and spec.command else spec.name


def resolve_bot(game: str, text: str, *, check_args: bool = True, check_files: bool = True,
                workdir: str | Path | None = None, sandboxed: bool = False) -> PlayerSpec:
    """The PlayerSpec for ``text``; UsageError (one line, says what to fix) when it cannot be.

    A relative path is taken from ``workdir`` (default: the current folder) and made absolute
    there. A C, C++, Java or Rust source file is compiled now (see tools.languages.build).
    ``check_files=False`` leaves files and programs unchecked and compiles nothing (a cluster's
    client: the workers, not this machine, must have them, and each compiles there).
    ``sandboxed`` (``--sandbox``): the compiler runs in bubblewrap too."""
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise UsageError(f"bot {text!r}: {error}") from None
    if not words:
        raise UsageError("empty bot command")
    head, args = words[0], words[1:]
    if workdir is not None and (os.sep in head or head.endswith(".py") or is_source(head)):
        head = words[0] = str(Path(workdir, head))     # an absolute head stays as it is
    if not check_files and head not in builtin_bots(game):
        return BotSpec(name=text, argv=tuple(words), command=text)
    if head in builtin_bots(game):
        parsed = _parse_bot_args(game, head, args, text, strict=check_args)
        argv = (sys.executable, "-P", "-m", bot_module(game, head), *args)
        return BotSpec(name=text, argv=argv, env=_python_env(), command=text,
                       seeded_by_harness=getattr(parsed, "seed", False) is None)
    if head.endswith(".py"):
        if not Path(head).is_file():
            raise UsageError(f"bot {text!r}: no file {head!r}")
        return BotSpec(name=text, argv=(sys.executable, head, *args), command=text)
    if is_source(head):
        return _compiled_bot(text, head, args, workdir, sandboxed)
    if os.sep not in head and Path(head).is_file() and not _on_path(head):
        raise UsageError(f"unknown bot {head!r} for {game}; {head!r} is a file in this folder: "
                         f"to run it, write ./{head}")
    if os.sep not in head and "." not in head and not _on_path(head):
        known = ", ".join(builtin_bots(game)) or "none"
        raise UsageError(f"unknown bot {head!r} for {game} (built-in: {known}; "
                         "or give a path to a .py, .c, .cpp, .java or .rs file, or a command)")
    if os.sep in head and not Path(head).exists():
        raise UsageError(f"bot {text!r}: no file {head!r}")
    return BotSpec(name=text, argv=tuple(words), command=text)


def bot_player(bot: str, game: str | Any, *, workdir: str | Path | None = None) -> PlayerSpec:
    """A player for ``referee.match.play_match`` from ``bot`` exactly as the command line takes a
    BOT: a built-in bot of ``game`` with its arguments (``"alphabeta --depth 2"``), a ``.py``
    file, a C, C++, Java or Rust source file (compiled now, once, as CodinGame compiles it), or
    a command line. ``game``: a game's name or its Game. A built-in bot given no ``--seed``
    draws its own; give one (``"random --seed 3"``) for the same game every run. UsageError (one
    line) when ``bot`` cannot be a player (no such file, a compile error)."""
    return resolve_bot(getattr(game, "name", game), bot, workdir=workdir)


def split_include_dirs(args: list[str]) -> tuple[list[str], list[str]]:
    """The -I folders that open a C or C++ bot's arguments (for its compiler), and the rest
    (for the bot): ``main.cpp -I lib -Iother --depth 3``."""
    folders: list[str] = []
    index = 0
    while index < len(args) and args[index].startswith("-I"):
        if args[index] == "-I":
            if index + 1 == len(args):
                raise UsageError("-I at the end of a bot's command: give it a folder (-I lib)")
            folders.append(args[index + 1])
            index += 2
        else:
            folders.append(args[index][2:])
            index += 1
    return folders, args[index:]


def _compiled_bot(text: str, head: str, args: list[str], workdir: str | Path | None,
                  sandboxed: bool) -> BotSpec:
    """A source file as a bot: compiled here and now (never within a game's clock), once per
    content (tools.languages.build's cache)."""
    from tools.languages.build import build
    folders, args = split_include_dirs(args)
    base = Path(workdir) if workdir is not None else Path.cwd()
    built = build(head, tuple(str(base / folder) for folder in folders), label=text,
                  sandboxed=sandboxed)
    return BotSpec(name=text, argv=(*built.argv, *args), command=text)


def _on_path(program: str) -> bool:
    from shutil import which
    return which(program) is not None


class _ArgumentProblem(Exception):
    pass


class _QuietParser(argparse.ArgumentParser):
    def error(self, message: str):
        raise _ArgumentProblem(message)


def _parse_bot_args(game: str, name: str, args: list[str], text: str, *,
                    strict: bool) -> argparse.Namespace | None:
    """A built-in bot's parsed arguments; bad ones are refused here, with one line, rather than
    as a crash fault (``strict``), or give None (a replay's recorded command, run as it was)."""
    parser = bot_parser(game, name)
    parser.__class__ = _QuietParser
    try:
        return parser.parse_args(args)
    except _ArgumentProblem as problem:
        if strict:
            raise UsageError(f"bot {text!r}: {problem} (see: botarena bots {game})") from None
    except SystemExit:
        if strict:
            raise UsageError(f"bot {text!r}: bad arguments (see: botarena bots {game})") from None
    return None
