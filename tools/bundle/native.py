"""Bundles of C, C++, Java and Rust bots: one source file that compiles alone, as CodinGame needs.

- C and C++ (here): every local ``#include`` replaced by the file it names, at its first
  inclusion; a file already inlined is not inlined again (``#pragma once`` lines dropped; include
  guards stay, harmless); the sources that go with included headers follow the entry file, in
  the order they were found; system includes are kept as written, but once: one already made
  outside every ``#if`` earlier in the bundle is not repeated (``<assert.h>`` always is: NDEBUG
  may differ).
- Java (``tools.bundle.java_bundle``) and Rust (``tools.bundle.rust_bundle``).

Each bundle names its parts, so one that reaches the size limit says which files weigh most.
"""
from __future__ import annotations

from pathlib import Path

from referee.api import UsageError
from tools.bundle.entry import display_path
from tools.bundle.java_bundle import bundle_java
from tools.bundle.native_parts import NativeBundle, header_lines, relative_label
from tools.bundle.rust_bundle import bundle_rust
from tools.languages import c_family
from tools.languages.compilers import Compiler, compiler_for

CODINGAME_LIMIT = 100_000
BIGGEST_PARTS_NAMED = 3


def build_native_bundle(entry: Path, *, include_dirs: tuple[Path, ...] = (),
                        limit: int = CODINGAME_LIMIT, command: str = "") -> NativeBundle:
    """The one-file bundle of the C, C++, Java or Rust bot ``entry``; UsageError when it cannot
    be made or reaches ``limit`` characters."""
    compiler = native_compiler(entry)
    if include_dirs and compiler.language not in ("C", "C++"):
        raise UsageError(f"-I is for C and C++ bots, not {compiler.language}")
    if compiler.language in ("C", "C++"):
        bundle = bundle_c_family(entry, include_dirs, command)
    elif compiler.language == "Java":
        bundle = bundle_java(entry, command)
    else:
        bundle = bundle_rust(entry, command)
    check_size(bundle, entry, limit)
    return bundle


def native_compiler(entry: Path) -> Compiler:
    compiler = compiler_for(entry)
    if compiler is None:
        raise UsageError(f"{str(entry)!r} is not a C, C++, Java or Rust source file")
    if not entry.is_file():
        raise UsageError(f"bot {str(entry)!r}: no such file")
    return compiler


def check_size(bundle: NativeBundle, entry: Path, limit: int) -> None:
    size = len(bundle.text)
    if size < limit:
        return
    whose = " (CodinGame's: fewer than 100,000)" if limit == CODINGAME_LIMIT else ""
    biggest = sorted(bundle.parts, key=lambda part: -part[1])[:BIGGEST_PARTS_NAMED]
    named = ", ".join(f"{name} {chars:,}" for name, chars in biggest)
    raise UsageError(f"the bundle of {display_path(entry.resolve())} is {size:,} characters, "
                     f"{size - limit + 1:,} over the limit of {limit - 1:,}{whose}; its biggest "
                     f"parts: {named}")


def _system_folders() -> tuple[Path, ...]:
    """Where gcc and g++ look for system headers on Debian and Ubuntu (and most Linux)."""
    usr = Path("/usr/include")
    return (usr, Path("/usr/local/include"), *sorted(usr.glob("c++/*")),
            *sorted(usr.glob("*-linux-gnu")), *sorted(usr.glob("*-linux-gnu/c++/*")))


def _is_system_header(name: str) -> bool:
    return any((folder / name).is_file() for folder in _system_folders())


_REINCLUDED = ("assert.h", "cassert")     # meant to be included again (NDEBUG may have changed)


# -- C and C++ ----------------------------------------------------------------------------------

class _CFamilyBundler:
    def __init__(self, project: c_family.Project):
        self.project = project
        self.base = project.entry.parent
        self.done: set[Path] = set()
        self.sizes: dict[str, int] = {}
        self.system: set[tuple[bool, str]] = set()     # system includes in effect from here on
        self.warnings: list[str] = []

    def emit(self, path: Path, conditional: bool = False) -> list[str]:
        """``path``'s lines with its local includes inlined (each file once in the bundle) and
        system includes already in effect dropped; ``conditional``: the file is inlined inside
        an ``#if`` of its includer."""
        self.done.add(path)
        parsed = self.project.files[path]
        label = relative_label(path, self.base)
        includes = {include.line: include for include in parsed.includes}
        once = set(parsed.pragma_once_lines)
        out = [f"// ---- {label} ----"]
        own = len(out[0]) + 1
        resumed = False                        # back in this file after an inlined one
        for number, line in enumerate(parsed.text.splitlines()):
            include = includes.get(number)
            if number in once:
                continue                       # the bundle holds it once anyway
            if include is not None and include.target is not None:
                if include.target not in self.done:
                    out.extend(self.emit(include.target,
                                         conditional or not include.unconditional))
                    resumed = True
                continue
            if include is not None and include.quoted:
                self._warn_unfound(label, number, include)
            if include is not None and not self._first_system_include(include, conditional):
                continue
            if resumed and line.strip():
                out.append(f"// ---- {label} (continued) ----")
                resumed = False
            out.append(line)
            own += len(line) + 1
        self.sizes[label] = own
        return out

    def _warn_unfound(self, label: str, number: int, include: c_family.Include) -> None:
        """A quoted #include found neither beside its file, nor in an -I folder, nor among this
        machine's system headers: nearly always a file of one's own missed (no -I, a misspelt
        name), which the bundle would carry as a system include and CodinGame fail to find."""
        if not _is_system_header(include.name):
            self.warnings.append(f"{label}:{number + 1}: #include \"{include.name}\" is found "
                                 "nowhere (not beside it, not in an -I folder, not a system "
                                 "header): kept as written; if it is a file of yours, give its "
                                 "folder with -I")

    def _first_system_include(self, include: c_family.Include, conditional: bool) -> bool:
        """Whether to keep this system include: not when the same one is already in effect."""
        key = (include.quoted, include.name)
        if key in self.system and include.name not in _REINCLUDED:
            return False
        if include.unconditional and not conditional:
            self.system.add(key)
        return True


def bundle_c_family(entry: Path, include_dirs: tuple[Path, ...], command: str) -> NativeBundle:
    project = c_family.load_project(entry, include_dirs)
    bundler = _CFamilyBundler(project)
    body = bundler.emit(project.entry)
    for source in project.sources[1:]:
        if source not in bundler.done:
            body.extend(bundler.emit(source))
    head = header_lines("//", project.entry, len(bundler.sizes), command)
    text = "\n".join(head + body) + "\n"
    language = "C++" if project.cpp else "C"
    return NativeBundle(text, language, tuple(bundler.sizes.items()), tuple(bundler.warnings))
