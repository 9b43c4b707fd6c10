"""The bot skeleton on each game's page (docs/games/GAME.md, section "Skeleton") is a working bot:
it plays a whole game without a fault, and it exits cleanly (status 0, no traceback) when its
input ends mid-game, as it does when botarena closes a bot's stdin at the game's end."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from referee.games import game_names, load_game
from tests.conftest import ROOT, run_cli

CALM = ("--first-turn-ms", "20000", "--turn-ms", "20000")


def skeleton_of(game: str) -> str:
    """The first python block after the page's "## Skeleton" heading."""
    page = (ROOT / "docs" / "games" / f"{game}.md").read_text()
    section = page.split("\n## Skeleton\n", 1)
    assert len(section) == 2, f"docs/games/{game}.md has no '## Skeleton' section"
    block = re.search(r"```python\n(.*?)```", section[1], re.S)
    assert block, f"docs/games/{game}.md: no python block under '## Skeleton'"
    return block.group(1)


@pytest.mark.parametrize("game", game_names())
def test_the_documented_skeleton_plays_a_game_and_exits_cleanly_at_the_end_of_input(game, tmp_path):
    bot = tmp_path / f"{game}_bot.py"
    bot.write_text(skeleton_of(game))
    seats = load_game(game).seats[0]
    replay = tmp_path / "game.json"
    done = run_cli("play", game, str(bot), *["random --seed 2"] * (seats - 1), "--seed", "1",
                   *CALM, "--replay", str(replay), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["players"][0]["fault"] is None, result["players"][0]["fault"]
    assert result["turns"] > 1
    # the skeleton's first two turns of input, then the end of input
    asked = [seat for turn in json.loads(replay.read_text())["turns"] for seat in turn["seats"]
             if seat["seat"] == 0][:2]
    lines = [line for seat in asked for line in seat["input"]]
    fed = subprocess.run([sys.executable, str(bot)], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, timeout=60)
    assert fed.returncode == 0 and "Traceback" not in fed.stderr, fed.stderr
    assert fed.stdout.splitlines() == [seat["output"] for seat in asked]


@pytest.mark.parametrize("game", game_names())
def test_each_game_page_says_what_a_fault_scores(game):
    """A faulted seat's -1 goes into match's mean score: each page says so (a one-player game,
    where a fault keeps the score reached, says that instead)."""
    page = " ".join((ROOT / "docs" / "games" / f"{game}.md").read_text().split())
    assert "**A fault.**" in page
    if load_game(game).seats[1] > 1:
        assert "scores -1" in page and "mean score line averages that -1" in page
    else:
        assert "has no -1" in page
