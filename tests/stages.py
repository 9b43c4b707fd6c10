"""The README's test command, stage by stage: ``python -m tests.stages [--all] [PYTEST ARGS]``.

Each stage is one pytest run over its files, with a line saying what it runs before it and its
result after it; at the end, one line per stage and the slowest tests of the whole run. The first
tier (no ``--all``) skips tests marked ``full``; ``--all`` runs them too (``pytest --full``), as
CI does. Stages whose tests share nothing and measure no time run on two workers
(pytest-xdist), the others in this order, one test at a time.

    python -m tests.stages                  # the first tier: a few minutes on 2 cores
    python -m tests.stages --all            # every tier (CI): documentation tables, compilers...
    python -m tests.stages --list           # which file runs in which stage
    python -m tests.stages -x -k bundle     # extra pytest arguments go to every stage
    python -m tests.stages tests/tools/test_cli.py   # named tests: plain pytest on them, no stages
"""
from __future__ import annotations

import argparse
import fnmatch
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True, slots=True)
class Stage:
    name: str
    what: str
    patterns: tuple[str, ...]       # test files (globs, relative to the root), first match wins
    workers: int = 2                # 1: tests that time processes or share the machine's state


# The order is the run's order; a file goes to the first stage one of whose patterns it matches.
STAGES = (
    Stage("unit", "rules, search, statistics, settings, files: in this process",
          ("tests/referee/games/*", "tests/bots/test_search_*", "tests/bots/test_xmas_rush_best_paths.py",
           "tests/tools/test_stats*", "tests/tools/test_tally.py", "tests/tools/test_settings.py",
           "tests/tools/test_results_*", "tests/tools/test_executor.py", "tests/tools/test_grid_limits.py",
           "tests/tools/test_doctables.py", "tests/referee/test_match_loop.py",
           "tests/referee/test_seams.py", "tests/referee/test_testing.py",
           "tests/referee/test_replay.py", "tests/test_*", "tests/mutation/*", "tests/perf/*")),
    Stage("processes", "bot processes: time limits, faults, clean-up, sandbox, the guardian",
          ("tests/referee/test_*",), workers=1),
    Stage("bots", "the built-in bots as processes, full games",
          ("tests/bots/*",)),
    Stage("external", "referees that are other processes: the SDK protocol, ###, the referee host",
          ("tests/referee/external/*", "tests/tools/test_external_games.py")),
    Stage("compilers", "C, C++, Java and Rust bots: compiled, played, bundled",
          ("tests/tools/test_compiled_bots.py", "tests/tools/test_compile_confinement.py",
           "tests/tools/test_bundle_native.py",
           "tests/tools/test_starter*")),
    Stage("browser", "the replay viewer in Chromium",
          ("tests/tools/test_view_browser.py", "tests/tools/test_viewer_*")),
    Stage("cluster", "games on a local Dask cluster",
          ("tests/tools/test_cluster*",)),
    Stage("documentation", "the docs' tables re-run, their claims checked",
          ("tests/tools/test_doc_claims.py", "tests/tools/test_psyleague_doc.py")),
    Stage("cli", "the command line end to end: play, match, league, sweep, tune, bundle, view",
          ("tests/tools/*",)),
)


def all_test_files() -> list[str]:
    return sorted(str(path.relative_to(ROOT)) for path in (ROOT / "tests").rglob("test_*.py"))


def stage_of(path: str) -> Stage:
    for stage in STAGES:
        if any(fnmatch.fnmatch(path, pattern) for pattern in stage.patterns):
            return stage
    raise LookupError(f"{path}: no stage of tests/stages.py takes it; add it to one")


def files_by_stage() -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {stage.name: [] for stage in STAGES}
    for path in all_test_files():
        grouped[stage_of(path).name].append(path)
    return grouped


@dataclass(slots=True)
class Outcome:
    stage: Stage
    status: int
    seconds: float
    summary: str
    durations: list[tuple[float, str]]


def run_stage(stage: Stage, files: list[str], tier_args: list[str], extra: list[str],
              workers: bool) -> Outcome:
    with tempfile.TemporaryDirectory(prefix="botarena-stage-") as folder:
        report = Path(folder) / "junit.xml"
        argv = [sys.executable, "-m", "pytest", *files, *tier_args, f"--junitxml={report}",
                "-p", "no:cacheprovider", *extra]
        if workers and stage.workers > 1:
            argv += ["-n", str(stage.workers)]
        started = time.monotonic()
        done = subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE, text=True)
        seconds = time.monotonic() - started
        sys.stdout.write(done.stdout)
        durations = _durations(report) if report.exists() else []
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    summary = next((line.strip("= ") for line in reversed(lines)
                    if re.search(r"\b(passed|failed|error|skipped|deselected|no tests ran)\b", line)),
                   f"pytest exited with {done.returncode}")
    return Outcome(stage, done.returncode, seconds, summary, durations)


def _durations(report: Path) -> list[tuple[float, str]]:
    found = []
    for case in ElementTree.parse(report).iter("testcase"):
        name = f"{case.get('classname', '').replace('.', '/')}.py::{case.get('name')}"
        found.append((float(case.get("time") or 0), name))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.stages", description=__doc__.split("\n")[0])
    parser.add_argument("--all", action="store_true", help="every tier, as CI runs it (pytest --full)")
    parser.add_argument("--list", action="store_true", help="print each stage's files and exit")
    parser.add_argument("--stage", action="append", default=[], help="run only this stage (repeatable)")
    parser.add_argument("--serial", action="store_true", help="one worker in every stage")
    parser.add_argument("--slowest", type=int, default=15, help="how many of the slowest tests to name")
    parser.add_argument("--durations-out", metavar="FILE",
                        help="write every test's seconds and stage to FILE (tab-separated), slowest first")
    args, extra = parser.parse_known_args(argv)
    tier_args = ["--full"] if args.all else []
    if any(_names_tests(arg) for arg in extra):
        # test FILE (or FOLDER, or FILE::TEST): plain pytest on what was named, no stages
        return subprocess.run([sys.executable, "-m", "pytest", *tier_args, *extra], cwd=ROOT).returncode
    grouped = files_by_stage()
    if args.list:
        for stage in STAGES:
            print(f"{stage.name}: {stage.what}")
            for path in grouped[stage.name]:
                print(f"    {path}")
        return 0
    unknown = set(args.stage) - {stage.name for stage in STAGES}
    if unknown:
        parser.error(f"unknown stage {sorted(unknown)[0]!r}; the stages: "
                     + ", ".join(stage.name for stage in STAGES))
    chosen = [stage for stage in STAGES if grouped[stage.name]
              and (not args.stage or stage.name in args.stage)]
    tier = "every tier (--all)" if args.all else "the first tier (every tier: --all)"
    print(f"botarena tests, {tier}: {len(chosen)} stages, load average "
          f"{os.getloadavg()[0]:.1f}", flush=True)
    started, outcomes = time.monotonic(), []
    for number, stage in enumerate(chosen, 1):
        print(f"\n[{number}/{len(chosen)}] {stage.name}: {stage.what} "
              f"({len(grouped[stage.name])} files)", flush=True)
        outcome = run_stage(stage, grouped[stage.name], tier_args, extra, not args.serial)
        print(f"[{number}/{len(chosen)}] {stage.name}: {outcome.summary} ({outcome.seconds:.0f} s)",
              flush=True)
        outcomes.append(outcome)
    if args.durations_out:
        timed = sorted(((seconds, outcome.stage.name, name) for outcome in outcomes
                        for seconds, name in outcome.durations), reverse=True)
        Path(args.durations_out).write_text("".join(f"{seconds:.2f}\t{stage}\t{name}\n"
                                                    for seconds, stage, name in timed))
    return _report(outcomes, time.monotonic() - started, args.slowest)


def _names_tests(arg: str) -> bool:
    """Whether a command-line argument names tests (a path, maybe with ::TEST), not an option."""
    return not arg.startswith("-") and (ROOT / arg.split("::")[0]).exists()


def _report(outcomes: list[Outcome], seconds: float, slowest: int) -> int:
    print("\nslowest tests:")
    timed = sorted((item for outcome in outcomes for item in outcome.durations), reverse=True)
    for duration, name in timed[:slowest]:
        print(f"  {duration:6.1f} s  {name}")
    print("\nstages:")
    for outcome in outcomes:
        mark = "ok  " if outcome.status in (0, 5) else "FAIL"
        print(f"  {mark} {outcome.stage.name:<14} {outcome.seconds:5.0f} s  {outcome.summary}")
    failed = [outcome.stage.name for outcome in outcomes if outcome.status not in (0, 5)]
    minutes, rest = divmod(round(seconds), 60)
    verdict = f"FAILED in {', '.join(failed)}" if failed else "all passed"
    print(f"\n{verdict}: {minutes} min {rest} s, load average "
          f"{' '.join(f'{value:.1f}' for value in os.getloadavg())}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
