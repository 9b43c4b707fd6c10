"""Every benchmark runs at a tiny size and prints figures of the right shape (never judged:
timings belong to benchmarks, not to assertions)."""
from __future__ import annotations

import re

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
    (["escape", "--ways", "SIGKILL,immediate"],
     [r"SIGKILL\s+\d+ left of \d+ seen", r"immediate\s+\d+ left of \d+ seen"]),
    (["spawn", "--rounds", "2"],
     [r"vfork\s+[\d.]+ ms", r"shim\s+([\d.]+ ms|skipped)", r"preexec\s+[\d.]+ ms",
      r"cgroup\s+([\d.]+ ms /|skipped)", r"moved in\s+([\d.]+ ms /|skipped)",
      r"no cgroup\s+[\d.]+ ms /", r"sandboxed\s+([\d.]+ ms /|skipped)",
      r"(200 ms: [\d.]+ ms|no cgroup v2 here)",
      r"(the game pays [+-][\d.]+ ms made inside|no cgroup v2 here)"]),
    (["buffering", "--turns", "20", "--rounds", "1", "--starts", "1"],
     [r"python write\+flush: line-buffered vs as it is\s+[\d.]+\s+[\d.]+\s+[+-][\d.]+",
      r"python\s+[\d.]+ ms vs\s+[\d.]+ ms", r"load average"]),
    (["jobs", "--turns", "40", "--jobs", "1"],
     [r"2 games x 20 turns = 40 turns, --jobs 1 on \d+ core", r"timeouts: \d+ in 2 games",
      r"answers given: \d+ of 80 planned", r"load average \(1 min\): [\d.]+ before"]),
    (["match", "--games", "30", "--jobs", "1", "--every", "0.05"],
     [r"running: botarena match tictactoe random random -n 30 --jobs 1 --out \S+ --quiet --json",
      r"30 games in [\d.]+ s: [\d.]+ games/s \(start-up included\); 0 faults, 0 void",
      r"load average [\d.]+ before",
      r"(botarena RSS: [\d.]+ MB at game \d+|too few samples after the warm-up)"]),
    (["ladder", "--trials", "2"],
     [r"true rates measured once \(3600 games", r"ladder, 2 trials:",
      r"best of 8 separated from the second: median [\d,]+",
      r"true rating inside the 95 % interval: \d+/18",
      r"ladder / round robin, median games, total: [\d.]+", r"load average"]),
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
