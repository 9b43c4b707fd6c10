"""The local files of a C or C++ bot: its ``#include``s, resolved as the compiler resolves them,
and the source files that go with the headers it includes.

``#include "name"`` is looked up in the including file's folder, then in the ``-I`` folders in
order; ``#include <name>`` in the ``-I`` folders only. What is found nowhere is a system header
(``<vector>``, ``<bits/stdc++.h>``), left to the compiler. A header ``dir/stem.h`` that is
included brings in ``dir/stem.cpp`` (``.cc``, ``.cxx``; ``.c`` for a C bot) when there is one:
the source that defines what the header declares. The bot is the entry file and those sources;
compiling it and bundling it see the same files.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from referee.api import UsageError
from tools.languages.lexing import mask_c

C_SOURCES = (".c",)
CPP_SOURCES = (".cpp", ".cc", ".cxx")
HEADERS = (".h", ".hpp", ".hh", ".hxx", ".inl", ".ipp", ".tpp")
MAX_FILES = 1000             # a project beyond this is not a bot: an include loop or a wrong -I

_DIRECTIVE = re.compile(r"[ \t]*#[ \t]*(\w+)[ \t]*(\w*)")
_INCLUDE = re.compile(r'#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]')


@dataclass(frozen=True, slots=True)
class Include:
    """One ``#include`` line of a file: where it is and what it names."""

    line: int                  # 0-based line number in its file
    name: str
    quoted: bool               # "name" rather than <name>
    target: Path | None        # the local file it resolves to; None for a system header
    unconditional: bool = True  # outside every #if block of its file (an include guard aside)


@dataclass(frozen=True, slots=True)
class SourceFile:
    path: Path
    text: str
    includes: tuple[Include, ...]
    pragma_once_lines: tuple[int, ...]     # lines holding ``#pragma once``


@dataclass(frozen=True)
class Project:
    """Every local file of a C or C++ bot, read once."""

    entry: Path
    include_dirs: tuple[Path, ...]
    files: dict[Path, SourceFile]          # in discovery order, the entry first
    sources: tuple[Path, ...]              # what the compiler is given: the entry and the pairs

    @property
    def cpp(self) -> bool:
        return self.entry.suffix != ".c"


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="surrogateescape")
    except OSError as error:
        raise UsageError(f"cannot read {str(path)!r}: {error.strerror}") from None


def parse_file(path: Path, include_dirs: tuple[Path, ...]) -> SourceFile:
    text = read_text(path)
    masked = mask_c(text).splitlines()
    lines = text.splitlines()
    includes, once = [], []
    directives = [(number, found) for number, line in enumerate(masked)
                  if (found := _DIRECTIVE.match(line))]   # (a directive in a comment is masked out)
    guard = _guard_depth(directives)
    depth = 0
    for number, directive in directives:
        if directive.group(1) in ("if", "ifdef", "ifndef"):
            depth += 1
        elif directive.group(1) == "endif":
            depth -= 1
        elif directive.groups() == ("pragma", "once"):
            once.append(number)
        elif directive.group(1) == "include":
            # the name is a literal, blanked in the mask: read it from the original line
            found = _INCLUDE.match(lines[number], masked[number].index("#"))
            if found is None:
                continue        # #include MACRO: computed, left to the compiler
            quoted, name = found.group(1) == '"', found.group(2).strip()
            includes.append(Include(number, name, quoted,
                                    resolve_include(name, quoted, path.parent, include_dirs),
                                    depth <= guard))
    return SourceFile(path, text, tuple(includes), tuple(once))


def _guard_depth(directives: list[tuple[int, re.Match]]) -> int:
    """1 when the file is wrapped in an include guard (``#ifndef X`` then ``#define X`` first,
    ``#endif`` last), else 0: inside the guard is the file's top level."""
    if len(directives) < 3:
        return 0
    (_, first), (_, second), (_, last) = directives[0], directives[1], directives[-1]
    wrapped = (first.group(1) == "ifndef" and second.group(1) == "define"
               and first.group(2) == second.group(2) != "" and last.group(1) == "endif")
    return 1 if wrapped else 0


def resolve_include(name: str, quoted: bool, folder: Path,
                    include_dirs: tuple[Path, ...]) -> Path | None:
    """The local file ``#include`` names, as the compiler finds it; None for a system header."""
    candidates = ((folder,) if quoted else ()) + include_dirs
    for base in candidates:
        candidate = base / name
        if candidate.is_file():
            return candidate.resolve()
    return None


def paired_source(header: Path, cpp: bool) -> Path | None:
    """``dir/stem.cpp`` (or .cc, .cxx; ``.c`` in C) beside an included ``dir/stem.h``."""
    if header.suffix not in HEADERS:
        return None
    for suffix in CPP_SOURCES if cpp else C_SOURCES:
        candidate = header.with_suffix(suffix)
        if candidate.is_file():
            return candidate.resolve()
    return None


def load_project(entry: Path, include_dirs: tuple[Path, ...] = ()) -> Project:
    """The bot whose ``main`` is in ``entry``: every local file reachable from it."""
    entry = entry.resolve()
    dirs = tuple(folder.resolve() for folder in include_dirs)
    cpp = entry.suffix != ".c"
    files: dict[Path, SourceFile] = {}
    sources = [entry]
    pending = [entry]
    while pending:
        path = pending.pop(0)
        if path in files:
            continue
        if len(files) >= MAX_FILES:
            raise UsageError(f"{entry}: more than {MAX_FILES} local files are included; is an "
                             "-I folder too wide?")
        parsed = files[path] = parse_file(path, dirs)
        for include in parsed.includes:
            if include.target is None or include.target in files:
                continue
            pending.append(include.target)
            pair = paired_source(include.target, cpp)
            if pair is not None and pair not in sources:
                sources.append(pair)
                pending.append(pair)
    return Project(entry, dirs, files, tuple(sources))
