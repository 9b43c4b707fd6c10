"""A Java bot's source folder as one file with one public class, ``Player``, as CodinGame runs it.

Every ``.java`` file of the bot's source folder (see tools.languages.java) goes in: package lines
removed (everything lands in the default package), imports merged and deduplicated (those of the
bot's own packages dropped: their classes are now in the same file), and ``public`` taken off
every top-level type but ``Player``. Refused, with the reason: two classes of the same name in
different packages, a static import or a nested-class import of the bot's own classes.
"""
from __future__ import annotations

import re
from pathlib import Path

from referee.api import UsageError
from tools.bundle.native_parts import NativeBundle, header_lines, relative_label
from tools.languages import java
from tools.languages.lexing import mask_java

MAIN_CLASS = "Player"

_IMPORT = re.compile(r"^[ \t]*import\s+(static\s+)?([\w.\s*]+?)\s*;[ \t]*\n?", re.MULTILINE)
_PACKAGE_LINE = re.compile(r"^[ \t]*package\s+[\w.\s]+?;[ \t]*\n?", re.MULTILINE)
_PUBLIC = re.compile(r"\bpublic\b\s*")
_SKIPPED = ("package-info.java", "module-info.java")


def bundle_java(entry: Path, command: str) -> NativeBundle:
    project = java.load_project(entry)
    if entry.stem != MAIN_CLASS:
        raise UsageError(f"{entry}: CodinGame runs the class {MAIN_CLASS}: bundle the file "
                         f"{MAIN_CLASS}.java (its main method)")
    files = [path for path in project.files if path.name not in _SKIPPED]
    sources = {path: path.read_text(encoding="utf-8") for path in files}
    packages = {java.package_of(text) for text in sources.values()} - {""}
    _check_class_names(files, project.root)
    imports: list[str] = []
    bodies: list[tuple[str, str]] = []
    ordered = [project.entry] + [path for path in files if path != project.entry]
    for path in ordered:
        label = relative_label(path, project.root)
        body, found = _strip_file(sources[path], label, packages, keep_public=path == project.entry)
        imports.extend(line for line in found if line not in imports)
        bodies.append((label, body))
    head = header_lines("//", project.entry, len(bodies), command)
    parts = [(label, len(body)) for label, body in bodies]
    text = "\n".join(head + sorted(imports, key=lambda line: line.startswith("import static"))
                     + [""] + [f"// ---- {label} ----\n{body}" for label, body in bodies])
    return NativeBundle(text.rstrip("\n") + "\n", "Java", tuple(parts))


def _check_class_names(files: list[Path], root: Path) -> None:
    seen: dict[str, Path] = {}
    for path in files:
        other = seen.setdefault(path.stem, path)
        if other != path:
            raise UsageError(f"two classes named {path.stem} ({relative_label(other, root)}, "
                             f"{relative_label(path, root)}): a bundle has a single package; "
                             "rename one")


def _strip_file(text: str, label: str, packages: set[str], *,
                keep_public: bool) -> tuple[str, list[str]]:
    """The file without its package and import lines and, unless ``keep_public``, without
    ``public`` on its top-level types; and the import lines it still needs."""
    masked = mask_java(text)
    cuts: list[tuple[int, int]] = []
    imports = []
    for match in _PACKAGE_LINE.finditer(masked):
        cuts.append(match.span())
    for match in _IMPORT.finditer(masked):
        cuts.append(match.span())
        static, name = bool(match.group(1)), re.sub(r"\s+", "", match.group(2))
        # the longest of the bot's packages the name is in (bot.model.Board: bot.model, not bot)
        own = max((package for package in packages if name.startswith(package + ".")), key=len,
                  default=None)
        if own is None:
            imports.append(f"import {'static ' if static else ''}{name};")
            continue
        rest = name[len(own) + 1:]
        if static or ("." in rest and rest != "*"):
            line = masked.count("\n", 0, match.start()) + 1
            raise UsageError(f"{label}:{line}: import {'static ' if static else ''}{name}: the "
                             "bundle puts the bot's classes in one package, which cannot be "
                             "imported from; name the class instead (Board.Line, Util.max)")
    if not keep_public:
        cuts.extend(_top_level_public(masked))
    return _cut(text, cuts), imports


def _top_level_public(masked: str) -> list[tuple[int, int]]:
    """Spans of ``public`` modifiers outside every brace: those of top-level types."""
    spans, depth, cursor = [], 0, 0
    for match in _PUBLIC.finditer(masked):
        segment = masked[cursor:match.start()]
        depth += segment.count("{") - segment.count("}")
        cursor = match.start()
        if depth == 0:
            spans.append(match.span())
    return spans


def _cut(text: str, spans: list[tuple[int, int]]) -> str:
    pieces, cursor = [], 0
    for start, end in sorted(spans):
        if start < cursor:
            continue
        pieces.append(text[cursor:start])
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)
