"""The compilers and options CodinGame uses, one per language (see docs/bundling.md, "Compiled
languages", for where each fact comes from).

- C: gcc, C17; C++: g++, C++20; both linked with ``-lm -lpthread -ldl -lcrypt`` (CodinGame's
  language page). Options ``-Werror=return-type -g -pthread`` and no ``-O``: CodinGame's C++
  command line as its staff posted it; bots optimise with ``#pragma GCC optimize``.
- Java: javac, the main class run with ``java -cp``; ``-proc:none``: no annotation processor
  runs (javac would run one found on its class path, the bot's own folder).
- Rust: rustc, edition 2021, release mode (``-C opt-level=3``); no crates.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from referee.api import UsageError

CODINGAME_LIBRARIES = ("-lm", "-lpthread", "-ldl", "-lcrypt")


@dataclass(frozen=True)
class Compiler:
    language: str                       # as CodinGame names it: "C++"
    slug: str                           # in cache folder names
    extensions: tuple[str, ...]
    program: str
    flags: tuple[str, ...]
    install: str                        # how to get it on Debian or Ubuntu
    also_needs: tuple[str, ...] = ()    # programs that run the result (java)
    links_libraries: bool = False
    version_flag: str = "--version"

    def check_installed(self, label: str) -> None:
        for program in (self.program, *self.also_needs):
            if shutil.which(program) is None:
                raise UsageError(self.missing_message(label, program))

    def missing_message(self, label: str, program: str | None = None) -> str:
        return (f"bot {label!r}: running a {self.language} bot needs {program or self.program}, "
                f"which is not installed here (Debian/Ubuntu: {self.install})")

    def version(self) -> str:
        """The compiler's own version line (part of the cache key)."""
        return _version_line(shutil.which(self.program) or self.program, self.version_flag)

    def libraries(self) -> tuple[str, ...]:
        """CodinGame's libraries, less any the linker here does not have (-lcrypt needs
        libcrypt-dev; a bot does not use it)."""
        if not self.links_libraries:
            return ()
        return tuple(flag for flag in CODINGAME_LIBRARIES
                     if _linker_has(shutil.which(self.program) or self.program, flag[2:]))


_versions: dict[tuple[str, float], str] = {}
_libraries: dict[tuple[str, str], bool] = {}


def _mtime(program: str) -> float:
    try:
        return os.stat(program).st_mtime
    except OSError:
        return 0.0


def _version_line(program: str, flag: str) -> str:
    key = (program, _mtime(program))
    if key not in _versions:
        try:
            done = subprocess.run([program, flag], capture_output=True, text=True, timeout=60,
                                  stdin=subprocess.DEVNULL, errors="replace")
            lines = (done.stdout + done.stderr).strip().splitlines()
            _versions[key] = f"{Path(program).name}: {lines[0] if lines else '?'}"
        except (OSError, subprocess.TimeoutExpired):
            _versions[key] = f"{program}: unknown version"
    return _versions[key]


def _linker_has(program: str, library: str) -> bool:
    """Whether ``-l<library>`` links here: the compiler names a path for it, else not found."""
    if library in ("m", "pthread", "dl"):        # glibc's own: always there
        return True
    key = (program, library)
    if key not in _libraries:
        try:
            done = subprocess.run([program, f"-print-file-name=lib{library}.so"],
                                  capture_output=True, text=True, timeout=60,
                                  stdin=subprocess.DEVNULL)
            _libraries[key] = os.path.isabs(done.stdout.strip())
        except (OSError, subprocess.TimeoutExpired):
            _libraries[key] = False
    return _libraries[key]


C_FLAGS = ("-Werror=return-type", "-g", "-pthread")

COMPILERS = (
    Compiler("C", "c", (".c",), "gcc", ("-std=gnu17", *C_FLAGS), "apt-get install gcc",
             links_libraries=True),
    Compiler("C++", "cpp", (".cpp", ".cc", ".cxx"), "g++", ("-std=gnu++20", *C_FLAGS),
             "apt-get install g++", links_libraries=True),
    Compiler("Java", "java", (".java",), "javac", ("-encoding", "UTF-8", "-proc:none"),
             "apt-get install openjdk-17-jdk-headless", also_needs=("java",),
             version_flag="-version"),
    Compiler("Rust", "rust", (".rs",), "rustc", ("-C", "opt-level=3"),
             "apt-get install rustc cargo, or rustup from https://rustup.rs"),
)


def compiler_for(path: str | Path) -> Compiler | None:
    """The compiler of a source file, by its extension; None for anything else (.py too)."""
    suffix = Path(path).suffix
    return next((compiler for compiler in COMPILERS if suffix in compiler.extensions), None)


def is_source(text: str) -> bool:
    return compiler_for(text) is not None
