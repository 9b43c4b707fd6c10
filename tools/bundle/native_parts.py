"""What the C, C++, Java and Rust bundlers share: the bundle and its first lines. A module of its
own because tools.bundle.native calls the Java and Rust bundlers: they import this, not it (no
import circle)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class NativeBundle:
    text: str
    language: str
    parts: tuple[tuple[str, int], ...]      # (file, characters it brought), in bundle order
    warnings: tuple[str, ...] = ()          # things nearly always a mistake, bundled anyway

    @property
    def files(self) -> int:
        return len(self.parts)


def header_lines(comment: str, entry: Path, parts: int, command: str) -> list[str]:
    """The bundle's first lines, as comments of its language (``//``)."""
    lines = [f"{comment} {entry.name} and the files it is made of ({parts} in all), bundled by "
             "botarena: one file that compiles alone"]
    if command:
        lines.append(f"{comment} Made by: {command}")
    return lines


def relative_label(path: Path, base: Path) -> str:
    try:
        return str(path.relative_to(base))
    except ValueError:
        return str(path)
