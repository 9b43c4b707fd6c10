"""One convention for output options: ``-o/--output`` is the file a command makes (bundle, view,
replay --run), ``--out FILE.jsonl`` the results file of match, league, sweep and tune; the
former spellings (``view --out``, ``replay --out``) still work and are not shown."""
from __future__ import annotations

import json
import re

import pytest

from tests.conftest import run_cli

CALM = ("--first-turn-ms", "30000", "--turn-ms", "30000")


@pytest.fixture(scope="module")
def replay(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("replay") / "game.json"
    done = run_cli("play", "tictactoe", "random --seed 1", "random --seed 2", "--seed", "3",
                   *CALM, "--replay", str(path))
    assert done.returncode == 0, done.stderr
    return str(path)


@pytest.mark.parametrize("command", ["bundle", "view", "replay"])
def test_the_file_a_command_makes_is_dash_o_output(command):
    usage = run_cli(command, "--help").stdout
    assert re.search(r"-o \S+, --output \S+", usage), usage
    assert "--out " not in usage and "--out," not in usage


@pytest.mark.parametrize("command", ["match", "league", "sweep", "tune"])
def test_the_results_file_is_out(command):
    usage = run_cli(command, "--help").stdout
    assert "--out FILE.jsonl" in usage
    assert "--output" not in usage


@pytest.mark.parametrize("spelling", ["-o", "--output", "--out"])
def test_view_writes_its_page_with_every_spelling(replay, tmp_path, spelling):
    page = tmp_path / "page.html"
    done = run_cli("view", replay, spelling, str(page))
    assert done.returncode == 0, done.stderr
    assert page.read_text().startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("spelling", ["-o", "--output", "--out"])
def test_replay_writes_the_rerun_with_every_spelling(replay, tmp_path, spelling):
    again = tmp_path / "again.json"
    done = run_cli("replay", replay, "--run", "--json", spelling, str(again))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["identical"] is True
    assert json.loads(again.read_text())["format"] == "botarena-replay"


def test_an_output_that_cannot_be_written_names_the_option(replay, tmp_path):
    done = run_cli("replay", replay, "--run", "--output", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.strip() == f"botarena: -o {str(tmp_path)!r} is a directory; give a file name"
