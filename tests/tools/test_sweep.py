"""``botarena sweep``: brace grids, the table with the best point, the CSV and the plot."""
from __future__ import annotations

import csv
import importlib.util
import json
import os
import shlex
import subprocess
import sys

import pytest

from referee.api import UsageError
from tests.conftest import ROOT, run_cli
from tests.tools.test_match_command import CALM
from tools.arena.grid import expand_grid
from tools.arena.sweep import best_point

EVERY_GAME = {**os.environ, "BOTARENA_PROGRESS_SECONDS": "0"}


def test_one_list():
    names, points = expand_grid("hybrid --depth {1,2,3,5,8}")
    assert names == ["depth"]
    assert [point.bot for point in points] == [f"hybrid --depth {d}" for d in (1, 2, 3, 5, 8)]
    assert points[3].values == ("5",)


def test_cartesian_product_and_ranges():
    names, points = expand_grid("duct --c {0.5, 1} --iterations {100..300..100}")
    assert names == ["c", "iterations"]
    assert [point.values for point in points] == [("0.5", "100"), ("0.5", "200"), ("0.5", "300"),
                                                  ("1", "100"), ("1", "200"), ("1", "300")]
    assert points[0].bot == "duct --c 0.5 --iterations 100"


def test_unnamed_parameters():
    names, points = expand_grid("bot{1,2} x{a,b}")
    assert names == ["p1", "p2"] and points[-1].bot == "bot2 xb"


@pytest.mark.parametrize("template", ["hybrid --depth 3", "bot --d {1}", "bot --d {1,,2}",
                                      "bot --d {1..5..0}", "bot --k {3..1}"])
def test_bad_templates(template):
    with pytest.raises(UsageError):
        expand_grid(template)


def test_sweep_against_an_opponent_with_csv(tmp_path):
    table = tmp_path / "sweep.csv"
    done = run_cli("sweep", "tictactoe", "random --seed {1,2,3}", "--vs", "random --seed 9",
                   "-n", "4", "--seed", "3", "--csv", str(table), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["parameters"] == ["seed"]
    assert [row["seed"] for row in summary["points"]] == ["1", "2", "3"]
    assert all(row["games"] == 4 for row in summary["points"])
    best = max(summary["points"], key=lambda row: (row["elo"] if row["elo"] is not None else
                                                   (1e9 if row["score"] > 0.5 else -1e9), row["score"]))
    assert summary["best"] == best["bot"]
    with open(table, newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["bot"] for row in rows] == [f"random --seed {n}" for n in (1, 2, 3)]
    assert set(rows[0]) == {"seed", "bot", "games", "score", "elo", "elo_low", "elo_high", "wins",
                            "draws", "losses"}
    for row in summary["points"]:
        assert row["wins"] + row["draws"] + row["losses"] == row["games"]
        assert row["score"] == pytest.approx((row["wins"] + row["draws"] / 2) / row["games"])


def test_text_table_marks_the_best_point():
    done = run_cli("sweep", "tictactoe", "random --seed {1,2}", "--vs", "random --seed 9",
                   "-n", "2", "--seed", "1")
    assert done.returncode == 0, done.stderr
    marked = [line for line in done.stdout.splitlines() if line.startswith(" *")]
    assert len(marked) == 1 and "* best: random --seed" in done.stdout


def test_sweep_league_rates_points_against_each_other():
    done = run_cli("sweep", "tictactoe", "random --seed {1,2,3}", "--league", "-n", "2", "--json")
    assert done.returncode == 0, done.stderr
    points = json.loads(done.stdout)["points"]
    assert len(points) == 3 and all(row["games"] == 4 for row in points)
    assert sum(row["elo"] for row in points) == pytest.approx(0, abs=0.2)


def test_sweep_needs_an_opponent_or_league():
    done = run_cli("sweep", "tictactoe", "random --seed {1,2}")
    assert done.returncode == 2 and "--vs" in done.stderr


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="needs matplotlib")
def test_plot_is_written(tmp_path):
    plot = tmp_path / "sweep.png"
    done = run_cli("sweep", "tictactoe", "random --seed {1,2}", "--vs", "random --seed 9",
                   "-n", "2", "--plot", str(plot))
    assert done.returncode == 0, done.stderr
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_without_matplotlib_the_sweep_says_how_to_get_the_plot(tmp_path):
    plot = tmp_path / "sweep.png"
    code = ("import sys; sys.modules['matplotlib'] = None; from tools.cli import main; "
            "sys.exit(main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", code, "sweep", "tictactoe", "random --seed {1,2}",
                           "--vs", "random --seed 9", "-n", "2", "--plot", str(plot)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    # the pip of botarena's own Python: a bare 'pip' is another Python's beside a .venv
    hint = f"{shlex.quote(sys.executable)} -m pip install matplotlib"
    assert f"to get it: {hint}" in done.stderr
    assert f"plot: not drawn, matplotlib is missing ({hint})" in done.stdout
    assert not plot.exists()


def test_sweep_on_a_single_player_game():
    done = run_cli("sweep", "number_maze", "beam --width {1,4} --iterations 200", "--vs", "greedy",
                   "-n", "3", "--seed", "2", "--first-turn-ms", "30000", "--turn-ms", "30000",
                   "--json")
    assert done.returncode == 0, done.stderr
    points = json.loads(done.stdout)["points"]
    assert [row["width"] for row in points] == ["1", "4"] and all(r["games"] == 3 for r in points)


def test_success_rate_and_mean_score_are_each_bots_own_games(tmp_path):
    results, table = tmp_path / "calculation.jsonl", tmp_path / "calculation.csv"
    done = run_cli("sweep", "calculation", "greedy --empty-gap {1,8}", "--vs", "random --seed 1",
                   "-n", "6", "--seed", "4", *CALM, "--success-score", "20", "--out", str(results),
                   "--csv", str(table), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    scores: dict[str, list[float]] = {}
    for line in results.read_text().splitlines():
        record = json.loads(line)
        scores.setdefault(record["seats"][0], []).append(record["players"][0]["score"])
    figures = summary["points"] + [summary["opponent_scores"]]
    assert [row["bot"] for row in figures] == ["greedy --empty-gap 1", "greedy --empty-gap 8",
                                               "random --seed 1"]
    for row in figures:
        own = scores[row["bot"]]
        assert len(own) == 6                       # the opponent's deals counted once, not per point
        assert row["mean_score"] == pytest.approx(sum(own) / 6, abs=1e-3)
        assert row["success"] == pytest.approx(sum(score >= 20 for score in own) / 6, abs=1e-4)
        assert row["success_low"] <= row["success"] <= row["success_high"]
    with open(table, newline="") as handle:
        header = set(next(csv.DictReader(handle)))
    assert {"mean_score", "success", "success_low", "success_high"} <= header


def test_text_table_shows_success_and_the_opponents_figures():
    done = run_cli("sweep", "calculation", "greedy --empty-gap {1,8}", "--vs", "random --seed 1",
                   "-n", "2", "--seed", "4", *CALM, "--success-score", "4")
    assert done.returncode == 0, done.stderr
    assert "success (95 %)" in done.stdout
    assert "100.0% [" in done.stdout                # every deal places its four aces: score >= 4
    assert "  random --seed 1: mean score " in done.stdout
    odd = run_cli("sweep", "calculation", "greedy --empty-gap {1,8}", "--vs", "random --seed 1",
                  "-n", "1", "--seed", "4", *CALM)
    assert odd.returncode == 0 and "1 games per point" in odd.stdout   # seeds, not pairs


@pytest.mark.parametrize("options, complaint", [
    (["--plot-y", "success"], "--success-score"),
    (["--plot-x", "depth"], "not a parameter of the grid"),
])
def test_bad_plot_options_are_one_line(tmp_path, options, complaint):
    done = run_cli("sweep", "calculation", "greedy --empty-gap {1,8}", "--vs", "random", "-n", "2",
                   *CALM, "--plot", str(tmp_path / "plot.png"), *options)
    assert done.returncode == 2 and complaint in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="needs matplotlib")
def test_success_plot_against_a_chosen_parameter(tmp_path):
    plot = tmp_path / "success.png"
    done = run_cli("sweep", "calculation", "greedy --empty-gap {1,8} --seed {1,2}", "--vs",
                   "random --seed 1", "-n", "2", "--seed", "4", *CALM, "--success-score", "5",
                   "--plot", str(plot), "--plot-y", "success", "--plot-x", "seed")
    assert done.returncode == 0, done.stderr
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_points_that_all_beat_the_opponent_every_time_are_ranked_by_their_mean_score():
    rows = [{"bot": bot, "games": 4, "score": 1.0, "elo": None, "mean_score": mean}
            for bot, mean in (("greedy", 79.0), ("chokudai", 93.6), ("beam", 93.4))]
    assert best_point(rows) == "chokudai"


def test_points_tied_at_infinity_are_ranked_by_their_lower_bound_then_games():
    def row(bot, low, games):
        return {"bot": bot, "games": games, "score": 1.0, "elo": None, "elo_low": low,
                "elo_high": None}
    finite = {**row("finite", 30.0, 20), "elo": 300.0, "elo_high": 700.0, "score": 0.9}
    assert best_point([row("few", 39.9, 6), row("more", 120.5, 20), finite]) == "more"
    assert best_point([row("six", 39.9, 6), row("six again", 39.9, 8)]) == "six again"


ELO_ROWS = [  # depth 1 even, 2 and 3 all won (+inf), 4 all lost (-inf), 5 an open upper end
    {"bot": f"b {depth}", "depth": str(depth), "games": 6, "score": score, "elo": elo,
     "elo_low": low, "elo_high": high}
    for depth, score, elo, low, high in ((1, 0.5, 0.0, -200.0, 200.0), (2, 1.0, None, 39.9, None),
                                         (3, 1.0, None, 39.9, None), (4, 0.0, None, None, -39.9),
                                         (5, 0.9, 300.0, 100.0, None))]


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="needs matplotlib")
@pytest.mark.parametrize("depths", [(1, 2, 3, 4, 5), (2, 3), (1, 2, 3)])
def test_plot_draws_every_point_inside_the_frame_without_warnings(depths):
    import warnings
    from argparse import Namespace

    from matplotlib import pyplot

    from tools.cli.sweep_plot import draw_sweep
    rows = [row for row in ELO_ROWS if int(row["depth"]) in depths]
    args = Namespace(plot_y="elo", plot_x=None, vs="random", league=False, game="tictactoe",
                     template="b --depth {...}", success_score=None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        figure = draw_sweep(["depth"], rows, best_point(rows), args)
    axes = figure.axes[0]
    (left, right), (bottom, top) = axes.get_xlim(), axes.get_ylim()
    drawn = [(x, y) for line in axes.get_lines() if line.get_marker() not in (None, "None", "")
             for x, y in zip(line.get_xdata(), line.get_ydata())]
    for depth in depths:                     # every point drawn, its estimate inside the frame
        assert any(x == depth and bottom <= y <= top for x, y in drawn), depth
    assert left < min(depths) and max(depths) < right       # no point half cut by the frame
    if 2 in depths:                          # +inf on the top edge, its finite lower end inside
        assert (2, top) in drawn and bottom < 39.9 < top
    pyplot.close(figure)


@pytest.mark.parametrize("option, name, complaint", [
    ("--csv", "blocker/table.csv", "cannot be written"),      # under a file: no folder there
    ("--csv", ".", "is a directory"),
    ("--plot", "blocker/plot.png", "cannot be written"),
    ("--plot", "plot.nope", "cannot write .nope files"),
])
def test_output_paths_are_refused_before_the_first_game(tmp_path, option, name, complaint):
    if option == "--plot" and "nope" in name and importlib.util.find_spec("matplotlib") is None:
        pytest.skip("the plot format is checked by matplotlib, which is not installed")
    (tmp_path / "blocker").write_text("a file, not a folder")
    done = run_cli("sweep", "tictactoe", "random --seed {1,2}", "--vs", "random --seed 9",
                   "-n", "2", *CALM, option, str(tmp_path / name), env=EVERY_GAME)
    assert done.returncode == 2 and complaint in done.stderr, done.stderr
    assert "games" not in done.stderr and "Traceback" not in done.stderr      # none played
    assert len(done.stderr.splitlines()) == 1


def test_a_missing_output_folder_is_created(tmp_path):
    table = tmp_path / "new" / "folder" / "table.csv"
    done = run_cli("sweep", "tictactoe", "random --seed {1,2}", "--vs", "random --seed 9",
                   "-n", "2", *CALM, "--csv", str(table), "--quiet")
    assert done.returncode == 0, done.stderr
    assert table.read_text().startswith("seed,bot,games")


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="needs matplotlib")
def test_plot_of_a_point_that_wins_every_game_is_drawn_without_a_warning(tmp_path):
    plot = tmp_path / "plot.png"
    # random --seed 1 loses both games to alphabeta (with seed 9 it draws one since the random
    # bots share one helper, which draws its moves in another order)
    done = run_cli("sweep", "tictactoe", "{alphabeta,random --seed 3}", "--vs", "random --seed 1",
                   "-n", "2", "--seed", "1", *CALM, "--plot", str(plot), "--json")
    assert done.returncode == 0, done.stderr
    points = json.loads(done.stdout)["points"]
    assert points[0]["wins"] == 2 and points[0]["elo"] is None          # +inf
    assert points[0]["elo_low"] is not None and json.loads(done.stdout)["best"] == "alphabeta"
    assert "Warning" not in done.stderr and plot.read_bytes()[:4] == b"\x89PNG"
