"""Memory that does not grow with the run: jobs generated lazily (``-n`` of a hundred million
starts at once), and tallies that keep counts, not every game's figures."""
from __future__ import annotations

import json
import random
import subprocess
import sys
import tracemalloc

from referee.harness.watchdog import LagRecord
from referee.match import latency_summary
from tests.conftest import ROOT
from tests.tools.test_match_command import CALM
from tools.arena.schedule import PairedJobs, interleave, paired_jobs, solo_jobs
from tools.arena.standings import Standings, round_robin
from tools.arena.tally import HeadToHead, LatencyCounts

# Runs the CLI in a child and prints its summary, then the child's peak resident memory (KB).
PEAK_RSS = ("import resource, subprocess, sys\n"
            "done = subprocess.run([sys.executable, '-m', 'tools.cli', *sys.argv[1:]], "
            "capture_output=True, text=True)\n"
            "print(done.returncode, done.stderr.strip()[-300:].replace(chr(10), ' '), file=sys.stderr)\n"
            "print(done.stdout.strip())\n"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")


def _peak_rss_kb(*args: str) -> tuple[dict, int]:
    done = subprocess.run([sys.executable, "-c", PEAK_RSS, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    summary, peak = done.stdout.strip().splitlines()
    assert done.stderr.startswith("0 "), done.stderr
    return json.loads(summary), int(peak)


def test_a_huge_n_starts_at_once_in_the_memory_of_a_small_one(tmp_path):
    """An SPRT ends both runs after ~16 games; building the 400,000 jobs first (the bug) cost
    ~100 MB more."""
    crasher = tmp_path / "crasher.py"
    crasher.write_text("import sys\nsys.exit(3)\n")
    common = ("match", "tictactoe", "random", str(crasher), "--sprt", "elo0=0,elo1=200",
              "--seed", "1", "--jobs", "1", *CALM, "--json", "--out")
    small, small_peak = _peak_rss_kb(*common, str(tmp_path / "small.jsonl"), "-n", "40")
    huge, huge_peak = _peak_rss_kb(*common, str(tmp_path / "huge.jsonl"), "-n", "400000")
    assert small["sprt"]["result"] == huge["sprt"]["result"] == "H1"
    assert huge["games"] < 40
    assert huge_peak - small_peak < 20_000, f"{small_peak} KB for -n 40, {huge_peak} for 400,000"


def test_schedules_are_lazy_and_answer_membership():
    jobs = paired_jobs("a", "b", 10**9, base_seed=1)
    assert len(jobs) == 2 * 10**9
    first = next(iter(jobs))
    assert first.key == (0, ("a", "b")) and (5, ("b", "a")) in jobs and (5, ("a", "c")) not in jobs
    assert (10**9, ("a", "b")) not in jobs
    mixed = interleave([PairedJobs("a", "b", 2, 1), PairedJobs("a", "c", 1, 1)])
    assert [job.key for job in mixed] == [(0, ("a", "b")), (0, ("b", "a")), (0, ("a", "c")),
                                          (0, ("c", "a")), (1, ("a", "b")), (1, ("b", "a"))]
    assert len(mixed) == 6 and (0, ("c", "a")) in mixed and (1, ("c", "a")) not in mixed
    solo = solo_jobs(["a", "b"], 3, 1)
    assert len(solo) == 6 and (2, ("b",)) in solo and (3, ("b",)) not in solo


def _game(pair: int, seats: list[str], rng: random.Random) -> dict:
    ranks = rng.choice([[0, 1], [1, 0], [0, 0]])
    return {"pair": pair, "seats": seats, "game": "tictactoe", "seed": pair,
            "players": [{"rank": rank, "score": 1.0 - rank, "fault": None} for rank in ranks],
            "latencies_ms": [[round(rng.uniform(0.05, 3.0), 2) for _ in range(5)]
                             for _ in seats]}


def _growth_bytes(feed, games: int) -> int:
    """What feeding ``games`` more games adds to the memory in use (after a warm-up)."""
    feed(0, 2000)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        feed(2000, 2000 + games)
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def test_a_head_to_head_keeps_counts_not_games():
    """20,000 games add a few KB (the bug: ~0.65 KB a game, 13 MB)."""
    tally, rng = HeadToHead("a", "b"), random.Random(1)
    def feed(start, end):
        for number in range(start, end):
            tally.add(_game(number // 2, ["a", "b"] if number % 2 == 0 else ["b", "a"], rng))
    assert _growth_bytes(feed, 20_000) < 100_000
    assert tally.games == 22_000 and sum(tally.pentanomial()) == 11_000


def test_a_league_and_single_player_comparisons_keep_counts_not_games():
    names = ["a", "b", "c"]
    standings, rng = Standings(names, round_robin(names), solo=True), random.Random(2)
    def feed(start, end):
        for seed in range(start, end):
            for name in names:
                standings.add({"pair": seed, "seats": [name], "game": "number_maze", "seed": seed,
                               "players": [{"rank": 0, "score": rng.randrange(20), "fault": None}],
                               "latencies_ms": [[1.0]]})
    assert _growth_bytes(feed, 10_000) < 100_000
    assert standings.games == 3 * 12_000


def test_latency_counts_give_the_percentiles_of_the_full_list():
    rng = random.Random(3)
    for size in (1, 2, 7, 100, 1001):
        values = [round(rng.expovariate(1.0), 2) for _ in range(size)]
        counts = LatencyCounts()
        counts.add(values[: size // 2])
        counts.add(values[size // 2:])
        assert counts.summary() == latency_summary(values) and counts.count == size
    assert LatencyCounts().summary() == latency_summary([])



def test_the_monitor_keeps_a_few_lag_samples_and_answers_the_largest_since():
    """The monitor thread adds a wake-up delay 50 times a second for the whole run; a game asks
    for the largest since its start. Keeping the last 4,096 samples (the bug: ~0.5 MB, filled
    over the run's first minutes, read as ~100 bytes a game by a 5,000-game measurement) is not
    needed to answer: the record keeps only the samples no later one exceeds."""
    rng, record, samples = random.Random(4), LagRecord(), []
    for tick in range(20_000):
        lag = round(rng.expovariate(1.0), 3) if tick % 7 else 0.0
        record.add(float(tick), lag)
        samples.append((float(tick), lag))
        if tick % 997 == 0:
            for since in (0.0, tick / 2, tick - 3.5, float(tick), tick + 1.0):
                assert record.max_since(since) == max(
                    (value for at, value in samples if at >= since), default=0.0)
    assert len(record) < 100


def test_a_long_run_of_shrinking_lags_is_bounded_by_dropping_the_oldest():
    record = LagRecord(bound=50)
    for tick in range(1000):
        record.add(float(tick), 1000.0 - tick)
    assert len(record) == 50 and record.max_since(0.0) == 50.0 and record.max_since(999.0) == 1.0
