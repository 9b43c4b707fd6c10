"""The throughput bench and the harness overhead bench run and print their figures (never judged)."""
from __future__ import annotations

import re


def test_throughput_bench_prints_the_bound_ratio_and_the_referee_cpu(cli):
    done = cli("bench", "throughput", "--games", "2", "--starts", "2", "--trips", "20")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.search(r"match: 2 games, 600 answers in [\d.]+ s", out), out     # 150 turns, 2 seats
    assert re.search(r"bound / actual: \d+\.\d\d", out), out
    assert re.search(r"referee CPU per answer: [\d.]+ us", out), out
    assert "load average" in out


def test_overhead_bench_compares_on_one_core_and_prints_the_cross_core_figure(cli):
    done = cli("bench", "harness", "overhead", "--turns", "20", "--rounds", "1")
    assert done.returncode == 0, done.stderr
    assert re.search(r"same core: ratio harness/raw \(median of rounds\): [\d.]+", done.stdout)
    assert re.search(r"cross core: (ratio|skipped)", done.stdout), done.stdout
