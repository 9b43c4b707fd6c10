"""A C, C++, Java or Rust source file as a bot: compiled as CodinGame compiles it, once, into a
cache keyed by what the program is made of.

``build(path)`` returns the command that runs the compiled bot. The cache key is a hash of the
compiler's version, the options and every local file the bot is made of (its includes and their
sources, its Java source folder, its Rust module tree), so editing any of them, or upgrading the
compiler, builds again; anything else finds the build made before, by this process or another.
A build is made in a temporary folder beside the cache's entries and renamed into place: two
processes compiling the same bot at once both succeed and one of the two results is kept. An
entry that is not what botarena wrote (a plain file, a folder without its ``build.json`` or its
program) is removed and built again.

The compiler runs confined as a bot is (:mod:`referee.harness.confined`): a cgroup of its own,
a memory cap of ``COMPILE_MEMORY_MB`` per process, ``COMPILE_TIMEOUT_S`` at most, everything it
started killed when it ends, and under ``sandboxed`` in bubblewrap (no network, everything
read-only but its build folder); the guardian removes what it leaves if botarena is killed.
javac runs with ``-proc:none``: no annotation processor found beside a bot's sources runs.

The cache is ``$BOTARENA_CACHE_DIR``, else ``$XDG_CACHE_HOME/botarena``, else
``~/.cache/botarena``; its ``compiled/`` folder (mode 0700: the user's alone) may be deleted at
any time.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from referee.api import UsageError
from referee.harness import guardian
from referee.harness.confined import Finished, make_watched_folder, remove_folder, run_confined
from tools.arena.printable import printable
from tools.languages import c_family, java, rust
from tools.languages.compilers import COMPILERS, Compiler, compiler_for

COMPILE_TIMEOUT_S = 600
COMPILE_MEMORY_MB = 2048      # for each process of a compile (RLIMIT_DATA)
ERROR_LINES = 12              # of the compiler's output, in the message of a failed compile


@dataclass(frozen=True)
class Built:
    """A compiled bot: ``argv`` runs it (its own arguments go after)."""

    argv: tuple[str, ...]
    folder: Path
    compiled_now: bool


@dataclass(frozen=True)
class _Plan:
    """How to build one bot: the files it is made of and the command, given an output folder."""

    files: tuple[Path, ...]
    base: Path                        # files are keyed by their path from here, where they can be
    command: Callable[[Path], list[str]]
    run: Callable[[Path], tuple[str, ...]]
    options: tuple[str, ...]          # what in the command is not a path (part of the key)


def cache_root() -> Path:
    explicit = os.environ.get("BOTARENA_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base, "botarena")


def build(path: str | Path, include_dirs: tuple[str, ...] = (), *,
          label: str | None = None, sandboxed: bool = False) -> Built:
    """Compile the bot whose main file is ``path`` (or find it compiled); UsageError with the
    compiler's first lines when it does not compile, or naming the missing compiler, or one
    line when it ran out of time or memory. ``sandboxed``: the compiler runs in bubblewrap."""
    source = Path(path)
    label = label or str(path)
    compiler = compiler_for(source)
    if compiler is None:
        raise UsageError(f"bot {label!r}: {source.suffix!r} is not a language botarena compiles "
                         f"({', '.join(sorted({c.language for c in COMPILERS}))})")
    if not source.is_file():
        raise UsageError(f"bot {label!r}: no file {str(path)!r}")
    compiler.check_installed(label)
    plan = _plan(compiler, source, tuple(Path(folder) for folder in include_dirs), label)
    key = _key(compiler, plan)
    folder = _compiled_folder(label) / f"{compiler.slug}-{source.stem}-{key[:20]}"
    if _is_whole(folder):
        return Built(plan.run(folder), folder, False)
    _remove_entry(folder, label)
    started = time.monotonic()
    _compile_into(folder, compiler, plan, source, label, sandboxed)
    print(f"botarena: compiled {label} with {compiler.program} in "
          f"{time.monotonic() - started:.1f} s (kept in {folder})", file=sys.stderr)
    return Built(plan.run(folder), folder, True)


def _plan(compiler: Compiler, source: Path, include_dirs: tuple[Path, ...], label: str) -> _Plan:
    for folder in include_dirs:
        if not folder.is_dir():
            raise UsageError(f"bot {label!r}: -I {str(folder)!r} is not a folder")
    if compiler.language in ("C", "C++"):
        project = c_family.load_project(source, include_dirs)
        flags = (*compiler.flags, *(f"-I{folder}" for folder in project.include_dirs))
        libraries = compiler.libraries()
        return _Plan(tuple(project.files), project.entry.parent,
                     lambda out: [compiler.program, *flags, *map(str, project.sources),
                                  "-o", str(out / "bot"), *libraries],
                     lambda folder: (str(folder / "bot"),), (*compiler.flags, *libraries))
    if include_dirs:
        raise UsageError(f"bot {label!r}: -I is for C and C++ bots")
    if compiler.language == "Java":
        java_project = java.load_project(source)
        return _Plan(java_project.files, java_project.root,
                     lambda out: [compiler.program, *compiler.flags, "-d", str(out / "classes"),
                                  *map(str, java_project.files)],
                     lambda folder: ("java", "-cp", str(folder / "classes"), java_project.main_class),
                     (*compiler.flags, java_project.main_class))
    crate = rust.load_crate(source)
    flags = (*compiler.flags, "--edition", rust.edition_of(source))
    return _Plan(tuple(crate.files), crate.entry.parent,
                 lambda out: [compiler.program, *flags, "--crate-name", "bot",
                              "-o", str(out / "bot"), str(source.resolve())],
                 lambda folder: (str(folder / "bot"),), flags)


def _key(compiler: Compiler, plan: _Plan) -> str:
    digest = hashlib.sha256()
    digest.update(json.dumps([compiler.language, compiler.version(), plan.options]).encode())
    for path in plan.files:
        # from the bot's folder: the same sources elsewhere (bundle --check's copy) are one build
        name = path.relative_to(plan.base) if path.is_relative_to(plan.base) else path
        digest.update(f"\0{name}\0".encode("utf-8", "surrogateescape"))
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _compiled_folder(label: str) -> Path:
    """The cache's ``compiled/`` folder, made if need be, the user's alone (0700)."""
    folder = cache_root() / "compiled"
    try:
        folder.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        folder.mkdir(mode=0o700, exist_ok=True)
        if folder.stat().st_mode & 0o077:
            folder.chmod(0o700)
    except OSError as error:
        raise UsageError(f"bot {label!r}: cannot write the compile cache {str(folder)!r}: "
                         f"{error.strerror} (set BOTARENA_CACHE_DIR to another folder)") from None
    return folder


def _is_whole(folder: Path) -> bool:
    """Whether ``folder`` is a build as botarena writes it: a folder with its ``build.json``
    (written last) and its program."""
    try:
        if folder.is_symlink() or not folder.is_dir():
            return False
        record = json.loads((folder / "build.json").read_text())
    except (OSError, ValueError, UnicodeDecodeError):
        return False
    return isinstance(record, dict) and ((folder / "bot").is_file()
                                         or (folder / "classes").is_dir())


def _remove_entry(folder: Path, label: str) -> None:
    """Remove what is at ``folder`` (not a whole build) so that it can be built again."""
    try:
        if folder.is_dir() and not folder.is_symlink():
            shutil.rmtree(folder)
        else:
            folder.unlink(missing_ok=True)
    except OSError as error:
        if not _is_whole(folder):           # (another process's build may have just landed)
            raise UsageError(f"bot {label!r}: cannot replace {str(folder)!r} in the compile "
                             f"cache: {error.strerror} (delete it)") from None


def _compile_into(folder: Path, compiler: Compiler, plan: _Plan, source: Path, label: str,
                  sandboxed: bool) -> None:
    """Build in a fresh folder (named to the guardian first), then rename it to ``folder``
    (atomic: a reader sees a whole build or none; a concurrent build of the same key leaves one
    of the two)."""
    try:
        scratch = Path(make_watched_folder(str(folder.parent), guardian.BUILD_PREFIX))
    except OSError as error:
        raise UsageError(f"bot {label!r}: cannot write the compile cache {str(folder.parent)!r}: "
                         f"{error.strerror} (set BOTARENA_CACHE_DIR to another folder)") from None
    try:
        _run_compiler(compiler, plan.command(scratch), source, scratch, label, sandboxed)
        (scratch / "build.json").write_text(json.dumps(
            {"source": str(source.resolve()), "compiler": compiler.version(),
             "command": plan.command(folder), "files": [str(path) for path in plan.files]},
            indent=1) + "\n")
        try:
            os.rename(scratch, folder)
        except OSError as error:
            if not _is_whole(folder):
                raise UsageError(f"bot {label!r}: cannot write {str(folder)!r} in the compile "
                                 f"cache: {error.strerror}") from None
    finally:
        remove_folder(str(scratch))         # gone already when renamed: only forgotten


_OUT_OF_MEMORY = re.compile(r"out of memory|memory allocation of \d+ bytes failed|OutOfMemoryError|"
                            r"Cannot allocate memory|virtual memory exhausted|std::bad_alloc")


def _run_compiler(compiler: Compiler, argv: list[str], source: Path, scratch: Path, label: str,
                  sandboxed: bool) -> None:
    try:
        done = run_confined(argv, cwd=str(source.resolve().parent), writable=str(scratch),
                            memory_mb=COMPILE_MEMORY_MB, timeout_s=COMPILE_TIMEOUT_S,
                            sandboxed=sandboxed)
    except OSError as error:
        raise UsageError(f"bot {label!r}: cannot run {compiler.program}: {error.strerror}") from None
    if done.status is None:
        raise UsageError(f"bot {label!r}: {compiler.program} did not finish compiling it in "
                         f"{COMPILE_TIMEOUT_S} s (stopped)")
    if done.status == 127 and done.output.startswith("botarena: cannot run"):
        raise UsageError(compiler.missing_message(label))
    if done.status != 0:
        raise UsageError(_failure(label, compiler, done))


def _failure(label: str, compiler: Compiler, done: Finished) -> str:
    """Out of memory: one line with the compiler's own; else its first lines."""
    for line in done.output.splitlines():
        if _OUT_OF_MEMORY.search(line):
            return (f"bot {label!r}: {compiler.program} ran out of memory compiling it (the cap is "
                    f"{COMPILE_MEMORY_MB} MB a process): {printable(line.strip()[:200])}")
    return compile_error(label, compiler.program, done.status or 0, done.output)


def compile_error(label: str, program: str, status: int, output: str) -> str:
    """One message: what failed, then the compiler's first lines (the first error is there)."""
    lines = [line.rstrip() for line in output.splitlines() if line.strip()]
    shown = "\n".join(f"  {printable(line)}" for line in lines[:ERROR_LINES])
    more = f"\n  ... ({len(lines) - ERROR_LINES} more lines)" if len(lines) > ERROR_LINES else ""
    return (f"bot {label!r} does not compile ({program} exit status {status}); its first "
            f"lines:\n{shown}{more}")

