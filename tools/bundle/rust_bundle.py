"""A Rust crate's local module tree inlined into one ``main.rs``.

Every ``mod foo;`` whose file is found (tools.languages.rust: ``foo.rs`` or ``foo/mod.rs``, in
nested folders) becomes ``mod foo { <foo's file> }`` with the same visibility and attributes,
recursively, so paths (``crate::``, ``super::``) mean what they meant. Files are inlined as
written, without re-indenting (a multi-line string keeps its exact text); a module file's inner
attributes (``#![allow(...)]``) and ``//!`` comments are valid at the start of its block.
"""
from __future__ import annotations

from pathlib import Path

from referee.api import UsageError
from tools.bundle.native_parts import NativeBundle, header_lines, relative_label
from tools.languages import rust


def bundle_rust(entry: Path, command: str) -> NativeBundle:
    crate = rust.load_crate(entry)
    base = crate.entry.parent
    sizes: dict[str, int] = {}
    body = _render(crate, crate.entry, base, sizes)
    head = header_lines("//", crate.entry, len(sizes), command)
    return NativeBundle("\n".join(head) + "\n" + body.rstrip("\n") + "\n", "Rust",
                        tuple(sizes.items()))


def _render(crate: rust.RustCrate, path: Path, base: Path, sizes: dict[str, int]) -> str:
    source = crate.files[path]
    label = relative_label(path, base)
    pieces, cursor = [], 0
    for declaration in source.declarations:
        if declaration.path is None:
            line = source.text.count("\n", 0, declaration.start) + 1
            folder = rust.child_folder(path, path == crate.entry)
            nested = relative_label(folder / declaration.name / "mod.rs", base)
            raise UsageError(f"{label}:{line}: mod {declaration.name}; but neither "
                             f"{relative_label(folder / f'{declaration.name}.rs', base)} nor "
                             f"{nested} exists")
        pieces.append(source.text[cursor:declaration.start])
        inner = _render(crate, declaration.path, base, sizes)
        pieces.append(f"{declaration.visibility}mod {declaration.name} {{\n"
                      f"// ---- {relative_label(declaration.path, base)} ----\n"
                      f"{inner.rstrip(chr(10))}\n}}")
        cursor = declaration.end
    pieces.append(source.text[cursor:])
    sizes[label] = len(source.text)
    return "".join(pieces)
