"""The docs' deterministic claims, re-run: every table marked ``check=quick`` (fixed seeds and
iteration budgets) is regenerated in memory and must match the doc line for line (latencies
aside); ``check=slow`` ones run with ``--runslow``; the worked numbers of the statistics and the
doctests in the docs are computed again. A change of the interval method, of seeding or of a
bot then fails here, not as a stale doc: ``python -m tools.doctables NAME`` rewrites the table.

    pytest tests/tools/test_doc_claims.py              # the quick ones (~2 minutes on 2 cores)
    pytest tests/tools/test_doc_claims.py --runslow    # and the slow ones (about an hour)
"""
from __future__ import annotations

import doctest
import math
import re

import pytest

from tests.conftest import ROOT
from tools import stats
from tools.doctables.check import difference
from tools.doctables.markers import doc_paths, find_tables

TABLES = {table.name: table for table in find_tables(doc_paths())}


def _names(check: str) -> list[str]:
    return [name for name, table in TABLES.items() if table.check == check]


@pytest.mark.parametrize("name", _names("quick"))
def test_a_quick_table_reproduces(name):
    diff, _ = difference(TABLES[name])
    assert diff is None, diff


@pytest.mark.slow
@pytest.mark.timeout(3 * 3600)
@pytest.mark.parametrize("name", _names("slow"))
def test_a_slow_table_reproduces(name):
    diff, _ = difference(TABLES[name])
    assert diff is None, diff


def test_every_results_command_in_the_docs_is_in_a_generated_table():
    """A match, league, sweep or tune shown with its results outside a table's markers would be
    typed by hand, and go stale unseen. Speed figures are exempt: the benchmarks page, and
    tables between ``<!-- speed: why -->`` and ``<!-- /speed -->`` (timings under a load noted
    beside them, taken again on a quiet machine, never compared)."""
    pattern = re.compile(r"^(\$ botarena (match|league|sweep|tune) "
                         r"|\|.*`botarena (match|league|sweep|tune) )")
    typed = []
    for path in doc_paths():
        if path.name == "benchmarks.md":
            continue
        inside = False
        for number, line in enumerate(path.read_text().split("\n"), 1):
            if line.startswith(("<!-- table:", "<!-- speed:")):
                inside = True
            elif line.startswith(("<!-- /table:", "<!-- /speed -->")):
                inside = False
            elif pattern.match(line) and not inside:
                typed.append(f"{path.relative_to(ROOT)}:{number}: {line[:80]}")
    assert not typed, "results outside generated tables:\n" + "\n".join(typed)


@pytest.mark.parametrize("path", [path for path in doc_paths() if ">>> " in path.read_text()],
                         ids=lambda path: str(path.relative_to(ROOT)))
def test_the_doctests_in_the_docs_pass(path):
    failed, attempted = doctest.testfile(str(path), module_relative=False)
    assert attempted and not failed


def _elo(value: float) -> str:
    return "+inf" if math.isinf(value) else f"{value:+.1f}"


def _interval(wins: int, draws: int, losses: int) -> str:
    estimate = stats.elo_trinomial(wins, draws, losses)
    return f"[{_elo(estimate.low)}, {_elo(estimate.high)}]"


def statistics_claims() -> list[str]:
    """The worked numbers of docs/tools.md's Statistics, as tools/stats.py computes them now."""
    worked = stats.elo_trinomial(60, 10, 30)
    wilson = stats.wilson(65, 100)
    lower, upper = stats.sprt_bounds(0.05, 0.05)
    won = [0, 0, 0, 0, 1]
    s0, s1 = stats.score_from_elo(0), stats.score_from_elo(50)
    first_accepted = next(pairs for pairs in range(1, 100)
                          if stats.llr_pentanomial_exact([0, 0, 0, 0, pairs], 0, 50) > upper)
    return [
        f"W60 D10 L30 gives s = {worked.score:.3f}, **Elo {_elo(worked.elo)}, interval "
        f"{_interval(60, 10, 30)}**",
        f"(6-0-0: {_interval(6, 0, 0)}; 5 wins 1 draw: {_interval(5, 1, 0)}; 5 wins 1 loss: "
        f"{_interval(5, 0, 1)})",
        f"65 of 100 gives **[{wilson[0]:.4f}, {wilson[1]:.4f}]**, 0 of 20 gives "
        f"[0, {stats.wilson(0, 20)[1]:.3f}]",
        f"**±{upper:.3f}** at alpha = beta = 0.05",
        f"L250 with elo0 = 0 and elo1 = 20 gives **{stats.llr_trinomial(300, 100, 250, 0, 20):.4f}**",
        f"one won pair gives it {stats.llr_pentanomial(won, 0, 50):.1f} for elo1 = 50",
        f"log(s1/s0) = {math.log(s1 / s0):.3f} per won pair",
        f"accepted after {first_accepted} pairs (tested)",
        f"1,000 games is rated {stats.elo_from_score(0.7):.0f} Elo above it (400 log10(0.7/0.3) = "
        f"{stats.elo_from_score(0.7):.1f})",
        f"[ln(beta/(1-alpha)), ln((1-beta)/alpha)]` ({lower:.3f} and +{upper:.3f} at 5 %)",
    ]


@pytest.mark.parametrize("claim", statistics_claims())
def test_the_worked_numbers_of_the_statistics_are_what_the_code_computes(claim):
    text = " ".join((ROOT / "docs" / "tools.md").read_text().split())     # as rendered: wraps aside
    assert claim in text, f"docs/tools.md should say: {claim!r}"
