"""``botarena bundle --set key=value``: parameter defaults baked into a bundled bot.

The values are checked and converted by the bot's own argparse parser at bundle time (read in a
child process: see ``option_reader``); the bundle wraps the bot's ``build_parser()`` so that they
become its defaults (arguments still win), which is what a contest site that runs the file
without arguments needs.
"""
from __future__ import annotations

import ast
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from referee.api import UsageError
from referee.harness.confined import run_confined
from tools.arena.printable import printable
from tools.bundle.option_reader import ANSWER_MARK

if TYPE_CHECKING:
    from tools.bundle.entry import Entry

READ_OPTIONS_S = 10         # a bot's definitions take well under a second to run


def parse_defaults(entry: Entry, pairs: list[str]) -> dict:
    """``--set key=value`` texts -> {dest: typed value}, checked against the bot's own parser."""
    return read_defaults(entry, pairs)[0]


def read_defaults(entry: Entry, pairs: list[str]) -> tuple[dict, list[str]]:
    """``--set key=value`` texts -> ({dest: typed value}, the command-line words that give the
    unbundled bot those values: the original ``bundle --check`` compares the bundle with).

    The parser is read in a child process (``option_reader``) that runs only the bot's
    definitions, with no stdin and a time limit, confined, killed with everything it started
    after: the bot's top-level code (an input loop, a side effect) never runs in botarena."""
    if not pairs:
        return {}, []
    request = {"path": str(entry.path), "package": entry.package, "label": entry.label,
               "search_roots": [str(root) for root in entry.search_roots], "pairs": pairs}
    command = [sys.executable, "-P", str(Path(__file__).with_name("option_reader.py")),
               json.dumps(request)]
    # confined as a bot: whatever its definitions start (even in a session of their own) is
    # killed with it, at the end or at the time limit
    done = run_confined(command, cwd=os.getcwd(), writable=None, memory_mb=None,
                        timeout_s=READ_OPTIONS_S)
    if done.status is None:
        raise UsageError(f"--set: reading the options of {entry.label} took over "
                         f"{READ_OPTIONS_S} s (its imports or assignments at the top level "
                         "wait or loop?)")
    lines = done.output.strip().splitlines()
    answers = [line[len(ANSWER_MARK):] for line in lines if line.startswith(ANSWER_MARK)]
    try:
        reply = json.loads(answers[-1])
    except (ValueError, IndexError):
        last = lines[-1] if lines else f"exit status {done.status}"
        raise UsageError(f"--set: reading the options of {entry.label} failed: "
                         f"{printable(last)}") from None
    if "error" in reply:
        raise UsageError(reply["error"])
    return ast.literal_eval(reply["defaults"]), reply["arguments"]


_BAKED_DEFAULTS = '''

# Baked in by `botarena bundle --set`: defaults replacing those of the parser (arguments still win).
_build_parser_unbaked = build_parser


def build_parser():
    import argparse
    defaults = {defaults!r}
    parser = _build_parser_unbaked()
    parser.set_defaults(**defaults)
    for action in parser._actions:
        if action.dest in defaults and action.help not in (None, argparse.SUPPRESS):
            action.help += " [bundled default: %s]" % repr(defaults[action.dest]).replace("%", "%%")
    return parser
'''


def bake_defaults(source: str, defaults: dict, label: str) -> str:
    """``source`` with ``build_parser`` wrapped, right after it is bound, to set ``defaults``."""
    if not defaults:
        return source
    binding = None
    for statement in ast.parse(source).body:
        if _is_main_guard(statement):
            break
        if "build_parser" in _bound_names(statement):
            binding = statement
    if binding is None:
        raise UsageError(f"--set needs {label} to define build_parser() at its top level")
    lines = source.splitlines(keepends=True)
    cut = binding.end_lineno
    head = "".join(lines[:cut])
    if not head.endswith("\n"):
        head += "\n"
    return head + _BAKED_DEFAULTS.format(defaults=defaults) + "".join(lines[cut:])


def _bound_names(statement: ast.stmt) -> set[str]:
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {statement.name}
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return {(alias.asname or alias.name).split(".")[0] for alias in statement.names}
    if isinstance(statement, (ast.Assign, ast.AnnAssign)):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return {node.id for target in targets for node in ast.walk(target) if isinstance(node, ast.Name)}
    return set()


def _is_main_guard(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.If) and "__name__" in ast.unparse(statement.test)

