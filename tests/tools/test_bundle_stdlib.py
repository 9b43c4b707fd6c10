"""A bundle is immune to a file beside it named like a standard module, and ``bundle -o`` will not
write such a file (issue 23, psyleague: a bot added as "random" became psyleague_bots/random.py,
and every bot of that folder then crashed on "partially initialized module 'random'")."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import run_cli

SHADOWS = ("random", "argparse", "json", "importlib", "collections", "os")


@pytest.fixture
def folder(tmp_path):
    for name in SHADOWS:
        (tmp_path / f"{name}.py").write_text(f"raise ImportError('{name}.py here is not the "
                                             "standard module')\n")
    return tmp_path


def test_a_bundle_beside_files_that_shadow_the_standard_library_plays(folder):
    bundle = folder / "rnd.py"
    assert run_cli("bundle", "tictactoe/random", "-o", str(bundle)).returncode == 0
    done = run_cli("play", "tictactoe", str(bundle), "random --seed 1", "--seed", "2", "--json")
    assert done.returncode == 0, done.stderr
    players = json.loads(done.stdout)["players"]
    assert players[0]["fault"] is None, players[0]["fault"]


@pytest.mark.parametrize("flags", [["-P"], ["-I", "-S"], ["-S"], []])
def test_a_bundle_runs_however_python_is_started(folder, flags):
    """Under -P and -I Python puts no folder on the path: the bundle then removes nothing."""
    bundle = folder / "rnd.py"
    assert run_cli("bundle", "tictactoe/random", "-o", str(bundle)).returncode == 0
    turn = "-1 -1\n2\n0 0\n1 1\n"
    done = subprocess.run([sys.executable, *flags, str(bundle), "--seed", "3"], input=turn,
                          capture_output=True, text=True, cwd=folder, timeout=60)
    assert done.returncode == 0 and done.stdout in ("0 0\n", "1 1\n"), done.stderr


def test_a_bundle_read_from_stdin_ignores_the_current_folder(folder):
    bundle = folder / "rnd.py"
    assert run_cli("bundle", "tictactoe/random", "-o", str(bundle)).returncode == 0
    done = subprocess.run([sys.executable, "-"], input=bundle.read_text(), capture_output=True,
                          text=True, cwd=folder, timeout=60)
    assert "not the standard module" not in done.stderr, done.stderr


@pytest.mark.parametrize("name", ["random", "json", "os", "collections", "_thread"])
def test_an_output_named_like_a_standard_module_is_refused(tmp_path, name):
    out = tmp_path / f"{name}.py"
    done = run_cli("bundle", "tictactoe/random", "-o", str(out))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert f"{name}.py would shadow Python's standard module {name!r} for every bot in its " \
        f"folder; pick another name (e.g. {name}_bot.py)" in done.stderr
    assert not out.exists()
