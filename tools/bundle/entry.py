"""The bot a bundle is built from: its import name, its file and where its own modules are found."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tools.arena.botspec import PROJECT_ROOT


@dataclass(frozen=True)
class Entry:
    """The bot to bundle: its import name (``__main__`` for a script outside the project) and file."""

    name: str
    path: Path
    search_roots: tuple[Path, ...]      # where its own modules are found, first match wins

    @property
    def package(self) -> str | None:
        return self.name.rpartition(".")[0] if self.name != "__main__" else None

    @property
    def label(self) -> str:
        return display_path(self.path)


def display_path(path: Path) -> str:
    try:
        return str(path.relative_to(PROJECT_ROOT))
    except ValueError:
        return str(path)
