"""Where CodinGame's viewer files are: the ``view/`` resources of a game file's jars and folders.

The SDK's runner (its Renderer) gathers every ``view/`` resource of the class path into one
folder: the player (``player.js``, ``player.html``, ``lib/pixi6.js``) from the runner's jar, the
core (``core/Drawer.js`` ...) and the modules from the SDK's jars, the game's ``config.js``, its
modules and ``assets/`` from the game's classes. botarena looks in the same places, in this order,
the first of a path winning: the game file's ``viewer`` entries, then its class path (``host =
true``: ``classpath`` then ``libraries``; else the ``-cp`` of its ``command``, ``@argfiles``
read). An entry is a jar or a folder that holds ``view/`` (``target/classes``,
``src/main/resources``).
"""
from __future__ import annotations

import os
import shlex
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from referee.external.gamefile import GameFile

# what the wrapper page loads: without any of these there is no CodinGame viewer to show
REQUIRED = {"player.js": "the SDK runner's player", "player.html": "the SDK runner's player page",
            "core/Drawer.js": "the SDK core's viewer", "config.js": "the game's viewer"}
# the SDK runner's IDE pages (they load angular and jQuery from CDNs), replaced by botarena's
# page, and the files botarena writes itself (assets.js, demo.js), as the runner does
REPLACED = frozenset({"test.html", "test.css", "app.js", "stub.html", "stub.js", "stub.css",
                       "statement.html", "statement.js", "statement.css", "demo.js", "assets.js"})
MAX_FILES = 50_000                  # a view/ folder holds hundreds; beyond this it is not one
CLASS_PATH_OPTIONS = ("-cp", "-classpath", "--class-path")


@dataclass(frozen=True, slots=True)
class Source:
    """One file of the viewer: a file in a folder, or a member of a jar."""

    root: str                       # the jar or folder it comes from
    member: str                     # its path in the jar, or its absolute path in the folder

    def read(self) -> bytes:
        if self.root.endswith(".jar") and Path(self.root).is_file():
            with zipfile.ZipFile(self.root) as jar:
                return jar.read(self.member)
        return Path(self.member).read_bytes()


@dataclass(frozen=True, slots=True)
class ViewerFiles:
    """The viewer's files by their path under ``view/`` (``core/Drawer.js``)."""

    files: dict[str, Source]
    roots: tuple[str, ...]          # the entries looked in, in order


def find_viewer(game_file: GameFile) -> ViewerFiles | str:
    """The viewer files of ``game_file``, or one line saying why it has none."""
    if game_file.protocol != "codingame":
        return (f"{game_file.name} is a brutaltester (###) referee's game: CodinGame's viewer "
                "needs an SDK referee's frames")
    roots = viewer_roots(game_file)
    files: dict[str, Source] = {}
    for root in roots:
        for path, source in _view_files(root):
            files.setdefault(path, source)
            if len(files) > MAX_FILES:
                return f"more than {MAX_FILES} files under view/ in {root}: not a viewer"
    missing = [f"view/{path} ({what})" for path, what in REQUIRED.items() if path not in files]
    if not missing:
        return ViewerFiles(files, tuple(roots))
    where = "its viewer, classpath and libraries" if game_file.host else \
        "its viewer entries and its command's -cp"
    advice = ("name the jars or folders that hold view/ with viewer = [...] in the game file "
              "(docs/codingame-referees.md)")
    if not roots:                   # a referee that is no java command (a Python one) and no viewer
        given = "no viewer, classpath or libraries" if game_file.host else \
            "no viewer entries, and its command gives java no -cp"
        return f"the game file names no jar or folder to look in for view/: {given}; {advice}"
    if not files:
        return f"no view/ folder in any of the {len(roots)} jars and folders of {where}: {advice}"
    return f"no {', '.join(missing)} in {where}: {advice}"


def viewer_roots(game_file: GameFile) -> list[str]:
    """The jars and folders to look in, in order, each once."""
    roots = list(game_file.viewer)
    if game_file.host is not None:
        roots += [*game_file.host.classpath, *game_file.host.libraries]
    else:
        roots += command_class_path(game_file.command, game_file.folder)
    return list(dict.fromkeys(roots))


def command_class_path(argv: tuple[str, ...], folder: Path) -> list[str]:
    """The class path a java command line gives (``-cp``, ``@argfiles``), entries made absolute
    from ``folder`` (where the command runs) and ``dir/*`` made its jars; [] without one."""
    words = _expand_argfiles(list(argv), folder)
    entries: list[str] = []
    for index, word in enumerate(words):
        value = None
        if word in CLASS_PATH_OPTIONS and index + 1 < len(words):
            value = words[index + 1]
        elif word.startswith("--class-path="):
            value = word.split("=", 1)[1]
        if value is not None:
            entries += [entry for part in value.split(os.pathsep) if part
                        for entry in _entries(folder / part)]
    return entries


def _expand_argfiles(words: list[str], folder: Path) -> list[str]:
    """java's ``@file`` arguments replaced by the file's words (one level, as java reads them)."""
    expanded: list[str] = []
    for word in words:
        if word.startswith("@") and len(word) > 1:
            try:
                text = (folder / word[1:]).read_text()
            except (OSError, UnicodeDecodeError):
                continue
            try:
                expanded += shlex.split(text, comments=True)
            except ValueError:
                continue
        else:
            expanded.append(word)
    return expanded


def _entries(path: Path) -> list[str]:
    if path.name == "*":
        return sorted(str(jar.absolute()) for jar in path.parent.glob("*.jar"))
    return [str(path.absolute())]


def _view_files(root: str) -> Iterator[tuple[str, Source]]:
    """(path under view/, source) of every file of ``root``'s view/ (none when it has none)."""
    path = Path(root)
    if path.is_file():
        yield from _jar_view_files(path)
        return
    view = path / "view"
    if not view.is_dir():
        return
    for folder, _, names in os.walk(view, followlinks=True):
        for name in sorted(names):
            full = Path(folder) / name
            relative = full.relative_to(view).as_posix()
            if full.is_file() and _safe(relative):
                yield relative, Source(root, str(full))


def _jar_view_files(path: Path) -> Iterator[tuple[str, Source]]:
    try:
        with zipfile.ZipFile(path) as jar:
            names = [info.filename for info in jar.infolist() if not info.is_dir()]
    except (OSError, zipfile.BadZipFile):
        return                      # not a jar (java skips it too)
    for name in names:
        if name.startswith("view/") and _safe(name[len("view/"):]):
            yield name[len("view/"):], Source(str(path), name)


def _safe(relative: str) -> bool:
    """A path that stays inside the viewer's folder (a jar may hold ``view/../x``)."""
    parts = PurePosixPath(relative).parts
    return bool(parts) and not relative.startswith("/") and ".." not in parts and "\\" not in relative
