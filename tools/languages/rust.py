"""The module tree of a Rust bot: ``main.rs`` and the files its ``mod name;`` items load.

As rustc finds them: in the crate's root file (``main.rs``) or a ``mod.rs``, ``mod foo;`` is
``foo.rs`` or ``foo/mod.rs`` beside it; in any other file ``bar.rs``, it is ``bar/foo.rs`` or
``bar/foo/mod.rs``. Attributes and ``pub``/``pub(crate)`` before ``mod`` are kept with it.
Not followed: ``#[path = "..."]`` and a ``mod foo;`` inside an inline ``mod bar { }``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from referee.api import UsageError
from tools.languages.lexing import mask_rust

MAX_FILES = 1000

# ``mod name;`` with its visibility; the character before it must end an item or a line
_MOD_DECLARATION = re.compile(
    r"(?<![\w.:])(?P<visibility>pub(?:\s*\([^()]*\))?\s+)?mod\s+(?P<name>(?:r#)?[A-Za-z_]\w*)"
    r"\s*;")
_PATH_ATTRIBUTE = re.compile(r"#\s*\[\s*path\s*=")
_MOD_RS_NAMES = ("mod.rs",)


@dataclass(frozen=True, slots=True)
class ModDeclaration:
    start: int                # span of ``pub mod name;`` in the file's text
    end: int
    visibility: str           # "pub ", "pub(crate) ", ""
    name: str
    path: Path | None         # the file it loads; None when neither candidate exists


@dataclass(frozen=True, slots=True)
class RustFile:
    path: Path
    text: str
    declarations: tuple[ModDeclaration, ...]


@dataclass(frozen=True)
class RustCrate:
    entry: Path
    files: dict[Path, RustFile]         # the entry first, then in the order they are loaded


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read {str(path)!r}: {error}") from None


def _brace_depths(masked: str, positions: list[int]) -> list[int]:
    """The brace depth at each of ``positions`` (sorted) in the masked text."""
    depths, depth, cursor = [], 0, 0
    for position in positions:
        segment = masked[cursor:position]
        depth += segment.count("{") + segment.count("(") + segment.count("[") \
            - segment.count("}") - segment.count(")") - segment.count("]")
        depths.append(depth)
        cursor = position
    return depths


def child_folder(path: Path, is_root: bool = False) -> Path:
    """Where the files of the modules that ``path`` declares are (beside the crate's root file,
    whatever its name)."""
    return path.parent if is_root or path.name in _MOD_RS_NAMES else path.with_suffix("")


def parse_file(path: Path, is_root: bool = False) -> RustFile:
    text = read_text(path)
    masked = mask_rust(text)
    attribute = _PATH_ATTRIBUTE.search(masked)
    if attribute:
        line = masked.count("\n", 0, attribute.start()) + 1
        raise UsageError(f"{path}:{line}: #[path = ...] on a module is not supported; name the "
                         "file after the module (foo.rs or foo/mod.rs)")
    found = list(_MOD_DECLARATION.finditer(masked))
    depths = _brace_depths(masked, [match.start() for match in found])
    declarations = []
    folder = child_folder(path, is_root)
    for match, depth in zip(found, depths):
        if depth:
            line = masked.count("\n", 0, match.start()) + 1
            raise UsageError(f"{path}:{line}: mod {match.group('name')}; inside a block is not "
                             "supported; declare it at the top level of a file")
        name = match.group("name").removeprefix("r#")
        candidates = [candidate for candidate in (folder / f"{name}.rs", folder / name / "mod.rs")
                      if candidate.is_file()]
        declarations.append(ModDeclaration(match.start(), match.end(),
                                           match.group("visibility") or "", name,
                                           candidates[0].resolve() if candidates else None))
    return RustFile(path, text, tuple(declarations))


def load_crate(entry: Path) -> RustCrate:
    entry = entry.resolve()
    files: dict[Path, RustFile] = {}
    pending = [entry]
    while pending:
        path = pending.pop(0)
        if path in files:
            continue
        if len(files) >= MAX_FILES:
            raise UsageError(f"{entry}: more than {MAX_FILES} module files")
        files[path] = parse_file(path, is_root=path == entry)
        pending.extend(declaration.path for declaration in files[path].declarations
                       if declaration.path is not None)
    return RustCrate(entry, files)


CODINGAME_EDITION = "2021"
_EDITION = re.compile(r'^\s*edition\s*=\s*"(\d{4})"', re.MULTILINE)


def edition_of(entry: Path) -> str:
    """The edition of a cargo project's ``Cargo.toml`` (beside ``src/`` or beside the file),
    else CodinGame's (2021)."""
    for folder in (entry.resolve().parent, entry.resolve().parent.parent):
        manifest = folder / "Cargo.toml"
        if manifest.is_file():
            found = _EDITION.search(manifest.read_text(encoding="utf-8", errors="replace"))
            if found:
                return found.group(1)
    return CODINGAME_EDITION
