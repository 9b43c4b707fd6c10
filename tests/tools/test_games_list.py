"""``botarena games`` with a game folder still being written: one line naming the folder."""
from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

# a folder with an __init__.py and no GAME, found beside the real games (not in the tree)
HALF_DONE = """
import pathlib, sys
import referee.games
folder = pathlib.Path(sys.argv[1]) / "half_done"
folder.mkdir()
(folder / "__init__.py").write_text('\"\"\"A game being written.\"\"\"\\n')
referee.games.__path__.append(str(folder.parent))
from tools.cli.main import main
sys.exit(main(sys.argv[2:]))
"""


def _botarena_with_a_half_done_game(tmp_path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", HALF_DONE, str(tmp_path), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_a_folder_without_game_is_one_line_naming_it(tmp_path):
    done = _botarena_with_a_half_done_game(tmp_path, "games")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        f"botarena: {tmp_path / 'half_done'}: not a game yet, its __init__.py defines no GAME "
        "(a Game instance; see docs/adding-a-game.md)"]


def test_playing_it_says_the_same(tmp_path):
    done = _botarena_with_a_half_done_game(tmp_path, "play", "half_done", "random", "random")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "half_done: not a game yet" in done.stderr
