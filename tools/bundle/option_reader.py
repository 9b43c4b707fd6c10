"""Run as a child process by ``botarena bundle --set``: read a bot's options without running it.

Only the bot's definitions run here: its imports, functions, classes and assignments at the top
level (and ``if``/``try`` blocks made only of those), one statement at a time, a failing one
skipped; never a call or a loop at the top level, nor its ``if __name__`` block. Then its
``build_parser()`` converts and checks each KEY=VALUE. The parent gives this process no stdin,
a time limit, and runs it confined as a bot (``referee.harness.confined``: its own cgroup,
everything it started killed after), so a bot that reads input at its top level or starts
something, even in a session of its own, cannot hang or touch botarena.

argv[1] is the request (JSON: path, name, package, search_roots, pairs, label); the answer is
one line on the original stdout, ``ANSWER_MARK`` then a JSON object: {"defaults": "<repr of a
dict>", "arguments": [the command-line words that set the same values]} or {"error": "..."}.
The bot's own prints go to stderr. Standard library only: it runs beside the bot, not botarena.
"""
from __future__ import annotations
import __future__

import argparse
import ast
import json
import os
import sys
import tokenize
from typing import NoReturn

ANSWER_MARK = "botarena-options: "      # starts the answer's line (the bot's prints share the pipe)
_DEFINITIONS = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Pass)


class Refused(Exception):
    """A one-line reason, given to the parent as the UsageError to raise."""


def main() -> None:
    answer = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)                       # whatever the bot prints goes to stderr, not the answer
    request = json.loads(sys.argv[1])
    try:
        parser = _build_parser(request)
        defaults = typed_defaults(parser, request["pairs"], request["label"])
        reply = {"defaults": repr(defaults), "arguments": option_words(parser, defaults)}
    except Refused as refused:
        reply = {"error": str(refused)}
    answer.write(ANSWER_MARK + json.dumps(reply) + "\n")
    answer.close()


# -- the bot's definitions --------------------------------------------------------------------

def _build_parser(request: dict) -> argparse.ArgumentParser:
    path, label = request["path"], request["label"]
    sys.path[:0] = request["search_roots"]
    sys.argv = [path]
    with tokenize.open(path) as handle:
        tree = ast.parse(handle.read(), filename=path)
    namespace = {"__name__": "__botarena_options__", "__file__": path, "__builtins__": __builtins__,
                 "__package__": request["package"], "__doc__": ast.get_docstring(tree, clean=False)}
    skipped = _run_definitions(tree, path, namespace)
    build_parser = namespace.get("build_parser")
    if not callable(build_parser):
        raise Refused(f"--set needs {label} to define build_parser() returning its argparse "
                      f"parser{skipped}")
    try:
        parser = build_parser()
    except (Exception, SystemExit) as error:
        raise Refused(f"--set: {label}'s build_parser() failed: {_text(error)}{skipped}") from None
    if not isinstance(parser, argparse.ArgumentParser):
        raise Refused(f"--set: {label}'s build_parser() returned {type(parser).__name__}, not an "
                      "argparse parser")
    return parser


def _run_definitions(tree: ast.Module, path: str, namespace: dict) -> str:
    """Run the definitions of ``tree`` in ``namespace``; a note on the first one that failed."""
    flags, failure = 0, ""
    for statement in tree.body:
        if not _is_definition(statement):
            continue
        if isinstance(statement, ast.ImportFrom) and statement.module == "__future__":
            for alias in statement.names:
                flags |= getattr(__future__, alias.name).compiler_flag
        code = compile(ast.Module([statement], []), path, "exec", flags=flags, dont_inherit=True)
        try:
            exec(code, namespace)
        except (Exception, SystemExit) as error:
            failure = failure or (f" (line {statement.lineno} of its top level, skipped, raised "
                                  f"{_text(error)})")
    return failure


def _is_definition(statement: ast.stmt) -> bool:
    """An import, def, class or assignment, or an if/try block of nothing else (an optional
    import); never a call, a loop, or the ``if __name__ == "__main__"`` block."""
    if isinstance(statement, _DEFINITIONS):
        return True
    if isinstance(statement, ast.Expr):
        return isinstance(statement.value, ast.Constant)          # a docstring
    if isinstance(statement, ast.If):
        return "__name__" not in ast.unparse(statement.test) and \
            all(map(_is_definition, statement.body + statement.orelse))
    if isinstance(statement, ast.Try):
        blocks = statement.body + statement.orelse + statement.finalbody + \
            [inner for handler in statement.handlers for inner in handler.body]
        return all(map(_is_definition, blocks))
    return False


def _text(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


# -- KEY=VALUE through the bot's parser -------------------------------------------------------

def typed_defaults(parser: argparse.ArgumentParser, pairs: list[str], label: str) -> dict:
    """``--set key=value`` texts -> {dest: typed value}, checked against the bot's own parser."""
    actions = {action.dest: action for action in parser._actions if action.option_strings}
    defaults = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        dest = key.strip().lstrip("-").replace("-", "_")
        if not sep or not dest:
            raise Refused(f"--set {pair!r}: expected KEY=VALUE (e.g. --set depth=2)")
        action = actions.get(dest)
        if action is None or dest == "help":
            known = ", ".join(sorted(name for name in actions if name != "help")) or "none"
            raise Refused(f"--set {pair!r}: {label} has no parameter {dest!r} (known: {known})")
        defaults[dest] = _typed_value(parser, action, value.strip(), pair)
    return defaults


def _typed_value(parser: argparse.ArgumentParser, action: argparse.Action, text: str, pair: str):
    """The value ``text`` stands for, converted and checked by the bot's own parser."""
    if action.nargs == 0:
        if not isinstance(action.const, bool):
            raise Refused(f"--set {pair!r}: {action.option_strings[0]} takes no value")
        if text.lower() not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
            raise Refused(f"--set {pair!r}: expected true or false")
        flag = text.lower() in ("true", "1", "yes", "on")
        return flag if action.const else not flag
    words = text.split() if action.nargs not in (None, "?") else [text]

    def refuse(message: str) -> NoReturn:
        raise Refused(f"--set {pair!r}: {message}")

    # the bot's own parser, made to raise instead of exiting: argparse's only hook for that
    # (exit_on_error=False, a constructor argument, leaves some errors to error())
    parser.error = refuse           # type: ignore[method-assign]
    try:
        parsed = parser.parse_known_args([action.option_strings[0], *words])[0]
    except SystemExit:                  # an action of the bot's that exits (a custom one)
        raise Refused(f"--set {pair!r}: the bot's parser exits on it") from None
    value = getattr(parsed, action.dest)
    try:
        literal_ok = ast.literal_eval(repr(value)) == value
    except (ValueError, SyntaxError):
        literal_ok = False
    if not literal_ok:
        raise Refused(f"--set {pair!r}: its value {value!r} cannot be written into the bundle")
    return value


def option_words(parser: argparse.ArgumentParser, defaults: dict) -> list[str]:
    """The command-line words that give the bot the values ``defaults`` bakes in."""
    actions = {action.dest: action for action in parser._actions if action.option_strings}
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


if __name__ == "__main__":
    main()
