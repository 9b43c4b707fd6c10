"""``botarena bundle --set key=value``: parameter defaults baked into a bundled bot.

The values are checked and converted by the bot's own argparse parser at bundle time; the bundle
wraps the bot's ``build_parser()`` so that they become its defaults (arguments still win), which
is what a contest site that runs the file without arguments needs.
"""
from __future__ import annotations

import argparse
import ast
import importlib
import runpy
import sys
from typing import TYPE_CHECKING

from referee.api import UsageError

if TYPE_CHECKING:
    from tools.bundle.entry import Entry


def parse_defaults(entry: Entry, pairs: list[str]) -> dict:
    """``--set key=value`` texts -> {dest: typed value}, checked against the bot's own parser."""
    if not pairs:
        return {}
    parser = _bot_parser(entry)
    actions = {action.dest: action for action in parser._actions if action.option_strings}
    defaults = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        dest = key.strip().lstrip("-").replace("-", "_")
        if not sep or not dest:
            raise UsageError(f"--set {pair!r}: expected KEY=VALUE (e.g. --set depth=2)")
        action = actions.get(dest)
        if action is None or dest == "help":
            known = ", ".join(sorted(name for name in actions if name != "help")) or "none"
            raise UsageError(f"--set {pair!r}: {entry.label} has no parameter {dest!r} (known: {known})")
        defaults[dest] = _typed_value(parser, action, value.strip(), pair)
    return defaults


def _bot_parser(entry: Entry) -> argparse.ArgumentParser:
    if entry.name != "__main__":
        module = vars(importlib.import_module(entry.name))
    else:
        saved = sys.path[:]
        sys.path[:0] = [str(root) for root in entry.search_roots]
        try:
            module = runpy.run_path(str(entry.path), run_name="__botarena_bundle__")
        finally:
            sys.path[:] = saved
    if not callable(module.get("build_parser")):
        raise UsageError(f"--set needs {entry.label} to define build_parser() returning its "
                         "argparse parser")
    return module["build_parser"]()


def _typed_value(parser: argparse.ArgumentParser, action: argparse.Action, text: str, pair: str):
    """The value ``text`` stands for, converted and checked by the bot's own parser."""
    if action.nargs == 0:
        if not isinstance(action.const, bool):
            raise UsageError(f"--set {pair!r}: {action.option_strings[0]} takes no value")
        if text.lower() not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
            raise UsageError(f"--set {pair!r}: expected true or false")
        flag = text.lower() in ("true", "1", "yes", "on")
        return flag if action.const else not flag
    words = text.split() if action.nargs not in (None, "?") else [text]

    def refuse(message: str):
        raise UsageError(f"--set {pair!r}: {message}")

    parser.error = refuse
    value = getattr(parser.parse_known_args([action.option_strings[0], *words])[0], action.dest)
    try:
        literal_ok = ast.literal_eval(repr(value)) == value
    except (ValueError, SyntaxError):
        literal_ok = False
    if not literal_ok:
        raise UsageError(f"--set {pair!r}: its value {value!r} cannot be written into the bundle")
    return value


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


def defaults_as_arguments(entry: Entry, defaults: dict) -> list[str]:
    """The command-line words that give an unbundled bot the values ``defaults`` bakes in (the
    original that ``bundle --check`` compares the bundle with)."""
    if not defaults:
        return []
    actions = {action.dest: action for action in _bot_parser(entry)._actions
               if action.option_strings}
    words: list[str] = []
    for dest, value in defaults.items():
        action = actions[dest]
        option = next((text for text in action.option_strings if text.startswith("--")),
                      action.option_strings[0])
        if action.nargs == 0:
            if value != action.default:
                words.append(option)
            continue
        words += [option, *map(str, value if isinstance(value, list) else [value])]
    return words
