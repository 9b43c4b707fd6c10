"""Source text with its comments and literals blanked out, so that structure can be searched.

``mask_c``, ``mask_java`` and ``mask_rust`` return a copy of a source file where the inside of
every comment, string and character literal is replaced by spaces (newlines are kept): the result
has the same length and the same line breaks as the original, so a position found in the mask
(a brace, a ``mod x;``, a ``#include``) is the same position in the original text.
"""
from __future__ import annotations

import re

_C_RAW_STRING = re.compile(r'(?:u8|[uUL])?R"([^()\\ \t\n]{0,16})\(')
_RUST_RAW_STRING = re.compile(r'b?r(#*)"')


def _blank(text: str) -> str:
    return "".join("\n" if char == "\n" else " " for char in text)


def _quoted_end(text: str, start: int, quote: str) -> int:
    """The index after the literal opened by ``quote`` at ``start`` (escapes honoured; an
    unterminated literal ends at its line's end, as compilers report it)."""
    index = start + 1
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == quote:
            return index + 1
        if char == "\n" and quote == "'":
            return index
        index += 1
    return len(text)


def _masker(text: str, scan) -> str:
    """Apply ``scan(text, index) -> (end, keep_delimiters)`` at every index where a literal or
    comment may start; ``scan`` returns None where none starts."""
    out: list[str] = []
    index = 0
    size = len(text)
    while index < size:
        found = scan(text, index)
        if found is None:
            out.append(text[index])
            index += 1
            continue
        end, opening, closing = found
        out.append(text[index:index + opening])
        out.append(_blank(text[index + opening:end - closing]))
        out.append(text[end - closing:end])
        index = end
    return "".join(out)


def _line_comment(text: str, index: int) -> tuple[int, int, int]:
    end = text.find("\n", index)
    return (len(text) if end < 0 else end), 0, 0


def _block_comment(text: str, index: int, nested: bool) -> tuple[int, int, int]:
    depth, cursor = 1, index + 2
    while cursor < len(text) and depth:
        if nested and text.startswith("/*", cursor):
            depth, cursor = depth + 1, cursor + 2
        elif text.startswith("*/", cursor):
            depth, cursor = depth - 1, cursor + 2
        else:
            cursor += 1
    return cursor, 0, 0


def _c_scan(text: str, index: int):
    char = text[index]
    if char == "/" and text.startswith("//", index):
        return _line_comment(text, index)
    if char == "/" and text.startswith("/*", index):
        return _block_comment(text, index, nested=False)
    if char in "uUL" or char == "R":
        raw = _C_RAW_STRING.match(text, index)
        if raw and (index == 0 or not (text[index - 1].isalnum() or text[index - 1] == "_")):
            closing = ")" + raw.group(1) + '"'
            end = text.find(closing, raw.end())
            end = len(text) if end < 0 else end + len(closing)
            return end, raw.end() - index, len(closing)
        return None
    if char in "\"'":
        end = _quoted_end(text, index, char)
        return end, 1, 1 if text[end - 1:end] == char else 0
    return None


def _java_scan(text: str, index: int):
    char = text[index]
    if char == "/" and text.startswith("//", index):
        return _line_comment(text, index)
    if char == "/" and text.startswith("/*", index):
        return _block_comment(text, index, nested=False)
    if text.startswith('"""', index):             # a text block
        cursor = index + 3
        while cursor < len(text):
            if text[cursor] == "\\":
                cursor += 2
            elif text.startswith('"""', cursor):
                return cursor + 3, 3, 3
            else:
                cursor += 1
        return len(text), 3, 0
    if char in "\"'":
        end = _quoted_end(text, index, char)
        return end, 1, 1 if text[end - 1:end] == char else 0
    return None


def _rust_scan(text: str, index: int):
    char = text[index]
    if char == "/" and text.startswith("//", index):
        return _line_comment(text, index)
    if char == "/" and text.startswith("/*", index):
        return _block_comment(text, index, nested=True)
    previous = text[index - 1] if index else " "
    identifier_before = previous.isalnum() or previous == "_"
    if char in "br" and not identifier_before:
        raw = _RUST_RAW_STRING.match(text, index)
        if raw:
            closing = '"' + raw.group(1)
            end = text.find(closing, raw.end())
            end = len(text) if end < 0 else end + len(closing)
            return end, raw.end() - index, len(closing)
        if char == "b" and text.startswith(("b'", 'b"'), index):
            end = _quoted_end(text, index + 1, text[index + 1])
            return end, 2, 1
        return None
    if char == '"':
        end = _quoted_end(text, index, '"')
        return end, 1, 1 if text[end - 1:end] == '"' else 0
    if char == "'":
        # a character literal ('x', '\n', '{'), or a lifetime ('a) that is not one
        if text.startswith("\\", index + 1):
            end = _quoted_end(text, index, "'")
            return end, 1, 1
        if index + 2 < len(text) and text[index + 2] == "'" and text[index + 1] != "\n":
            return index + 3, 1, 1
        return None
    return None


def mask_c(text: str) -> str:
    """C and C++: // and /* */ comments, "strings", 'c' characters, R"x(raw strings)x"."""
    return _masker(text, _c_scan)


def mask_java(text: str) -> str:
    """Java: comments, strings, characters and \"\"\"text blocks\"\"\"."""
    return _masker(text, _java_scan)


def mask_rust(text: str) -> str:
    """Rust: comments (block comments nest), strings, raw strings r#"..."#, byte strings and
    character literals (a lifetime such as 'a is not one)."""
    return _masker(text, _rust_scan)
