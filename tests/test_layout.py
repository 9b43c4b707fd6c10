"""The folders are the layers: dependencies run one way and no module imports itself back.

referee (rules and harness) knows nothing of bots or tools; bots know only referee.games (rules
and codecs, so a bundle is self-contained); in tools, cli -> tune -> arena -> referee, with stats,
bundle, bench and view beside them and never imported by arena.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("referee", "bots", "tools")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, *, top_level_only: bool) -> set[str]:
    """Project modules ``path`` imports (at module level only, when asked: what runs at import)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    if top_level_only:     # an ``if TYPE_CHECKING:`` block imports nothing at run time
        nodes = [node for node in nodes if not isinstance(node, ast.If)]
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.split(".")[0] in PACKAGES}


def _project_modules() -> dict[str, Path]:
    return {_module_name(path): path for package in PACKAGES
            for path in (ROOT / package).rglob("*.py")}


MODULES = _project_modules()


def _resolve(name: str) -> str | None:
    """The project module an imported name lives in (``from a.b import c`` may name a function)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


# (importer prefix, forbidden prefix): the arrows that must not exist
FORBIDDEN = [
    ("referee", "bots"), ("referee", "tools"),
    ("bots", "tools"),
    # search knows the State interface and a deadline, not how a bot reads its turns or the games
    ("bots.search", "bots.runtime"), ("bots.search", "bots.turns"), ("bots.search", "referee"),
    ("tools.arena", "tools.cli"), ("tools.stats", "tools.cli"), ("tools.stats", "tools.arena"),
    ("tools.arena", "tools.tune"), ("tools.tune", "tools.cli"),
    ("tools.bundle", "tools.cli"), ("tools.bench", "tools.cli"),
    ("tools.ladder", "tools.cli"), ("tools.arena", "tools.ladder"), ("tools.stats", "tools.ladder"),
]


def test_search_imports_only_itself():
    """bots/search/ is a library: no bot, game or harness module may leak into it."""
    outside = sorted(f"{name} imports {imported}" for name, path in MODULES.items()
                     if _within(name, "bots.search")
                     for imported in _imports(path, top_level_only=False)
                     if not _within(imported, "bots.search"))
    assert not outside, outside


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


@pytest.mark.parametrize("importer, forbidden", FORBIDDEN)
def test_dependencies_run_one_way(importer, forbidden):
    wrong = sorted(f"{name} imports {imported}"
                   for name, path in MODULES.items() if _within(name, importer)
                   for imported in _imports(path, top_level_only=False)
                   if _within(imported, forbidden))
    assert not wrong, wrong


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the project modules it imports anywhere: at the top, inside a function (a lazy
    import is a dependency all the same) or under ``if TYPE_CHECKING:`` (so is a type's)."""
    graph = {name: {_resolve(imported) for imported in _imports(path, top_level_only=False)}
             - {None, name} for name, path in modules.items()}
    # a package's __init__ importing its own submodule is not a circle worth naming
    return {name: {target for target in targets if not _within(target, name)}
            for name, targets in graph.items()}


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each circle found by a depth-first walk, as the trail that closes it."""
    state: dict[str, int] = {}
    circles = []

    def visit(name: str, trail: list[str]) -> None:
        state[name] = 1
        for target in sorted(graph.get(name, ())):
            if state.get(target) == 1:
                circles.append(trail[trail.index(target):] + [target] if target in trail else [name, target])
            elif target not in state:
                visit(target, trail + [target])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    return circles


def test_no_import_circles():
    assert not import_circles(import_graph(MODULES)), import_circles(import_graph(MODULES))


def test_a_circle_through_a_lazy_or_a_type_checking_import_is_found(tmp_path, monkeypatch):
    """The checker itself: a circle closed only inside a function, or only for a type checker."""
    package = tmp_path / "tools"
    package.mkdir()
    (package / "first.py").write_text("from tools.second import helper\n")
    (package / "second.py").write_text("def helper():\n    from tools.first import thing\n")
    (package / "third.py").write_text("import typing\nif typing.TYPE_CHECKING:\n"
                                      "    from tools.first import thing\n")
    (package / "fourth.py").write_text("from tools.third import x\n")
    modules = {f"tools.{name}": package / f"{name}.py"
               for name in ("first", "second", "third", "fourth")}
    monkeypatch.setattr(sys.modules[__name__], "MODULES", modules)
    assert import_circles(import_graph(modules)) == [["tools.first", "tools.second", "tools.first"]]
    (package / "first.py").write_text("from tools.second import helper\nimport tools.fourth\n")
    assert len(import_circles(import_graph(modules))) == 2       # first -> fourth -> third -> first


def test_the_tools_folder_is_layered():
    loose = sorted(path.name for path in (ROOT / "tools").glob("*.py")
                   if path.name not in {"__init__.py", "stats.py"})
    assert not loose, f"modules loose in tools/ (put them in a subsystem folder): {loose}"


# The design card: these at the top level, plus docs/, .ci/ and dotfiles; nothing else.
TOP_LEVEL = {"pyproject.toml", "bots", "referee", "tests", "tools", "README.md", "docs", ".ci"}


def test_the_top_level_holds_only_the_design_cards_entries():
    """What is committed (a stray file a test wrote, committed by mistake, is caught here)."""
    import subprocess
    done = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip("not a git checkout: the committed top level cannot be listed")
    top = {line.split("/", 1)[0] for line in done.stdout.splitlines() if line}
    assert {name for name in top if not name.startswith(".")} - TOP_LEVEL == set()
