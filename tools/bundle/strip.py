"""Shrink Python source for a bundle: no comments, docstrings or blank lines, one space per indent.

Token-level, never regenerated from the AST, and checked: the result must parse to the same AST
as the original minus its docstrings, or ``strip_source`` raises instead of returning it.
"""
from __future__ import annotations

import ast
import io
import tokenize

from referee.api import UsageError

_FSTRING_START = getattr(tokenize, "FSTRING_START", None)      # Python 3.12+
_FSTRING_END = getattr(tokenize, "FSTRING_END", None)
_SKIPPED = {tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER}


def strip_source(source: str, *, keep_module_docstring: bool = False, label: str = "<source>") -> str:
    """``source`` without comments, docstrings (but the module's, if kept) and blank lines."""
    tree = ast.parse(source)
    spans, lone = _docstring_spans(tree, keep_module_docstring)
    try:
        stripped = _rewrite(source, spans, lone)
        same = ast.dump(ast.parse(stripped)) == ast.dump(tree)
    except (SyntaxError, tokenize.TokenError, IndentationError):
        same = False
    if not same:
        raise UsageError(f"cannot strip {label} safely (bundle it with --strip never)")
    return stripped


def _docstring_spans(tree: ast.Module, keep_module_docstring: bool
                     ) -> tuple[dict[tuple[int, int], tuple[int, int]], set[tuple[int, int]]]:
    """Start -> end of each docstring to drop; ``lone`` holds those that are a whole body.

    The tree is edited to match what the stripped source will parse to: a lone docstring
    becomes ``pass``, any other is removed.
    """
    spans: dict[tuple[int, int], tuple[int, int]] = {}
    lone: set[tuple[int, int]] = set()
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if isinstance(node, ast.Module) and keep_module_docstring:
            continue
        body = node.body
        if not (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            continue
        doc = body[0]
        start = (doc.lineno, doc.col_offset)
        assert doc.end_lineno is not None and doc.end_col_offset is not None   # set by ast.parse
        spans[start] = (doc.end_lineno, doc.end_col_offset)
        if len(body) == 1:
            lone.add(start)
            body[0] = ast.Pass()
        else:
            del body[0]
    return spans, lone


def _rewrite(source: str, spans: dict, lone: set) -> str:
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    lines = source.splitlines(keepends=True)
    spans = {_char_position(lines, start): _char_position(lines, end) for start, end in spans.items()}
    lone = {_char_position(lines, start) for start in lone}
    out: list[str] = []
    depth = 0
    line_start = True
    previous_end: tuple[int, int] | None = None
    index = 0
    while index < len(tokens):
        token = tokens[index]
        kind = token.type
        index += 1
        if kind in _SKIPPED:
            continue
        if kind == tokenize.INDENT:
            depth += 1
            continue
        if kind == tokenize.DEDENT:
            depth -= 1
            continue
        if kind == tokenize.NEWLINE:
            if not line_start:
                out.append("\n")
            line_start, previous_end = True, None
            continue
        text, end = token.string, token.end
        if token.start in spans:
            index, text, end = _docstring_replacement(tokens, index - 1, spans[token.start],
                                                      token.start in lone)
            if not text:
                continue
        elif kind == _FSTRING_START:
            index, end = _fstring_end(tokens, index - 1)
            text = _slice(lines, token.start, end)
        if line_start:
            out.append(" " * depth)
            line_start = False
        elif previous_end is not None and token.start != previous_end:
            out.append(" ")
        out.append(text)
        previous_end = end
    return "".join(out)


def _char_position(lines: list[str], position: tuple[int, int]) -> tuple[int, int]:
    """The AST's (row, UTF-8 byte column) as tokenize's (row, character column)."""
    row, column = position
    return row, len(lines[row - 1].encode()[:column].decode(errors="ignore"))


def _docstring_replacement(tokens: list, index: int, end: tuple[int, int], lone: bool
                           ) -> tuple[int, str, tuple[int, int]]:
    """Skip the docstring's tokens (and the ``;`` or NEWLINE closing it); ``pass`` if it is a body."""
    while index < len(tokens) and tokens[index].end <= end:
        index += 1
    if lone:
        return index, "pass", end
    if index < len(tokens) and tokens[index].type == tokenize.OP and tokens[index].string == ";":
        index += 1
    elif index < len(tokens) and tokens[index].type == tokenize.NEWLINE:
        index += 1
    return index, "", end


def _fstring_end(tokens: list, index: int) -> tuple[int, tuple[int, int]]:
    """Index after the FSTRING_END matching the FSTRING_START at ``index``, and its end position."""
    nesting = 0
    while index < len(tokens):
        kind = tokens[index].type
        nesting += kind == _FSTRING_START
        nesting -= kind == _FSTRING_END
        index += 1
        if nesting == 0:
            return index, tokens[index - 1].end
    raise tokenize.TokenError("unterminated f-string")


def _slice(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> str:
    """The source text from ``start`` to ``end`` (tokenize's 1-based rows, 0-based columns)."""
    if start[0] == end[0]:
        return lines[start[0] - 1][start[1]:end[1]]
    middle = lines[start[0]:end[0] - 1]
    return lines[start[0] - 1][start[1]:] + "".join(middle) + lines[end[0] - 1][:end[1]]
