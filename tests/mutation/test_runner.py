"""The mutation runner (tests/mutation/runner.py): its targets, its report, its one line without
mutmut."""
from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT


def runner(*args: str, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tests.mutation.runner", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, env=env)


def test_mutation_targets_take_one_game():
    from tests.mutation.runner import target_glob
    assert target_glob("codec") == "referee.games.*.codec.*"
    assert target_glob("codec:xmas_rush") == "referee.games.xmas_rush.codec.*"
    assert target_glob("rules:othello") == "referee.games.othello.rules.*"
    for bad, reason in (("codec:chess", "'codec:chess': only rules and codec take a game, one of "),
                        ("stats:othello", "'stats:othello': only rules and codec take a game"),
                        ("codecs", "unknown target 'codecs' (known: stats, tally, rules, codec")):
        done = runner(bad, "--report-only")
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.splitlines()[-1].startswith(
            f"python -m tests.mutation.runner: error: argument TARGET: {reason}")


def test_mutation_report_counts_each_target_and_names_unexplained_survivors(capsys):
    from tests.mutation.equivalent import EQUIVALENT
    from tests.mutation.runner import Mutant, report
    (module, function, line, mutated), reason = next(iter(EQUIVALENT.items()))
    assert (module, function) == ("tools.arena.tally", "LatencyCounts.summary")
    # the same mutation under any number is excused; another on the same function is not
    excused = Mutant("tally", f"{module}.xǁLatencyCountsǁsummary__mutmut_999", "survived", line, mutated)
    other = Mutant("tally", f"{module}.xǁLatencyCountsǁsummary__mutmut_2", "survived", line, "return 0")
    rows = [Mutant("stats", "tools.stats.x_elo__mutmut_1", "killed"),
            Mutant("stats", "tools.stats.x_elo__mutmut_2", "survived", "return 400 * x", "return 401 * x"),
            Mutant("stats", "tools.stats.x_elo__mutmut_3", "timeout"),
            excused, other,
            Mutant("tally", "tools.arena.tally.x_cell__mutmut_1", "not checked")]
    assert report(rows) == 3             # two unexplained survivors and one mutant not checked
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "stats: 3 mutants: 1 killed, 1 survived, 1 timeout"
    assert lines[1:3] == [
        "  survived    tools.stats.x_elo__mutmut_2   (mutmut show tools.stats.x_elo__mutmut_2)",
        "              ('tools.stats', 'elo', 'return 400 * x', 'return 401 * x')"]
    assert lines[3] == "tally: 3 mutants: 2 survived, 1 not checked"
    assert "  1 not checked: run python -m tests.mutation.runner tally" in lines
    assert f"  equivalent  {excused.name}: {reason}" in lines
    assert f"  survived    {other.name}   (mutmut show {other.name})" in lines
    summary = lines.index("unexplained survivors: 2; not checked: 1")
    # the function's other entries matched nothing (no survivor of theirs was reported)
    assert lines[summary + 1:] == [f"no survivor matched the equivalent {key!r}" for key in EQUIVALENT
                                   if key[:2] == (module, function) and key != excused.key]
    assert len(lines) > summary + 1
    assert report([Mutant("stats", "tools.stats.x_elo__mutmut_1", "killed")]) == 0
    assert "unexplained survivors: 0" in capsys.readouterr().out.splitlines()


# What `mutmut show NAME` prints (mutmut 3): the status, then a diff of the function as written and
# as mutated, both under the function's own name
SHOWN = """# referee.match.xǁ_Matchǁwarnings__mutmut_19: survived
--- referee/match.py
+++ referee/match.py
@@ -1,6 +1,6 @@
 def warnings(self) -> list[str]:
     found = []
-    lag = 0.0 if self.lag_from is None else monitor.max_lag_ms(self.lag_from)
+    lag = 1.0 if self.lag_from is None else monitor.max_lag_ms(self.lag_from)
     if lag >= max(10.0, self.clock.grace_ms):
-        found.append(f"the harness was delayed up to {lag:.0f} ms: "
-                     "timeouts may be spurious")
+        found.append(None)"""


def test_a_survivor_is_keyed_by_its_function_and_its_line_as_written_and_as_mutated():
    from tests.mutation.equivalent import EQUIVALENT
    from tests.mutation.runner import Mutant, change_of, function_of
    assert function_of("tools.stats.x_los__mutmut_1") == ("tools.stats", "los")
    assert function_of("referee.games.xmas_rush.rules.xǁXmasRushStateǁ_walk__mutmut_12") == \
        ("referee.games.xmas_rush.rules", "XmasRushState._walk")
    line, mutated = change_of(SHOWN)
    assert line == ('lag = 0.0 if self.lag_from is None else monitor.max_lag_ms(self.lag_from) '
                    'found.append(f"the harness was delayed up to {lag:.0f} ms: " '
                    '"timeouts may be spurious")')
    assert mutated == ("lag = 1.0 if self.lag_from is None else monitor.max_lag_ms(self.lag_from) "
                       "found.append(None)")
    one_change = "\n".join(SHOWN.splitlines()[:8])
    shown = Mutant("match", "referee.match.xǁ_Matchǁwarnings__mutmut_19", "survived", *change_of(one_change))
    assert shown.key in EQUIVALENT


def test_every_equivalent_names_a_line_its_function_still_has():
    """An entry whose line was edited or deleted matches no mutant any more: it is dropped or
    re-keyed with the code change, not left to rot."""
    from tests.mutation.equivalent import EQUIVALENT
    stale = [key for key in EQUIVALENT if key[2] not in _function_text(key[0], key[1])]
    assert not stale, stale
    assert all(line != mutated for _, _, line, mutated in EQUIVALENT)


def _function_text(module: str, function: str) -> str:
    """The function's source (a method: ``Class.method``), each run of blanks one space."""
    source = (ROOT / (module.replace(".", "/") + ".py")).read_text()
    body = ast.parse(source).body
    *owner, name = function.split(".")
    if owner:
        body = next(node.body for node in body if isinstance(node, ast.ClassDef) and node.name == owner[0])
    node = next(node for node in body if isinstance(node, ast.FunctionDef) and node.name == name)
    return " ".join((ast.get_source_segment(source, node) or "").split())


def test_mutation_without_mutmut_says_how_to_install_it(tmp_path):
    if shutil.which("mutmut", path=str(Path(sys.executable).parent)) or shutil.which("mutmut"):
        pytest.skip("mutmut is installed here")
    done = runner("stats", "--report-only", env={**os.environ, "PATH": str(tmp_path)})
    assert done.returncode == 1
    assert done.stderr.strip() == ("python -m tests.mutation.runner: mutmut is not installed; "
                                   "pip install -e '.[mutation]' (or: pip install mutmut)")
