"""``python -m tools.doctables [NAME ...] [--all] [--list] [--check] [--class CHECK]``:
re-run the docs' generated tables and rewrite them, or (``--check``) compare them."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from referee.api import UsageError
from tools.doctables.check import difference
from tools.doctables.markers import CHECKS, Table, current_body, doc_paths, find_tables, replace_body
from tools.doctables.render import comparable, render


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        self.exit(2, f"doctables: {message} (see: python -m tools.doctables --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m tools.doctables", description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="the tables to regenerate")
    parser.add_argument("--all", action="store_true", help="every table (of --class, if given)")
    parser.add_argument("--list", action="store_true", help="list the tables and stop")
    parser.add_argument("--check", action="store_true",
                        help="re-run and compare, writing nothing; exit 1 on a difference "
                             "(without names: every quick and slow table)")
    parser.add_argument("--class", dest="check_class", choices=CHECKS,
                        help="only the tables of this check class")
    parser.add_argument("--doc", action="append", type=Path, metavar="FILE",
                        help="look in this Markdown file only (repeatable; default: README.md "
                             "and docs/)")
    return parser


def select(tables: list[Table], names: list[str], *, every: bool, check_class: str | None,
           checking: bool) -> list[Table]:
    """The tables a command line names; an unknown name is a usage error."""
    by_name = {table.name: table for table in tables}
    unknown = [name for name in names if name not in by_name]
    if unknown:
        raise UsageError(f"no table named {unknown[0]!r} in the docs; "
                         "python -m tools.doctables --list shows them")
    if names:
        chosen = [by_name[name] for name in names]
    elif every or checking:
        chosen = [table for table in tables
                  if every or table.check != "statistical" or check_class == "statistical"]
    else:
        raise UsageError("name a table, or give --all, --check or --list")
    return [table for table in chosen if check_class is None or table.check == check_class]


def list_tables(tables: list[Table]) -> None:
    for table in tables:
        print(f"{table.name:28} {table.check:12} {len(table.commands)} command(s)  {table.where()}")


def check(table: Table) -> bool:
    """Re-run ``table`` and say whether the doc shows what it prints now (latencies aside)."""
    diff, run = difference(table)
    print(diff or f"{table.name}: agrees ({run.seconds:.0f} s)", flush=True)
    return diff is None


def regenerate(table: Table) -> None:
    print(f"{table.name}: running {len(table.commands)} command(s) for {table.where()} ...",
          file=sys.stderr, flush=True)
    run = render(table, keep_files=True)
    changed = comparable(current_body(table)) != comparable(run.body)
    replace_body(table, run.body)
    print(f"{table.name}: {'rewritten' if changed else 'unchanged'} ({run.seconds:.0f} s, "
          f"load average {run.load_before:.1f} -> {run.load_after:.1f})", flush=True)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        tables = find_tables(args.doc or doc_paths())
        if args.list:
            list_tables(select(tables, args.names, every=True, check_class=args.check_class,
                               checking=False))
            return 0
        chosen = select(tables, args.names, every=args.all, check_class=args.check_class,
                        checking=args.check)
        if args.check:
            return 0 if all([check(table) for table in chosen]) else 1
        for table in chosen:
            regenerate(table)
    except UsageError as error:
        print(f"doctables: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("doctables: interrupted (tables rewritten so far are kept)", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
