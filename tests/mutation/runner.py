"""Mutation testing: ``python -m tests.mutation.runner [TARGET ...]`` (slow; not part of the test run).

mutmut (``pip install -e '.[mutation]'``) plants one small bug at a time (an operator, a
constant, a comparison) in the modules where a silent bug costs users most, runs the tests
that reach that code, and reports the mutants no test caught. Its settings, the modules and
the in-process test files it runs, are under ``[tool.mutmut]`` in pyproject.toml.

Targets: stats (tools/stats.py), tally (tools/arena/tally.py), rules and codec (every game's
rules.py and codec.py; ``rules:GAME`` or ``codec:GAME`` for one game's), match (referee/match.py),
board (xmas_rush's board.py: the bitboard, reachability, distances and move plans), result
(referee/result.py) and rules_referee (referee/rules_referee.py).
Survivors listed in ``EQUIVALENT`` (tests/mutation/equivalent.py, keyed by the function and the
line as written and as mutated) change nothing a user can observe; they are printed apart, with
the reason.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from referee.games import game_names
from tests.mutation.equivalent import EQUIVALENT, Key

PROJECT_ROOT = Path(__file__).resolve().parents[2]
TARGETS = {
    "stats": "tools.stats.*",
    "tally": "tools.arena.tally.*",
    "rules": "referee.games.*.rules.*",
    "codec": "referee.games.*.codec.*",
    "match": "referee.match.*",
    "board": "referee.games.xmas_rush.board.*",     # the bitboard, paths and move plans
    "result": "referee.result.*",                   # ranks, end reasons, summaries, JSON
    "rules_referee": "referee.rules_referee.*",     # a Game's rules and codec as the referee
}
_RESULT = re.compile(r"^\s*(?P<name>[\w.]+?)__mutmut_(?P<number>\d+): (?P<status>.+?)\s*$")
_NOT_SURVIVORS = ("killed", "timeout", "checked", "not checked")


@dataclass(frozen=True, slots=True)
class Mutant:
    """One of mutmut's mutants: its target, name and status, and for a survivor its line as
    written and as mutated (from ``mutmut show``)."""

    target: str
    name: str
    status: str
    line: str = ""
    mutated: str = ""

    @property
    def key(self) -> Key:
        """Where the mutation is: EQUIVALENT's key (see tests/mutation/equivalent.py)."""
        return (*function_of(self.name), self.line, self.mutated)


def function_of(name: str) -> tuple[str, str]:
    """(module, function) of a mutant's name: ``referee.match.xǁ_Matchǁwarnings__mutmut_19`` is
    ``("referee.match", "_Match.warnings")``, ``tools.stats.x_los__mutmut_1`` ``("tools.stats", "los")``."""
    module, _, mangled = name.partition("__mutmut_")[0].rpartition(".")
    if mangled.startswith("xǁ"):
        _, class_name, method = mangled.split("ǁ")
        return module, f"{class_name}.{method}"
    return module, mangled.removeprefix("x_")


def change_of(shown: str) -> tuple[str, str]:
    """(the lines as written, the lines as mutated) in what ``mutmut show NAME`` prints (a
    ``# NAME: status`` line, then a unified diff of the function), each run of blanks one space."""
    written, mutated = [], []
    for line in shown.splitlines():
        if line.startswith(("# ", "--- ", "+++ ", "@@")):
            continue
        if line.startswith("-"):
            written.append(line[1:])
        elif line.startswith("+"):
            mutated.append(line[1:])
    return " ".join(" ".join(written).split()), " ".join(" ".join(mutated).split())


def _shown_change(name: str) -> tuple[str, str]:
    done = subprocess.run([_mutmut(), "show", name], cwd=PROJECT_ROOT, capture_output=True, text=True)
    return change_of(done.stdout) if done.returncode == 0 else ("", "")


def _mutmut() -> str:
    found = shutil.which("mutmut", path=str(Path(sys.executable).parent)) or shutil.which("mutmut")
    if found is None:
        sys.exit("python -m tests.mutation.runner: mutmut is not installed; "
                 "pip install -e '.[mutation]' (or: pip install mutmut)")
    return found


def target_glob(target: str) -> str:
    """mutmut's glob of ``codec``, or of ``codec:GAME`` for one game's; ValueError if unknown."""
    name, _, game = target.partition(":")
    if name not in TARGETS:
        raise ValueError(f"unknown target {name!r} (known: {', '.join(TARGETS)})")
    if not game:
        return TARGETS[name]
    if name not in ("rules", "codec") or game not in game_names():
        raise ValueError(f"{target!r}: only rules and codec take a game, one of "
                         f"{', '.join(game_names())}")
    return TARGETS[name].replace("*", game, 1)


def _target_argument(text: str) -> str:
    try:
        target_glob(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def run_mutants(targets: list[str], children: int, log: Path) -> None:
    """Run mutmut over the targets' modules (its output goes to ``log``: a progress spinner)."""
    globs = [target_glob(target) for target in targets]
    with log.open("w") as output:
        done = subprocess.run([_mutmut(), "run", "--max-children", str(children), *globs],
                              cwd=PROJECT_ROOT, stdout=output, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        tail = log.read_text(errors="replace")[-600:].replace("\r", "\n").strip().splitlines()
        sys.exit(f"python -m tests.mutation.runner: mutmut failed (log {log}): {tail[-1] if tail else ''}")


def read_results(targets: list[str], jobs: int = 1) -> list[Mutant]:
    """Every mutant of the targets, from mutmut; a survivor with its change (one ``mutmut show``
    each, about a second of CPU: ``jobs`` at once)."""
    done = subprocess.run([_mutmut(), "results", "--all", "true"], cwd=PROJECT_ROOT,
                          capture_output=True, text=True)
    if done.returncode != 0:        # older mutmut: no --all, survivors only
        done = subprocess.run([_mutmut(), "results"], cwd=PROJECT_ROOT, capture_output=True,
                              text=True)
    patterns = {target: re.compile(target_glob(target).replace(".", r"\.").replace("*", r"[\w.]*"))
                for target in targets}
    rows = []
    for line in done.stdout.splitlines():
        found = _RESULT.match(line)
        if not found:
            continue
        for target, pattern in patterns.items():
            if pattern.fullmatch(found["name"] + "__mutmut_" + found["number"]) or \
                    pattern.match(found["name"]):
                rows.append(Mutant(target, f"{found['name']}__mutmut_{found['number']}",
                                   found["status"]))
                break
    survivors = [index for index, row in enumerate(rows) if row.status not in _NOT_SURVIVORS]
    with ThreadPoolExecutor(max(jobs, 1)) as pool:
        changes = pool.map(_shown_change, [rows[index].name for index in survivors])
        for index, (line, mutated) in zip(survivors, changes):
            rows[index] = replace(rows[index], line=line, mutated=mutated)
    return rows


def report(rows: list[Mutant]) -> int:
    """Print counts per target and every survivor (an unexplained one with its key for
    equivalent.py); the number of unexplained survivors (and of mutants not checked). Then the
    entries of EQUIVALENT in the functions tested that matched no survivor (a line edited, or a
    mutant a test now kills): not counted, to re-check."""
    unexplained = unchecked = 0
    matched: set[Key] = set()
    for target in dict.fromkeys(row.target for row in rows):
        mine = [row for row in rows if row.target == target]
        counts = Counter(row.status for row in mine)
        print(f"{target}: {len(mine)} mutants: " + ", ".join(f"{count} {status}"
                                                          for status, count in counts.most_common()))
        if counts["not checked"]:       # a run of other targets reset these: not survivors
            unchecked += counts["not checked"]
            print(f"  {counts['not checked']} not checked: run python -m tests.mutation.runner {target}")
        for row in mine:
            if row.status in _NOT_SURVIVORS:
                continue
            reason = EQUIVALENT.get(row.key)
            if reason:
                matched.add(row.key)
                print(f"  equivalent  {row.name}: {reason}")
            else:
                unexplained += 1
                print(f"  {row.status:<10}  {row.name}   (mutmut show {row.name})\n"
                      f"              {row.key!r}")
    print(f"unexplained survivors: {unexplained}"
          + (f"; not checked: {unchecked}" if unchecked else ""))
    tested = {function_of(row.name) for row in rows if row.status != "not checked"}
    for key in EQUIVALENT:
        if key[:2] in tested and key not in matched:
            print(f"no survivor matched the equivalent {key!r}")
    return unexplained + unchecked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mutation.runner", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("targets", nargs="*", type=_target_argument, default=[],
                        metavar="TARGET", help=f"of {', '.join(TARGETS)} (default: all); "
                                           "rules:GAME or codec:GAME for one game's")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="mutants tested at once (default: the number of cores)")
    parser.add_argument("--report-only", action="store_true",
                        help="print the results of the last run without running mutmut")
    args = parser.parse_args(argv)
    targets = args.targets or list(TARGETS)
    if not args.report_only:
        print(f"mutation testing {', '.join(targets)} with mutmut ({args.jobs} at once; "
              f"load average {os.getloadavg()[0]:.2f})", flush=True)
        run_mutants(targets, args.jobs, PROJECT_ROOT / "mutants.log")
    return 1 if report(read_results(targets, args.jobs)) else 0


if __name__ == "__main__":
    sys.exit(main())
