"""``botarena tune`` finds a known optimum, and refuses bad input with one line.

The proof uses tests/fixtures/tuning_bot.py, a number_maze_duel bot whose chance of a greedy move is a
known cone in (x, y) peaking at x = 0.3, y = 7. Pure tests run the SPSA and racing logic on a
model of that bot's games (many seeds, milliseconds); the CLI tests play it for real.
"""
from __future__ import annotations

import csv
import json
import random
import re

import pytest

from referee.api import UsageError
from tests.fixtures.tuning_bot import BEST_X, BEST_Y, quality
from tools.arena.grid import GridPoint, Parameter, expand_grid, parse_ranges
from tools.tune.race import Race
from tools.tune.spsa import Spsa, schedule

X = Parameter("x", 0.0, 1.0, False, False)
Y = Parameter("y", 0, 20, True, False)
BOT = "tests/fixtures/tuning_bot.py --x {0.0..1.0} --y {0..20}"
OPPONENT = "tests/fixtures/tuning_bot.py --x 1 --y 20"
RACE_OPPONENT = "tests/fixtures/tuning_bot.py --x 0.3 --y 12"      # quality 0.9
QUICK = ["--option", "turns=10", "--turn-ms", "5000", "--first-turn-ms", "5000", "--jobs", "2"]


def model_game(rng: random.Random, first: tuple, second: tuple) -> float:
    """A game between two tuning bots as the model sees it: the first's score (1, 1/2, 0);
    the better bot wins more often, the more so the wider the gap in quality (a gap of 0.13
    is worth about 80 %, as measured between the real bots at (0.3, 7) and (0.5, 10))."""
    gap = quality(*first) - quality(*second)
    draw = 0.25 * min(quality(*first), quality(*second)) ** 8     # two greedy bots draw
    roll = rng.random()
    if roll < draw:
        return 0.5
    return 1.0 if rng.random() < min(max(0.5 + 2.4 * gap, 0.02), 0.98) else 0.0


def spsa_on_model(seed: int, iterations: int = 100) -> list:
    spsa = Spsa([X, Y], [1.0, 20], [schedule(p, iterations, 2) for p in (X, Y)], seed)
    rng = random.Random(seed)
    for k in range(1, iterations + 1):
        plus, minus, delta = spsa.sides(k)
        first, second = tuple(spsa.values(plus)), tuple(spsa.values(minus))
        result = sum(2 * model_game(rng, first, second) - 1 for _ in range(2))
        spsa.update(k, delta, result)
    return spsa.values()


def test_spsa_from_the_edge_ends_near_the_optimum_on_most_seeds():
    """From the far corner (1, 20), 100 iterations (200 games): within 0.2 of x = 0.3 and 3 of
    y = 7 on at least 45 of 50 seeds (all 50 at the time of writing)."""
    finals = [spsa_on_model(seed) for seed in range(50)]
    near = [abs(x - BEST_X) <= 0.2 and abs(y - BEST_Y) <= 3 for x, y in finals]
    assert sum(near) >= 45, finals


def test_spsa_steps_are_a_function_of_seed_and_results():
    assert spsa_on_model(7, 30) == spsa_on_model(7, 30)
    spsa = Spsa([X, Y], [1.0, 20], [schedule(p, 30, 2) for p in (X, Y)], 3)
    assert spsa.perturbation(5) == Spsa([X, Y], [0.5, 3], spsa.gains, 3).perturbation(5)


def test_spsa_clips_to_the_range_and_rounds_integers():
    spsa = Spsa([X, Y], [1.0, 20], [schedule(p, 10, 2) for p in (X, Y)], 1)
    plus, minus, _ = spsa.sides(1)
    for value in spsa.values(plus) + spsa.values(minus):
        assert value == min(max(value, 0), 20)
    assert isinstance(spsa.values(plus)[1], int)
    spsa.update(1, [1, 1], 1000.0)
    assert spsa.values() == [1.0, 20]


def test_log_scale_parameters_step_in_the_logarithm():
    (c,) = parse_ranges("duct --c {0.01..100 log}")
    assert c.log and not c.integer
    assert c.from_internal(sum(c.bounds) / 2) == pytest.approx(1.0)


def race_on_model(seed: int, drop: str):
    names, points = expand_grid("bot --x {0.0,0.3,0.6,1.0} --y {0,7,14,20}")
    race = Race(points, "opponent", pairs_per_round=4, drop=drop)
    rng = random.Random(seed)
    for round_number in range(8):
        for job in race.round_jobs(round_number, seed):
            bot = next(name for name in job.seats if name != "opponent")
            point = next(p for p in points if p.bot == bot)
            score = model_game(rng, (float(point.values[0]), int(point.values[1])), (0.3, 12))
            ranks = [0, 1] if score == 1 else [1, 0] if score == 0 else [0, 0]
            if job.seats[0] != bot:
                ranks.reverse()
            race.add({"pair": job.pair, "seats": list(job.seats),
                      "players": [{"rank": rank, "score": 0} for rank in ranks]})
        race.cut(round_number)
        if len(race.live) == 1:
            break
    return race


@pytest.mark.parametrize("drop", ["bounds", "half"])
def test_racing_keeps_the_true_best_point_and_drops_most_others(drop):
    kept_best = 0
    for seed in range(20):
        race = race_on_model(seed, drop)
        live = [entrant.point.values for entrant in race.live]
        kept_best += ("0.3", "7") in live
        assert len(live) <= 5 and race.games_played() < race.full_grid_games()   # 11 of 16 out
    assert kept_best >= 19


# -- through the CLI, with the real bot --------------------------------------------------------

def test_spsa_tunes_the_real_bot_from_the_edge(cli, tmp_path):
    """40 iterations (80 games) from (1, 20), fixed seed: x within 0.15 of 0.3, y within 2 of
    7; the trajectory CSV has a row per iteration and the tuned bot beats the start."""
    out = tmp_path / "spsa.jsonl"
    result = cli("tune", "number_maze_duel", BOT, "--vs", OPPONENT, "--iterations", "40",
                 "--start", "x=1,y=20", "-n", "20", "--seed", "1", "--out", str(out), "--json",
                 "--csv", str(tmp_path / "spsa.csv"), *QUICK, timeout=600)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    x, y = summary["parameters"]["x"], summary["parameters"]["y"]
    assert abs(x - BEST_X) <= 0.15 and abs(y - BEST_Y) <= 2, summary["parameters"]
    assert summary["verification"]["start"]["score"] > 0.5
    assert len((tmp_path / "spsa.csv").read_text().splitlines()) == 41
    lines = out.read_text().splitlines()
    assert len(lines) == summary["games"] == 80 + 40
    first = json.loads(lines[0])
    assert first["tune"]["phase"] == "spsa" and set(first["tune"]["parameters"][0]) == {"x", "y"}
    again = cli("tune", "number_maze_duel", BOT, "--vs", OPPONENT, "--iterations", "40",
                "--start", "x=1,y=20", "-n", "20", "--out", str(out), "--json", *QUICK,
                timeout=600)
    resumed = json.loads(again.stdout)
    assert resumed["games_played_now"] == 0 and resumed["parameters"] == summary["parameters"]


def test_racing_the_real_bot_keeps_the_best_point(cli):
    result = cli("tune", "number_maze_duel", "tests/fixtures/tuning_bot.py --x {0.3,1} --y {0,7,20}",
                 "--vs", RACE_OPPONENT, "--method", "race", "--drop", "half", "--rounds", "4",
                 "-n", "0", "--seed", "2", "--json", *QUICK, timeout=600)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["parameters"] == {"x": "0.3", "y": "7"}
    assert summary["race_games"] < summary["full_grid_games"]
    dropped = [row for row in summary["points"] if row["dropped_after_round"] is not None]
    assert len(dropped) == 5


# -- bad input: one line, exit 2, nothing lost -------------------------------------------------

@pytest.mark.parametrize("template, extra, message", [
    (BOT, ["--start", "z=1"], "unknown parameter 'z'"),
    ("tests/fixtures/tuning_bot.py --x {0.5..0.5}", [], "empty range"),
    ("duct --x {1..3}", [], "unrecognized arguments: --x"),
    ("duct --c 1 --c {0.1..2}", [], "--c is given twice"),
    ("duct --c {0.1..2}", ["--c-end", "q=1"], "unknown parameter 'q'"),
    ("duct --c {1,2}", [], "should be a range"),
    ("duct --c {1}", ["--method", "race"], "two or more values"),
])
def test_bad_input_is_one_line_and_exit_2(cli, template, extra, message):
    result = cli("tune", "number_maze_duel", template, "--vs", "random", *extra)
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_a_results_file_of_another_tuning_run_is_refused_untouched(cli, tmp_path):
    out = tmp_path / "run.jsonl"
    first = cli("tune", "number_maze_duel", BOT, "--vs", OPPONENT, "--iterations", "2", "-n", "0",
                "--seed", "1", "--out", str(out), *QUICK)
    assert first.returncode == 0, first.stderr
    before = out.read_bytes()
    other = cli("tune", "number_maze_duel", BOT, "--vs", OPPONENT, "--iterations", "3", "-n", "0",
                "--out", str(out), *QUICK)
    assert other.returncode == 2 and "another tuning run (iterations 2, not 3)" in other.stderr
    assert len(other.stderr.strip().splitlines()) == 1 and out.read_bytes() == before
    match = tmp_path / "match.jsonl"
    played = cli("match", "number_maze_duel", "random", "random", "-n", "2", "--seed", "1",
                 "--out", str(match), "--quiet", *QUICK)
    assert played.returncode == 0 and match.exists(), played.stderr
    refused = cli("tune", "number_maze_duel", BOT, "--vs", OPPONENT, "--out", str(match), *QUICK)
    assert refused.returncode == 2 and "not from a tuning run" in refused.stderr


def test_grid_point_is_shared_with_sweep():
    assert GridPoint is expand_grid("b {1,2}")[1][0].__class__
    with pytest.raises(UsageError):
        parse_ranges("b --k {2..2}")


def _run_in_pty(args: list[str]) -> tuple[int, str]:
    """Run botarena with a terminal for stdin, stdout and stderr; its exit status and output."""
    import fcntl
    import os
    import pty
    import struct
    import subprocess
    import sys
    import termios

    from tests.conftest import ROOT
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
    process = subprocess.Popen([sys.executable, "-m", "tools.cli", *args], cwd=ROOT,
                               stdin=follower, stdout=follower, stderr=follower)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return process.wait(timeout=300), b"".join(chunks).decode(errors="replace")


def test_progress_bar_on_a_terminal_and_a_plain_line_when_piped(cli):
    args = ["tune", "number_maze_duel", BOT, "--vs", OPPONENT, "--iterations", "2", "-n", "0",
            "--seed", "1", *QUICK]
    status, output = _run_in_pty(args)
    assert status == 0, output
    assert "tune number_maze_duel" in output and "iteration" in output and "Traceback" not in output
    piped = cli(*args)
    assert piped.returncode == 0
    assert "botarena: tune number_maze_duel: 4/4 games  iteration 1/2  x=" in piped.stderr


def test_ctrl_c_prints_the_best_so_far_and_the_run_resumes(tmp_path):
    """SIGINT mid-run: exit 130, the current theta printed, the games kept for a resume."""
    import signal
    import subprocess
    import sys
    import time

    from tests.conftest import ROOT
    out = tmp_path / "stop.jsonl"
    args = [sys.executable, "-m", "tools.cli", "tune", "number_maze_duel", BOT, "--vs", OPPONENT,
            "--iterations", "500", "-n", "0", "--seed", "1", "--out", str(out), "--quiet", *QUICK]
    process = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not out.exists() or
                                           len(out.read_text().splitlines()) < 4):
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    stdout, _ = process.communicate(timeout=120)
    assert process.returncode == 130
    assert "best so far: tests/fixtures/tuning_bot.py --x " in stdout
    assert "run the same command again" in stdout
    kept = len(out.read_text().splitlines())
    assert kept >= 4


def test_tune_on_a_cluster_ends_where_local_threads_end(cli):
    """tune is a producer of game jobs: on a Dask LocalCluster it plays the same games and
    ends on the same parameters as on --jobs threads (each step depends only on results)."""
    pytest.importorskip("distributed", reason="Dask's distributed is not installed "
                        "(pip install 'botarena[cluster]')")
    args = ["tune", "number_maze_duel", BOT, "--vs", OPPONENT, "--iterations", "4", "-n", "2",
            "--seed", "1", "--json", *QUICK[:-2]]
    local = cli(*args, "--jobs", "2", timeout=600)
    cluster = cli(*args, "--cluster", "local:2", timeout=600)
    assert local.returncode == 0 and cluster.returncode == 0, cluster.stderr
    on_threads, on_cluster = json.loads(local.stdout), json.loads(cluster.stdout)
    assert on_cluster["executor"].startswith("cluster")
    for key in ("parameters", "theta", "games", "verification"):
        assert on_cluster[key] == on_threads[key]


def test_race_text_table_csv_and_plot_agree(cli, tmp_path):
    """The race's text report: one row per grid point (its games, and when it was dropped or
    "live"), the games racing saved, and the same points in the CSV; the plot is a PNG."""
    pytest.importorskip("matplotlib", reason="optional: matplotlib (pip install 'botarena[plot]')")
    csv_path, plot_path = tmp_path / "race.csv", tmp_path / "race.png"
    result = cli("tune", "number_maze_duel", "tests/fixtures/tuning_bot.py --x {0.3,1} --y {0,7,20}",
                 "--vs", RACE_OPPONENT, "--method", "race", "--drop", "half", "--rounds", "2",
                 "-n", "2", "--seed", "2", "--csv", str(csv_path), "--plot", str(plot_path), *QUICK,
                 timeout=600)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    header = next(index for index, line in enumerate(lines) if line.split()[:3] == ["x", "y", "games"])
    assert lines[header].split()[3:] == ["score", "Elo", "95", "%", "interval", "dropped"]
    rows = [line.split() for line in lines[header + 1:header + 7]]
    assert [(row[0], row[1]) for row in rows] == [(x, y) for x in ("0.3", "1") for y in ("0", "7", "20")]
    fates = [" ".join(row[7:]) if row[-1] != "live" else "live" for row in rows]
    assert fates.count("after round 1") == 3 and fates.count("after round 2") == 1
    assert fates.count("live") == 2
    saved = re.search(r"racing used (\d+) games; a full grid with as many games per point as the "
                      r"winner's takes (\d+): (\d+) saved", result.stdout)
    used, full, kept = (int(group) for group in saved.groups())
    assert used == sum(int(row[2]) for row in rows) and kept == full - used > 0
    assert f"csv: {csv_path}" in result.stdout and f"plot: {plot_path}" in result.stdout
    with open(csv_path, newline="") as handle:
        points = list(csv.DictReader(handle))
    assert [(point["x"], point["y"], point["games"]) for point in points] == \
        [(row[0], row[1], row[2]) for row in rows]
    assert [point["dropped_after_round"] or "live" for point in points] == \
        [fate.rsplit(" ", 1)[-1] if fate != "live" else "live" for fate in fates]
    assert plot_path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_spsa_plot_is_drawn_per_parameter(cli, tmp_path):
    pytest.importorskip("matplotlib", reason="optional: matplotlib (pip install 'botarena[plot]')")
    plot_path = tmp_path / "spsa.png"
    result = cli("tune", "number_maze_duel", BOT, "--vs", OPPONENT, "--iterations", "2", "-n", "0",
                 "--seed", "1", "--plot", str(plot_path), *QUICK, timeout=600)
    assert result.returncode == 0, result.stderr
    assert f"plot: {plot_path}" in result.stdout
    assert "no verification match" in result.stdout
    assert plot_path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
