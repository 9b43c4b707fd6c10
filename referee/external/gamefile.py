"""The game file: a TOML file that makes an external referee process a game botarena can play.

```toml
name = "spring2021"                  # optional: the file's stem
protocol = "codingame"               # or "brutaltester" (the ### protocol)
command = "java -Dgame.mode=multi -Dleague.level=3 -cp classes:lib/* com.codingame.gameengine.core.RefereeMain"
players = 2                          # or [2, 4]: the least and most
referee_timeout_ms = 10000           # optional: the referee's own silence allowed, per step
first_turn_ms = 1000                 # "brutaltester" only (the SDK's referee sends its own limits)
turn_ms = 50
seed_line = false                    # "brutaltester": send ###Seed N before ###Start
viewer = ["target/classes"]          # "codingame": where CodinGame's viewer files are (view/...)
[parameters]                         # "codingame": extra key=value lines of INIT
```

The command runs in the file's folder, so relative paths resolve from there. Every field is
checked here, with one line naming the file and the field (a UsageError), before any game.
"""
from __future__ import annotations

import functools
import os
import re
import shlex
import stat
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn, TypeGuard

from referee.api import UsageError

PROTOCOLS = ("codingame", "brutaltester")
MAX_PLAYERS = 8                     # the SDK's runner takes up to eight players
MAX_TIME_MS = 3_600_000             # an hour: beyond it a number is a typo
MAX_FILE_BYTES = 1 << 20            # a game file is a few lines
DEFAULT_REFEREE_TIMEOUT_MS = 10_000
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*")
KEY_PATTERN = re.compile(r"[A-Za-z0-9_.-]+")
FIELDS = ("name", "description", "protocol", "command", "players", "referee_timeout_ms",
          "first_turn_ms", "turn_ms", "seed_line", "parameters", "host", "classpath",
          "libraries", "java", "jvm_options", "viewer")
BRUTALTESTER_ONLY = ("first_turn_ms", "turn_ms", "seed_line")
HOST_ONLY = ("classpath", "libraries", "java", "jvm_options")
CODINGAME_ONLY = ("parameters", "host", "viewer") + HOST_ONLY


# The JVM's own warnings (unified logging: large pages it cannot have, a CDS archive it cannot map)
# go to stdout by default, into the protocol: a referee's JVM sends them to stderr.
JVM_LOG_TO_STDERR = ("-Xlog:disable", "-Xlog:all=warning:stderr")
# C1 alone: each game's classes are new to the JVM (a fresh class loader, or a JVM of their own),
# so C2 would compile them again every game for code that runs one game; measured on Spring
# 2021, C1 halves the host's CPU a game (docs/benchmarks.md). Added unless jvm_options choose
# the compilers themselves.
C1_ONLY = "-XX:TieredStopAtLevel=1"
_JIT_OPTIONS = ("-XX:TieredStopAtLevel", "-XX:+TieredCompilation", "-XX:-TieredCompilation",
                "-Xint", "-Xcomp", "-Xmixed", "-XX:CompilationMode")


def jvm_defaults(jvm_options: Sequence[str]) -> list[str]:
    """The options a referee JVM of ``host = true`` gets before the game file's ``jvm_options``."""
    defaults = list(JVM_LOG_TO_STDERR)
    if not any(option.startswith(_JIT_OPTIONS) for option in jvm_options):
        defaults.append(C1_ONLY)
    return defaults


@dataclass(frozen=True, slots=True)
class HostSettings:
    """``host = true``: long-lived JVMs play game after game (see host.py)."""

    java: str                              # the java program (a name on PATH or a path)
    classpath: tuple[str, ...]             # the SDK core and the game's classes: a loader per game
    libraries: tuple[str, ...]             # jars shared by every game (Guice, Gson, log4j...)
    jvm_options: tuple[str, ...]           # -D properties and JVM flags (league.level...)

    def fallback_command(self) -> tuple[str, ...]:
        """One JVM per game, when no host can be used: RefereeMain over the same classes."""
        return (self.java, *jvm_defaults(self.jvm_options), *self.jvm_options, "-cp",
                os.pathsep.join(self.classpath + self.libraries),
                "com.codingame.gameengine.core.RefereeMain")


@dataclass(frozen=True, slots=True)
class GameFile:
    """A game file, read and checked: every path absolute, every value of its type."""

    path: Path                             # the file itself, absolute
    name: str
    description: str
    protocol: str
    command: tuple[str, ...]               # argv, run in ``folder``
    players: tuple[int, int]               # the least and most
    referee_timeout_ms: int
    first_turn_ms: int = 1000
    turn_ms: int = 50
    seed_line: bool = False
    parameters: dict[str, str] = field(default_factory=dict)
    host: HostSettings | None = None
    viewer: tuple[str, ...] = ()           # jars or folders holding view/: CodinGame's viewer

    @property
    def folder(self) -> Path:
        return self.path.parent


def looks_like_game_file(text: str) -> bool:
    """Whether a GAME argument names a file rather than a built-in game."""
    return text.endswith(".toml") or os.sep in text or Path(text).is_file()


def read_game_file(text: str | os.PathLike[str]) -> GameFile:
    """The game file at ``text``, checked; UsageError (one line, naming the file) otherwise."""
    path = Path(text).expanduser().absolute()
    where = str(text)
    data = _parse(path, where)
    problem = _Checker(where)
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        problem(unknown[0], f"is not a field of a game file (fields: {', '.join(FIELDS)})")
    protocol = data.get("protocol")
    if protocol is None:
        problem("protocol", f"is missing: give one of {', '.join(map(repr, PROTOCOLS))}")
    if protocol not in PROTOCOLS:
        problem("protocol", f"{protocol!r} is not one of {', '.join(map(repr, PROTOCOLS))}")
    wrong = BRUTALTESTER_ONLY if protocol == "codingame" else CODINGAME_ONLY
    for key in wrong:
        if key in data:
            why = ("the SDK's referee sends its own time limits" if key.endswith("_ms")
                   else "is for the other protocol")
            problem(key, f"is for protocol {'brutaltester' if protocol == 'codingame' else 'codingame'} "
                         f"only ({why}); remove it")
    host_on = _flag(data, "host", problem)
    if not host_on:
        for key in HOST_ONLY:
            if key in data:
                problem(key, "is used only with host = true (one long-lived JVM per job slot)")
    host = _host(data, path.parent, problem) if host_on else None
    return GameFile(
        path=path,
        name=_name(data, path, problem),
        description=_text(data, "description", problem, default=f"external referee ({protocol})"),
        protocol=str(protocol),
        command=_command(data, path.parent, problem, required=host is None),
        players=_players(data.get("players"), problem),
        referee_timeout_ms=_milliseconds(data, "referee_timeout_ms", DEFAULT_REFEREE_TIMEOUT_MS,
                                         problem),
        first_turn_ms=_milliseconds(data, "first_turn_ms", 1000, problem),
        turn_ms=_milliseconds(data, "turn_ms", 50, problem),
        seed_line=_flag(data, "seed_line", problem),
        parameters=_parameters(data.get("parameters", {}), problem),
        host=host,
        viewer=_paths(data, "viewer", path.parent, problem, required=False))


class _Checker:
    """Raises the one-line UsageError of a bad field."""

    def __init__(self, where: str):
        self.where = where

    def __call__(self, key: str, message: str) -> NoReturn:
        raise UsageError(f"game file {self.where!r}: {key} {message}")


def _parse(path: Path, where: str) -> dict[str, Any]:
    if path.is_dir():
        raise UsageError(f"game file {where!r} is a directory; give a .toml file")
    try:
        # opened without waiting (a FIFO with no writer would block the open), then checked
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with open(descriptor, "rb") as handle:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                raise UsageError(f"game file {where!r} is not a regular file")
            os.set_blocking(descriptor, True)
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise UsageError(f"no game file {where!r} (GAME is a built-in game's name or a path to a "
                         "game file; see: botarena games)") from None
    except OSError as error:
        raise UsageError(f"game file {where!r} cannot be read: {error.strerror or error}") from None
    if len(data) > MAX_FILE_BYTES:
        raise UsageError(f"game file {where!r} is larger than 1 MB: not a game file")
    try:
        return tomllib.loads(data.decode())
    except UnicodeDecodeError as error:
        raise UsageError(f"game file {where!r} is not UTF-8 text: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise UsageError(f"game file {where!r} is not valid TOML: {error}") from None
    except RecursionError:
        raise UsageError(f"game file {where!r}: its tables or arrays are nested too deeply "
                         "to read (not a game file)") from None


def _name(data: dict[str, Any], path: Path, problem: _Checker) -> str:
    name = data.get("name", path.stem)
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        problem("name", f"{name!r} must be letters, digits and _ . + - (it names replays and "
                        "results)")
    return name


def _text(data: dict[str, Any], key: str, problem: _Checker, *, default: str) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or "\n" in value:
        problem(key, f"{value!r} must be one line of text")
    return value


def _command(data: dict[str, Any], folder: Path, problem: _Checker, *, required: bool) -> tuple[str, ...]:
    value = data.get("command")
    if value is None:
        if required:
            problem("command", "is missing: give the referee's command line (a string or a list)")
        return ()
    if isinstance(value, str):
        try:
            words = shlex.split(value)
        except ValueError as error:
            problem("command", f"{value!r} cannot be split into words: {error}")
    elif isinstance(value, list) and all(isinstance(word, str) for word in value):
        words = list(value)
    else:
        problem("command", f"{value!r} must be a string or a list of strings")
    if not words or not words[0]:
        problem("command", "is empty: give the referee's command line")
    program = words[0]
    if os.sep in program:
        resolved = (folder / program).absolute()
        if not resolved.is_file():
            problem("command", f"names {program!r}, which is no file (relative paths start from "
                               f"the game file's folder, {str(folder)!r})")
        words[0] = str(resolved)
    else:
        from shutil import which
        if which(program) is None:
            problem("command", f"names {program!r}, which is not a program on the PATH (install it, "
                               "or give its path)")
    return tuple(words)


def _players(value: Any, problem: _Checker) -> tuple[int, int]:
    if value is None:
        problem("players", "is missing: give the number of players (2) or the least and most ([2, 4])")
    if _is_int(value):
        low = high = value
    elif isinstance(value, list) and len(value) == 2 and all(_is_int(item) for item in value):
        low, high = value
    else:
        problem("players", f"{value!r} must be a number (2) or the least and most ([2, 4])")
    if low < 2:
        problem("players", f"{value!r}: a game file's game has 2 to {MAX_PLAYERS} players (one-player "
                "games, CodinGame's solo puzzles, are not driven: see docs/codingame-referees.md#limits)")
    if high > MAX_PLAYERS:
        problem("players", f"{value!r}: at most {MAX_PLAYERS} players")
    if low > high:
        problem("players", f"{value!r}: the least first ([{high}, {low}])")
    return low, high


def _milliseconds(data: dict[str, Any], key: str, default: int, problem: _Checker) -> int:
    value = data.get(key, default)
    if not _is_int(value) or not 1 <= value <= MAX_TIME_MS:
        problem(key, f"{value!r} must be a whole number of milliseconds from 1 to {MAX_TIME_MS}")
    return value


def _flag(data: dict[str, Any], key: str, problem: _Checker) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        problem(key, f"{value!r} must be true or false")
    return value


def _parameters(value: Any, problem: _Checker) -> dict[str, str]:
    """The [parameters] table as INIT's key=value lines take it: text values, one line each."""
    if not isinstance(value, dict):
        problem("parameters", f"{value!r} must be a table ([parameters] then key = value lines)")
    parameters: dict[str, str] = {}
    for key, item in value.items():
        where = f"parameters.{key}"
        if not KEY_PATTERN.fullmatch(key):
            problem(where, "is not a usable key: letters, digits and _ . - only")
        if key == "seed":
            problem(where, "is set by botarena (--seed); remove it")
        parameters[key] = parameter_text(item, functools.partial(problem, where))
    return parameters


def parameter_text(value: Any, refuse: Callable[[str], NoReturn]) -> str:
    """A parameter's value as one line of INIT (booleans as Java writes them)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str) and "\n" not in value and "\r" not in value:
        return value
    refuse(f"{value!r} must be a number, true/false or one line of text")
    return ""


def _paths(data: dict[str, Any], key: str, folder: Path, problem: _Checker, *,
           required: bool) -> tuple[str, ...]:
    """A list of jars and folders (``dir/*``: every jar of a folder), each made absolute."""
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
        problem(key, f"{value!r} must be a list of paths (jars or class folders)")
    if required and not value:
        problem(key, "is missing: host = true needs the SDK core and the game's classes "
                     "(see docs/codingame-referees.md)")
    return tuple(entry for item in value
                 for entry in _class_path_entries(item, folder, key, problem))


def _host(data: dict[str, Any], folder: Path, problem: _Checker) -> HostSettings:
    options = data.get("jvm_options", [])
    if not isinstance(options, list) or not all(isinstance(item, str) for item in options):
        problem("jvm_options", f"{options!r} must be a list of JVM options (\"-Dleague.level=3\")")
    java = data.get("java", "java")
    if not isinstance(java, str) or not java:
        problem("java", f"{java!r} must be the java program (a name on the PATH or a path)")
    if os.sep in java:
        java = str((folder / java).absolute())
    return HostSettings(java=java, classpath=_paths(data, "classpath", folder, problem, required=True),
                        libraries=_paths(data, "libraries", folder, problem, required=False),
                        jvm_options=tuple(options))


def _class_path_entries(text: str, folder: Path, key: str, problem: _Checker) -> list[str]:
    """A classpath entry made absolute; ``lib/*`` (every jar of a folder, as java reads it)
    becomes those jars, sorted: the host's class loaders take files, not patterns."""
    entry = folder / text
    if entry.name == "*":
        if not entry.parent.is_dir():
            problem(key, f"{text!r}: no folder {str(entry.parent)!r}")
        return sorted(str(jar.absolute()) for jar in entry.parent.glob("*.jar"))
    if not entry.exists():
        problem(key, f"{text!r}: no such file or folder (relative paths start from the game "
                     f"file's folder, {str(folder)!r})")
    return [str(entry.absolute())]


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
