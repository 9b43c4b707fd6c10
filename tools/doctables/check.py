"""Checking a table: re-run it in memory and compare with the doc (latencies aside)."""
from __future__ import annotations

import difflib

from tools.doctables.markers import Table, current_body
from tools.doctables.render import Run, comparable, render


def difference(table: Table) -> tuple[str | None, Run]:
    """None when the doc shows what the table's commands print now, else a unified diff (the
    doc's lines against the re-run's); and the re-run."""
    run = render(table, keep_files=False)
    expected, actual = comparable(current_body(table)), comparable(run.body)
    if expected == actual:
        return None, run
    diff = difflib.unified_diff([line + "\n" for line in expected],
                                [line + "\n" for line in actual], "in the doc", "re-run now")
    return (f"{table.name}: the doc ({table.where()}) differs from a re-run; regenerate it: "
            f"python -m tools.doctables {table.name}\n" + "".join(diff)), run
