"""One self-contained file from a bot: its imports from this project inlined as real modules.

Each inlined module keeps its source as a string; an import hook in the bundle turns it into a
real module object (``sys.modules``, its own ``__dict__`` as globals, ``__name__``, ``__package__``,
``__path__`` for packages) the moment it is first imported, so imports run in their original order
and module globals stay plain dict lookups: no speed loss. The bot itself runs as ``__main__``
the same way. Nothing is written to disk at run time; the file is ASCII; it may only import the
standard library besides what it inlines.
"""
from __future__ import annotations

import ast
import re
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path

from referee.api import UsageError
from referee.games import game_names
from tools.arena.botspec import PROJECT_ROOT, bot_module, bot_path, builtin_bots, first_paragraph
from tools.bundle.defaults import bake_defaults
from tools.bundle.entry import Entry
from tools.bundle.strip import strip_source

CODINGAME_LIMIT = 100_000          # characters; CodinGame refuses code of this size or more
STRIP_MODES = ("auto", "always", "never")
_STDLIB = frozenset(sys.stdlib_module_names) | frozenset(sys.builtin_module_names) | {"__main__"}
_IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}


@dataclass(frozen=True)
class SourceModule:
    name: str
    filename: str                        # shown in tracebacks: the path below its root
    is_package: bool
    source: str


@dataclass(frozen=True)
class Bundle:
    text: str
    entry: Entry
    modules: tuple[SourceModule, ...]
    stripped: bool
    defaults: dict


def resolve_entry(text: str, game: str | None = None) -> Entry:
    """``GAME/NAME``, ``NAME`` with ``game``, or a path to a ``.py`` file."""
    if text.endswith(".py"):
        path = Path(text).resolve()
        if not path.is_file():
            raise UsageError(f"bot {text!r}: no such file")
        name = _project_module_name(path)
        if name is not None:
            return Entry(name, path, (PROJECT_ROOT,))
        return Entry("__main__", path, (path.parent, PROJECT_ROOT))
    named_game, slash, bot = text.rpartition("/")
    game_name = named_game if slash else game
    if not game_name:
        raise UsageError(f"bot {text!r}: give it as GAME/NAME (e.g. tictactoe/{text}), "
                         "with --game GAME, or as a path to a .py file")
    if game_name not in game_names():
        raise UsageError(f"unknown game {game_name!r} (known: {', '.join(game_names())})")
    known = builtin_bots(game_name)
    if bot not in known:
        raise UsageError(f"unknown bot {bot!r} for {game_name} (built-in: {', '.join(known) or 'none'};"
                         " or give a path to a .py file)")
    return Entry(bot_module(game_name, bot), bot_path(game_name, bot), (PROJECT_ROOT,))


def _project_module_name(path: Path) -> str | None:
    """``bots.x.y`` for a file inside one of the project's packages, else None."""
    try:
        parts = path.with_suffix("").relative_to(PROJECT_ROOT).parts
    except ValueError:
        return None
    for depth in range(1, len(parts)):
        if not (PROJECT_ROOT.joinpath(*parts[:depth]) / "__init__.py").is_file():
            return None
    return ".".join(parts) if len(parts) > 1 else None


def read_source(path: Path) -> str:
    """The file's text, decoded as Python decodes it (coding cookie, BOM), newlines as ``\\n``."""
    with tokenize.open(path) as handle:
        return handle.read()


# -- collecting the modules ------------------------------------------------------------------

class _Collector:
    """Walks imports from the entry; inlines the modules found under the search roots."""

    def __init__(self, entry: Entry):
        self.entry = entry
        self.modules: dict[str, SourceModule] = {}
        self.pending: list[SourceModule] = []
        self.project_packages = {folder.name for folder in PROJECT_ROOT.iterdir()
                                 if (folder / "__init__.py").is_file()}
        # the project root lends only its packages, unless the script itself lives there
        self.package_only_roots = {PROJECT_ROOT} - ({entry.path.parent} if entry.name == "__main__"
                                                    else set())

    def collect(self, entry_source: str) -> list[SourceModule]:
        name = self.entry.name
        filename = self.entry.path.name if name == "__main__" else self._filename(name, False)
        first = SourceModule(name, filename, False, entry_source)
        if name != "__main__":
            self._require(name.rpartition(".")[0], first, 0, optional=False)
        self.modules[name] = first
        self.pending.append(first)
        while self.pending:
            module = self.pending.pop()
            for line, target, names, optional in _imports(module):
                self._import(module, line, target, names, optional)
        return sorted(self.modules.values(), key=lambda module: module.name)

    def _import(self, module: SourceModule, line: int, target: str, names: tuple[str, ...],
                optional: bool) -> None:
        self._require(target, module, line, optional=optional)
        if target.split(".")[0] in _STDLIB and not self._find(target):
            return
        for name in names:                              # ``from package import submodule``
            if name != "*" and self._find(f"{target}.{name}"):
                self._require(f"{target}.{name}", module, line, optional=optional)

    def _require(self, name: str, importer: SourceModule, line: int, *, optional: bool) -> None:
        """Inline ``name`` and its parent packages, or check that it is in the standard library."""
        parts = name.split(".")
        for depth in range(1, len(parts) + 1):
            prefix = ".".join(parts[:depth])
            if prefix in self.modules:
                continue
            found = self._find(prefix)
            if found is not None:
                self.modules[prefix] = found
                self.pending.append(found)
                continue
            if depth == 1 and parts[0] in _STDLIB or optional:
                return
            where = f"{importer.filename}:{line}" if line else importer.filename
            if depth > 1:
                raise UsageError(f"{where} imports {name}, but there is no module {prefix} "
                                 f"under {', '.join(map(str, self.entry.search_roots))}")
            raise UsageError(f"{where} imports {name}, which is not in Python's standard library "
                             "(a bundle may only use the standard library besides the modules it "
                             "inlines; CodinGame has nothing else)")

    def _find(self, name: str) -> SourceModule | None:
        parts = name.split(".")
        for root in self.entry.search_roots:
            if root in self.package_only_roots and parts[0] not in self.project_packages:
                continue
            base = root.joinpath(*parts)
            if (base / "__init__.py").is_file():
                return SourceModule(name, self._filename(name, True), True,
                                    read_source(base / "__init__.py"))
            if base.with_name(base.name + ".py").is_file():
                return SourceModule(name, self._filename(name, False), False,
                                    read_source(base.with_name(base.name + ".py")))
            if base.is_dir() and len(parts) > 1 and parts[0] in self.modules:
                return SourceModule(name, self._filename(name, True), True, "")   # namespace package
        return None

    @staticmethod
    def _filename(name: str, is_package: bool) -> str:
        return name.replace(".", "/") + ("/__init__.py" if is_package else ".py")


def _imports(module: SourceModule):
    """(line, absolute module name, imported names, optional) for every import in ``module``."""
    try:
        tree = ast.parse(module.source, module.filename)
    except SyntaxError as error:
        raise UsageError(f"{module.filename}:{error.lineno}: syntax error: {error.msg}") from None
    package = module.name if module.is_package else module.name.rpartition(".")[0]
    for node, optional in _walk_imports(tree, False):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, (), optional
            continue
        target = node.module or ""
        if node.level:
            parts = package.split(".") if package and module.name != "__main__" else []
            if node.level > len(parts):
                raise UsageError(f"{module.filename}:{node.lineno}: relative import beyond the "
                                 "top-level package")
            base = ".".join(parts[:len(parts) - node.level + 1])
            target = f"{base}.{target}" if target else base
        yield node.lineno, target, tuple(alias.name for alias in node.names), optional


def _walk_imports(node: ast.AST, optional: bool):
    """Import nodes anywhere, each with whether it sits in a guarded spot (try/except ImportError,
    ``if TYPE_CHECKING``) where a missing non-standard module is not an error."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node, optional
        return
    if isinstance(node, (ast.Try, ast.TryStar)):
        guarded = any(_catches_import_error(handler.type) for handler in node.handlers)
        for statement in node.body:
            yield from _walk_imports(statement, optional or guarded)
        for part in [*node.handlers, *node.orelse, *node.finalbody]:
            yield from _walk_imports(part, optional)
        return
    if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
        # the body never runs: its imports are for a type checker, not for the bundle
        for statement in node.orelse:
            yield from _walk_imports(statement, optional)
        return
    for child in ast.iter_child_nodes(node):
        yield from _walk_imports(child, optional)


def _catches_import_error(kind: ast.expr | None) -> bool:
    if kind is None:
        return True
    names = kind.elts if isinstance(kind, ast.Tuple) else [kind]
    return any(isinstance(name, ast.Name) and name.id in _IMPORT_ERRORS for name in names)


# -- writing the bundle -----------------------------------------------------------------------

# First, before any import but the built-in sys: Python puts a script's folder first on sys.path
# (unless -P or -I), so a sibling file named like a standard module (psyleague keeps every bot in
# one folder, and a bot added as "random" is random.py) would be imported instead of it.
_OWN_FOLDER_OFF_PATH = '''
import sys
if __name__ == "__main__" and sys.path and not (getattr(sys.flags, "safe_path", 0) or sys.flags.isolated):
    del sys.path[0]     # this file's folder (or '' when read from stdin): a bundle needs nothing there
'''

_RUNTIME = '''

class _BundleImporter:
    """Makes real modules of the sources in _MODULES when they are first imported."""

    def __init__(self, modules):
        self.modules = modules

    def find_spec(self, name, path=None, target=None):
        from importlib.machinery import ModuleSpec
        if name not in self.modules:
            return None
        filename, is_package, _ = self.modules[name]
        spec = ModuleSpec(name, self, origin=filename, is_package=is_package)
        spec.has_location = True
        return spec

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        exec(self.get_code(module.__spec__.name), module.__dict__)

    def get_code(self, name):
        filename, _, source = self.modules[name]
        return compile(source, filename, "exec", dont_inherit=True)

    def get_source(self, name):
        return self.modules[name][2]


def _print_exception(kind, value, traceback):
    """Python's own excepthook reads source lines from files; this one asks the importer."""
    import traceback as tracebacks
    tracebacks.print_exception(kind, value, traceback)


def _run_bundle(modules, entry, package):
    """Install the importer, then run the bot as __main__ in this module's own namespace."""
    import sys
    from importlib.machinery import ModuleSpec
    importer = _BundleImporter(modules)
    sys.meta_path.insert(0, importer)
    sys.excepthook = _print_exception
    sys.dont_write_bytecode = True
    namespace = sys.modules["__main__"].__dict__
    for key in [key for key in namespace if not key.startswith("__")]:
        del namespace[key]
    spec = None if package is None else ModuleSpec(entry, importer, origin=modules[entry][0])
    namespace.update(__doc__=None, __loader__=importer, __package__=package, __spec__=spec)
    exec(importer.get_code(entry), namespace)

'''


def build_bundle(entry: Entry, *, defaults: dict | None = None, strip: str = "auto",
                 limit: int = CODINGAME_LIMIT, command: str = "") -> Bundle:
    """The bundle of ``entry``; UsageError if it needs a non-standard module or is too long.

    ``strip``: ``auto`` strips comments and docstrings only when the verbatim bundle would
    reach ``limit`` characters; ``always``; ``never``.
    """
    defaults = defaults or {}
    entry_source = bake_defaults(read_source(entry.path), defaults, entry.label)
    modules = _Collector(entry).collect(entry_source)
    text = render(entry, modules, defaults, command)
    stripped = strip == "always" or (strip == "auto" and len(text) >= limit)
    if stripped:
        modules = [SourceModule(module.name, module.filename, module.is_package,
                                strip_source(module.source, label=module.filename,
                                             keep_module_docstring=module.name == entry.name))
                   for module in modules]
        text = render(entry, modules, defaults, command)
    if len(text) >= limit:
        even = " even with comments and docstrings stripped" if stripped else ""
        whose = " (CodinGame's: fewer than 100,000)" if limit == CODINGAME_LIMIT else ""
        advice = "" if stripped else "; --strip auto would strip comments and docstrings"
        raise UsageError(f"the bundle of {entry.label} is {len(text):,} characters{even}, "
                         f"{len(text) - limit + 1:,} over the limit of {limit - 1:,}{whose}{advice}")
    return Bundle(text, entry, tuple(modules), stripped, defaults)


def plural(count: int, noun: str) -> str:
    """``1 module``, ``4 modules``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def render(entry: Entry, modules: list[SourceModule], defaults: dict, command: str) -> str:
    """The bundle's text: a header, the importer, every module's source, and the call that runs it."""
    entry_source = next(module.source for module in modules if module.name == entry.name)
    description = first_paragraph(ast.get_docstring(ast.parse(entry_source)) or "")
    header = [
        "#!/usr/bin/env python3",
        f"# {entry.label if entry.package else entry.path.name}, bundled by botarena"
        + (f": {description}" if description else ""),
        *([f"# Made by: {command}"] if command else []),
        *([f"# Baked-in defaults (arguments still win): "
           f"{', '.join(f'{key}={value!r}' for key, value in defaults.items())}"] if defaults else []),
        f"# The {plural(len(modules), 'module')} below "
        f"{'runs as a real module' if len(modules) == 1 else 'run as real modules'}, "
        "each from its source text when it is",
        "# first imported (nothing is written to disk); then the bot runs as __main__.",
    ]
    lines = [_ascii(line) for line in header]
    lines.append(_OWN_FOLDER_OFF_PATH)
    lines.append(_RUNTIME)
    lines.append("_MODULES = {")
    for module in modules:
        lines.append(f"    {ascii(module.name)}: ({ascii(module.filename)}, {module.is_package}, "
                     f"{to_literal(module.source)}),")
    lines.append("}")
    package = ascii(entry.package) if entry.package is not None else "None"
    lines.append(f"\n_run_bundle(_MODULES, {ascii(entry.name)}, {package})\n")
    text = "\n".join(lines)
    assert text.isascii()
    return text


def _ascii(text: str) -> str:
    return text.encode("ascii", "backslashreplace").decode("ascii")


def to_literal(text: str) -> str:
    """A triple-quoted ASCII string literal whose value is exactly ``text``, newlines kept."""
    quote = "'" if text.count("'") <= text.count('"') else '"'
    escaped = text.translate({ord("\\"): "\\\\", ord(quote): "\\" + quote})
    escaped = re.sub(r"[^\t\n\x20-\x7e]", _escape_char, escaped)
    literal = f"{quote * 3}\\\n{escaped}{quote * 3}"
    if ast.literal_eval(literal) != text:
        raise AssertionError("string literal does not round-trip")
    return literal


def _escape_char(match: re.Match) -> str:
    code = ord(match.group())
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
