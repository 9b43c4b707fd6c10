"""Every benchmark runs at a tiny size and prints figures of the right shape (never judged:
timings belong to benchmarks, not to assertions)."""
from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest

NUMBER = r"[\d,]+(?:\.\d+)?"

# (botarena bench ARGS, patterns the output must hold)
SMOKE_RUNS = [
    (["throughput", "--games", "2", "--starts", "2", "--trips", "20"],
     [r"match: 2 games, \d+ answers in [\d.]+ s",     # 600 unless a bot faulted under load
      r"bound / actual: \d+\.\d\d", r"referee CPU per answer: [\d.]+ us",
      r"floor \(.*\): [\d.]+ ms a game, [\d.]+ us CPU per answer; bound / floor \d+\.\d\d",
      r"load average"]),
    (["harness", "overhead", "--turns", "20", "--rounds", "1"],
     [r"same core: ratio harness/raw \(median of rounds\): [\d.]+", r"cross core: (ratio|skipped)",
      r"match turn / raw with a deadline \(write, poll, read\): [\d.]+"]),
    (["harness", "flood", "--turns", "10", "--rounds", "1"],
     [r"64 KB of stderr", r"ratio harness/raw"]),
    (["harness", "latency", "--turns", "10", "--jobs", "1", "--answer-ms", "5"],
     [r"latency ms: min [\d.]+\s+p50", r"turns over the budget: \d+"]),
    (["harness", "soak", "--games", "4", "--jobs", "1"],
     [r"after the run: \d+ fds, \d+ threads, [\d.]+ MB, 0 zombies"]),
    (["harness", "interrupt", "--rounds", "1"],
     [r"SIGINT: every bot process gone after [\d.]+ s", r"SIGTERM: every bot process gone after"]),
    (["escape", "--ways", "SIGKILL"],
     [r"SIGKILL\s+\d+ left of \d+ seen"]),
    (["spawn", "--rounds", "2"],
     [r"vfork\s+[\d.]+ ms", r"preexec\s+[\d.]+ ms", r"no cgroup\s+[\d.]+ ms /",
      r"sandboxed\s+([\d.]+ ms /|skipped)"]),
    (["buffering", "--turns", "20", "--rounds", "1", "--starts", "1"],
     [r"python write\+flush: line-buffered vs as it is\s+[\d.]+\s+[\d.]+\s+[+-][\d.]+",
      r"python\s+[\d.]+ ms vs\s+[\d.]+ ms", r"load average"]),
    (["jobs", "--turns", "40", "--jobs", "1"],
     [r"2 games x 20 turns = 40 turns, --jobs 1 on \d+ core", r"timeouts: \d+ in 2 games",
      r"answers given: \d+ of 80 planned", r"load average \(1 min\): [\d.]+ before"]),
    (["xmas_rush", "--seconds", "0.02"],
     [rf"clone\s+{NUMBER} /s", rf"complete random games\s+{NUMBER} /s"]),
    (["xmas_search", "--turns", "1", "--fixed", "20"],
     [r"duct\s+iterations per turn: median\s+\d+", r"hybrid\s+iterations", r"pmc\s+iterations"]),
    (["search", "--ms", "2", "--turns", "1"],
     [rf"number_maze_duel duct.*{NUMBER}", rf"xmas_rush duct depth 2.*{NUMBER}"]),
    (["othello", "--seconds", "0.02"],
     [rf"evaluation:\s+{NUMBER} calls/s", rf"alphabeta depth 5:\s+{NUMBER} nodes/s"]),
    (["calculation", "--seconds", "0.02"],
     [rf"mcts \(information sets\):\s+{NUMBER} playouts/s"]),
    (["match", "--games", "30", "--jobs", "1", "--every", "0.05"],
     [r"running: botarena match tictactoe random random -n 30 --jobs 1 --out \S+ --quiet --json",
      r"30 games in [\d.]+ s: [\d.]+ games/s \(start-up included\); 0 faults, 0 void",
      r"load average [\d.]+ before",
      r"(botarena RSS: [\d.]+ MB at game \d+|too few samples after the warm-up)"]),
    (["view"],
     [r"game: xmas_rush random vs random seed 5: 150 turns",
      r"page as played: [\d.]+ MB", r"every turn's stderr at the \d+-char cap: [\d.]+ MB",
      r"(as played: open \d+ ms .* step over 150 steps: mean [\d.]+ ms|browser figures skipped: )"]),
    (["bundle", "--repeat", "1", "--rounds", "1", "--game", "tictactoe", "--opening", "3",
      "--starts", "1"],
     [r"ratio bundled/unbundled [\d.]+", r"\| tictactoe/alphabeta \| [\d,]+ \| [\d,]+ \| \d+ \|"]),
]


@pytest.mark.parametrize("args, patterns", SMOKE_RUNS, ids=lambda value: " ".join(value)
                         if isinstance(value, list) and value and value[0][0].isalpha() else None)
def test_benchmark_runs_small_and_prints_its_figures(cli, args, patterns):
    done = cli("bench", *args, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    for pattern in patterns:
        assert re.search(pattern, done.stdout), f"{pattern!r} not in:\n{done.stdout}"


def test_bench_match_tells_a_histogram_filling_up_from_a_leak(capsys):
    """RSS that grows for the first 1,000 games then stays flat (bounded structures filling) and
    RSS that grows all along (a leak) give the same whole-run slope; the second half differs."""
    from tools.bench.match import report
    def figures(rss_at) -> str:
        samples = [(float(second), 100 * second, rss_at(100 * second)) for second in range(31)]
        report(samples, {"games": 3000, "faults": {}, "void": 0}, 31.0, 0.1)
        return capsys.readouterr().out
    filling = figures(lambda games: 30_000_000 + 300 * min(games, 1000))
    leaking = figures(lambda games: 30_000_000 + 56 * games)
    assert "second half only (from game 1500): +0 bytes a game" in filling
    assert "second half only (from game 1500): +56 bytes a game" in leaking


def test_mutation_targets_take_one_game(cli):
    from tools.bench.mutation import target_glob
    assert target_glob("codec") == "referee.games.*.codec.*"
    assert target_glob("codec:xmas_rush") == "referee.games.xmas_rush.codec.*"
    assert target_glob("rules:othello") == "referee.games.othello.rules.*"
    for bad, reason in (("codec:chess", "'codec:chess': only rules and codec take a game, one of "),
                        ("stats:othello", "'stats:othello': only rules and codec take a game"),
                        ("codecs", "unknown target 'codecs' (known: stats, tally, rules, codec")):
        done = cli("bench", "mutation", bad, "--report-only")
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.splitlines()[-1].startswith(
            f"botarena bench mutation: error: argument TARGET: {reason}")


def test_mutation_report_counts_each_target_and_names_unexplained_survivors(capsys):
    from tools.bench.mutation import EQUIVALENT, report
    equivalent, reason = next(iter(EQUIVALENT.items()))
    rows = [("stats", "tools.stats.elo__mutmut_1", "killed"),
            ("stats", "tools.stats.elo__mutmut_2", "survived"),
            ("stats", equivalent, "survived"),
            ("stats", "tools.stats.elo__mutmut_3", "timeout"),
            ("tally", "tools.arena.tally.cell__mutmut_1", "not checked"),
            ("tally", "tools.arena.tally.cell__mutmut_2", "no tests")]
    assert report(rows) == 3             # two unexplained survivors and one mutant not checked
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "stats: 4 mutants: 2 survived, 1 killed, 1 timeout"
    assert f"  equivalent  {equivalent}: {reason}" in lines
    assert "  survived    tools.stats.elo__mutmut_2   (mutmut show tools.stats.elo__mutmut_2)" in lines
    assert "tally: 2 mutants: 1 not checked, 1 no tests" in lines
    assert "  1 not checked: run botarena bench mutation tally" in lines
    assert "  no tests    tools.arena.tally.cell__mutmut_2   (mutmut show tools.arena.tally.cell__mutmut_2)" in lines
    assert lines[-1] == "unexplained survivors: 2; not checked: 1"
    assert report([("stats", "tools.stats.elo__mutmut_1", "killed")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "unexplained survivors: 0"


def test_mutation_without_mutmut_says_how_to_install_it(cli, tmp_path):
    if shutil.which("mutmut", path=str(Path(sys.executable).parent)) or shutil.which("mutmut"):
        pytest.skip("mutmut is installed here")
    done = cli("bench", "mutation", "stats", "--report-only", env={**os.environ, "PATH": str(tmp_path)})
    assert done.returncode == 1
    assert done.stderr.strip() == ("botarena bench mutation: mutmut is not installed; "
                                   "pip install -e '.[mutation]' (or: pip install mutmut)")
