"""The files of a Java bot: every ``.java`` file of its source folder, and its main class.

The source folder is the one the entry's package starts from: ``src/bot/Player.java`` with
``package bot;`` is in ``src``; a file without a package line is in its own folder. The main
class is the entry's (``bot.Player``); CodinGame runs a class ``Player`` of the default package.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from referee.api import UsageError
from tools.languages.lexing import mask_java

MAX_FILES = 1000

PACKAGE = re.compile(r"^\s*package\s+([\w.\s]+?)\s*;", re.MULTILINE)


@dataclass(frozen=True)
class JavaProject:
    entry: Path
    root: Path                    # the source folder (where the default package is)
    files: tuple[Path, ...]       # every .java file under root, sorted
    main_class: str               # the entry's class, with its package: bot.Player


def package_of(text: str) -> str:
    """The package a source declares ('' for the default package)."""
    found = PACKAGE.search(mask_java(text))
    return re.sub(r"\s+", "", found.group(1)) if found else ""


def load_project(entry: Path) -> JavaProject:
    entry = entry.resolve()
    try:
        text = entry.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read {str(entry)!r}: {error}") from None
    package = package_of(text)
    parts = package.split(".") if package else []
    folders = entry.parent.parts
    if parts and list(folders[len(folders) - len(parts):]) != parts:
        raise UsageError(f"{entry}: its package {package} is not its folder: put it in "
                         f"{'/'.join(parts)}/ under the source folder")
    root = Path(*folders[:len(folders) - len(parts)]) if parts else entry.parent
    files = []
    for path in sorted(root.rglob("*.java")):
        if any(part.startswith(".") for part in path.relative_to(root).parts):
            continue          # .git, editors' folders
        files.append(path)
        if len(files) > MAX_FILES:
            raise UsageError(f"{entry}: more than {MAX_FILES} .java files under its source folder "
                             f"{root}: give the bot its own folder")
    main_class = f"{package}.{entry.stem}" if package else entry.stem
    return JavaProject(entry, root, tuple(files), main_class)
