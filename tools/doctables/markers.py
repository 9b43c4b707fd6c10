"""Finding the generated tables in the docs and rewriting what lies between their markers."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from referee.api import UsageError

PROJECT_ROOT = Path(__file__).resolve().parents[2]
CHECKS = ("quick", "slow", "statistical")
OUTPUTS = ("console", "markdown", "rows")

_OPEN = re.compile(r"^<!-- table:(?P<name>[\w.-]+)(?P<options>[^\n]*)$")
_VARIABLE = re.compile(r"^(?P<name>[A-Z][A-Z0-9_]*)=(?P<value>.*)$")


@dataclass(frozen=True, slots=True)
class Command:
    """A command as written in the marker (continuation lines kept), and the row template it
    fills (None: its output is shown as printed)."""
    text: str
    template: str | None = None

    def one_line(self) -> str:
        return " ".join(part.strip().removesuffix("\\").strip() for part in self.text.splitlines())


@dataclass(frozen=True, slots=True)
class Table:
    """One table: its recipe (from the opening comment) and where it sits in its doc."""
    name: str
    path: Path
    check: str
    output: str
    variables: tuple[tuple[str, str], ...]
    steps: tuple[str | Command, ...]        # literal lines and commands, in order
    line: int                               # the opening marker's line number (from 1)
    body_start: int                         # index of the first line after the opening comment
    body_end: int                           # index of the closing marker's line

    @property
    def commands(self) -> tuple[Command, ...]:
        return tuple(step for step in self.steps if isinstance(step, Command))

    def where(self) -> str:
        return f"{_relative(self.path)}:{self.line}"


def doc_paths(root: Path = PROJECT_ROOT) -> list[Path]:
    """README.md and every page under docs/, in a stable order."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def find_tables(paths: list[Path]) -> list[Table]:
    """Every table in ``paths``, in order; a name used twice is an error."""
    tables: list[Table] = []
    for path in paths:
        try:
            lines = path.read_text(encoding="utf-8").split("\n")
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"cannot read {str(path)!r}: {error}") from None
        tables.extend(_tables_in(path, lines))
    seen: dict[str, Table] = {}
    for table in tables:
        if table.name in seen:
            raise UsageError(f"table {table.name!r} is defined twice: {seen[table.name].where()} "
                             f"and {table.where()}; give one another name")
        seen[table.name] = table
    return tables


def replace_body(table: Table, body: list[str]) -> None:
    """Write ``body`` between the table's opening comment and its closing marker."""
    lines, fresh = _fresh(table)
    lines[fresh.body_start:fresh.body_end] = body
    table.path.write_text("\n".join(lines), encoding="utf-8")


def current_body(table: Table) -> list[str]:
    """The table's body as its doc holds it now (earlier tables may have been rewritten)."""
    lines, fresh = _fresh(table)
    return lines[fresh.body_start:fresh.body_end]


def _fresh(table: Table) -> tuple[list[str], Table]:
    """The doc's lines now, and the table found in them again."""
    lines = table.path.read_text(encoding="utf-8").split("\n")
    fresh = {found.name: found for found in _tables_in(table.path, lines)}.get(table.name)
    if fresh is None:
        raise UsageError(f"table {table.name!r} is no longer in {_relative(table.path)}")
    return lines, fresh


def _tables_in(path: Path, lines: list[str]) -> list[Table]:
    tables = []
    index = 0
    while index < len(lines):
        match = _OPEN.match(lines[index])
        if match is None:
            index += 1
            continue
        tables.append(_table_at(path, lines, index, match))
        index = tables[-1].body_end + 1
    return tables


def _table_at(path: Path, lines: list[str], start: int, match: re.Match) -> Table:
    name = match["name"]
    where = f"{_relative(path)}:{start + 1}"
    options = _options(match["options"].strip(), name, where)
    end_comment = next((index for index in range(start + 1, len(lines))
                        if lines[index].strip() == "-->"), None)
    if end_comment is None:
        raise UsageError(f"table {name!r} at {where}: its opening comment never ends; end it "
                         "with a line '-->'")
    closing = f"<!-- /table:{name} -->"
    body_end = next((index for index in range(end_comment + 1, len(lines))
                     if lines[index].strip() == closing), None)
    if body_end is None:
        raise UsageError(f"table {name!r} at {where}: no closing marker; add a line {closing!r}")
    variables, steps = _recipe(lines[start + 1:end_comment], name, where)
    output = options.get("output") or ("rows" if any(isinstance(step, Command) and step.template
                                                     for step in steps) else "console")
    return Table(name, path, options["check"], output, variables, steps, start + 1, end_comment + 1,
                 body_end)


def _options(text: str, name: str, where: str) -> dict[str, str]:
    options = {}
    for word in text.split():
        key, _, value = word.partition("=")
        if key not in ("check", "output") or not value:
            raise UsageError(f"table {name!r} at {where}: unknown option {word!r}; "
                             "options are check=quick|slow|statistical and output=markdown")
        options[key] = value
    if options.get("check") not in CHECKS:
        raise UsageError(f"table {name!r} at {where}: check={options.get('check')} is not one of "
                         f"{', '.join(CHECKS)}: say whether a re-run must agree exactly")
    if options.get("output", "markdown") != "markdown":
        raise UsageError(f"table {name!r} at {where}: output={options['output']} is not "
                         "'markdown' (the only output option)")
    return options


def _recipe(lines: list[str], name: str, where: str
            ) -> tuple[tuple[tuple[str, str], ...], tuple[str | Command, ...]]:
    """The variables and steps of an opening comment's lines."""
    variables: list[tuple[str, str]] = []
    steps: list[str | Command] = []
    template = None
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("$ "):
            text = [line[2:]]
            while text[-1].rstrip().endswith("\\") and index + 1 < len(lines):
                index += 1
                text.append(lines[index])
            steps.append(Command("\n".join(text), template))
            template = None
        elif variable := _VARIABLE.match(line):
            variables.append((variable["name"], variable["value"]))
        elif line.startswith("|"):
            if template is not None:
                steps.append(template)
            template = line
        elif line.strip():
            raise UsageError(f"table {name!r} at {where}: cannot read {line!r}: a line is "
                             "'$ COMMAND', 'NAME=VALUE' or a '| row |'")
        index += 1
    if template is not None:
        steps.append(template)
    if not any(isinstance(step, Command) for step in steps):
        raise UsageError(f"table {name!r} at {where}: no command; add a line '$ botarena ...'")
    return tuple(variables), tuple(steps)


def _relative(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(PROJECT_ROOT))
    except ValueError:
        return str(path)
