"""``botarena view``: real games through the CLI into pages; bad input; escaping; results lines.

The page in a real browser is tests/tools/test_view_browser.py; here, what the page embeds."""
from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

import pytest

from referee.games import load_game
from referee.replay import read_replay
from tests.conftest import ROOT, run_cli
from tests.referee.external.gamefiles import sdk_game
from tools.view.frames import first_difference, page_data
from tools.view.page import render_page

SLACK = ("--first-turn-ms", "5000", "--turn-ms", "2000")   # no timeout of a loaded machine
CHATTY = f"{sys.executable} {ROOT / 'tests' / 'fixtures' / 'hostile' / 'chatty.py'}"
GAMES = {"xmas_rush": ["random --seed 1", "random --seed 2"],
         "othello": ["random --seed 1", "random --seed 2"],
         "tictactoe": ["random --seed 1", "random --seed 2"], "number_maze": ["random --seed 1"],
         "number_maze_duel": ["random --seed 1", "random --seed 2"], "calculation": ["random --seed 1"]}


def play(folder: Path, game: str, bots: list[str], seed: int = 5, *extra: str) -> Path:
    replay = folder / f"{game}-{seed}.json"
    done = run_cli("play", game, *bots, "--seed", str(seed), "--replay", str(replay), "--quiet",
                   *SLACK, *extra)
    assert done.returncode == 0, done.stderr
    return replay


def embedded(page: Path) -> dict:
    text = page.read_text()
    match = re.search(r'<script id="botarena-data" type="application/json">(.*?)</script>', text, re.S)
    return json.loads(match.group(1))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_gets_a_self_contained_page(tmp_path, game):
    replay = play(tmp_path, game, GAMES[game])
    done = run_cli("view", str(replay))
    assert done.returncode == 0, done.stderr
    page = replay.with_suffix(".html")
    assert f"wrote {page}" in done.stdout
    text = page.read_text()
    assert not re.search(r"""(src|href)\s*=|@import|url\(|fetch\(|XMLHttpRequest""", text)
    data = embedded(page)["games"][0]
    recorded = read_replay(replay)
    assert data["game"] == game and data["problem"] is None
    assert len(data["steps"]) == len(recorded["turns"]) + 1
    assert all(step["frame"] for step in data["steps"])
    assert f"BotArena.drawers.{data['drawing']} =" in text


def test_frames_are_the_rules_positions(tmp_path):
    """Each step's frame is the position the recorded answers lead to under the rules."""
    replay = read_replay(play(tmp_path, "othello", GAMES["othello"]))
    game = load_game("othello")
    steps = page_data(replay, "x")["steps"]
    state = game.new_state(replay["seed"], replay["options"])
    for record, step in zip(replay["turns"], steps[1:]):
        state.apply([game.parse_action(state, record["seats"][0]["seat"], record["seats"][0]["output"])])
        assert step["frame"]["discs"] == list(state.discs())
        assert step["frame"]["last"] == state.last_move


def test_chatty_bot_pdata_budget_and_fault_per_turn(tmp_path):
    replay = read_replay(play(tmp_path, "tictactoe", [f"{CHATTY} 3", "random --seed 1"]))
    steps = page_data(replay, "x")["steps"]
    mine = [seat for step in steps for seat in step["seats"] if seat["seat"] == 0]
    assert [seat["pdata"]["iterations"] for seat in mine] == [10, 20, 30]
    assert [seat["budget_ms"] for seat in mine] == [5000, 2000, 2000]
    assert "answer 2 thinking" in mine[1]["stderr"]
    faulted = [index for index, step in enumerate(steps) if step.get("faults")]
    assert faulted == [len(steps) - 1] == [5]
    assert steps[5]["faults"][0]["kind"] == "bad_output" and steps[5]["turn"] == 4


def test_bot_markup_never_leaves_the_json_block(tmp_path):
    replay = play(tmp_path, "tictactoe", [f"{CHATTY} 3", "random --seed 1"])
    page = tmp_path / "page.html"
    assert run_cli("view", str(replay), "-o", str(page)).returncode == 0
    text = page.read_text()
    block = re.search(r'<script id="botarena-data" type="application/json">(.*?)</script>', text,
                      re.S).group(1)
    assert "<" not in block and ">" not in block
    assert "pwned" not in text.replace(block, "")
    assert "onerror" in json.dumps(embedded(page))          # the text itself is kept, as text


def test_two_replays_side_by_side_mark_the_first_difference(tmp_path):
    first = play(tmp_path, "tictactoe", ["random --seed 1", "random --seed 2"])
    second = tmp_path / "other.json"
    assert run_cli("play", "tictactoe", "random --seed 1", "random --seed 3", "--seed", "5",
                   "--replay", str(second), "--quiet", *SLACK).returncode == 0
    done = run_cli("view", str(first), str(second))
    assert done.returncode == 0, done.stderr
    data = embedded(tmp_path / "tictactoe-5-vs-other.html")
    outputs = [[[seat["output"] for seat in step["seats"]] for step in game["steps"]]
               for game in data["games"]]
    expected = next(index for index, (a, b) in enumerate(zip(*outputs)) if a != b)
    assert data["diff_step"] == expected > 0
    assert first_difference(data["games"][0], data["games"][0]) is None


def test_a_replay_the_rules_do_not_reproduce_is_not_drawn_from_there(tmp_path):
    replay = read_replay(play(tmp_path, "othello", GAMES["othello"]))
    replay["turns"][3]["seats"][0]["input"][0] = "0" * 8       # as if another version's board
    data = page_data(replay, "x")
    assert "another version" in data["problem"] and "turn 3" in data["problem"]
    assert [bool(step["frame"]) for step in data["steps"][:6]] == [True, True, True, True, False, False]
    render_page([data])


def _tampered(tmp_path: Path, game: str, change) -> str:
    """A real replay of ``game`` with ``change(replay)`` applied, written beside it."""
    replay = read_replay(play(tmp_path, game, GAMES[game]))
    change(replay)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(replay))
    return str(path)


def _set(path: tuple, value):
    def change(replay):
        target = replay
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


@pytest.mark.parametrize("game, change, message", [
    ("tictactoe", None, "no replay file"),
    ("tictactoe", "truncate", "is not JSON"),
    ("tictactoe", "foreign", "is not a botarena replay"),
    ("tictactoe", _set(("game",), "chess"), "unknown game 'chess'"),
    ("tictactoe", _set(("turns", 0, "seats", 0, "stderr"), 7), "stderr must be text"),
    ("number_maze", _set(("options", "height"), "tall"), "option height='tall'"),
    ("tictactoe", _set(("time_control", "turn_ms"), "fast"), "time_control"),
])
def test_bad_input_is_one_line_exit_2_and_no_page(tmp_path, game, change, message):
    if change is None:
        target = str(tmp_path / "replay.json")
    elif change == "truncate":
        target = str(play(tmp_path, game, GAMES[game]))
        Path(target).write_text(Path(target).read_text()[:500])
    elif change == "foreign":
        target = str(tmp_path / "package.json")
        Path(target).write_text('{"name": "left-pad", "version": "1.3.0"}')
    else:
        target = _tampered(tmp_path, game, change)
    out = tmp_path / "out.html"
    done = run_cli("view", target, "-o", str(out))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and message in done.stderr and "Traceback" not in done.stderr
    assert not out.exists() and not list(tmp_path.glob("*.html"))


def test_view_of_a_results_line(tmp_path):
    results = tmp_path / "run.jsonl"
    replays = tmp_path / "replays"
    done = run_cli("match", "tictactoe", "random --seed 1", "random --seed 2", "-n", "2", "--seed", "3",
                   "-j", "1", "--out", str(results), "--replays", str(replays), "--quiet", *SLACK)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert len(records) == 2 and len(list(replays.glob("*.json"))) == 2
    for number, record in enumerate(records, 1):
        replay = read_replay(results.parent / record["replay"])
        assert replay["seed"] == record["seed"]
        assert [player["bot"] for player in replay["players"]] == record["seats"]
        page = tmp_path / f"line{number}.html"
        assert run_cli("view", f"{results}:{number}", "-o", str(page)).returncode == 0
        assert embedded(page)["games"][0]["seed"] == record["seed"]
    done = run_cli("view", f"{results}:9")
    assert done.returncode == 2 and "has no line 9" in done.stderr


def test_results_line_without_a_replay_says_how_to_keep_them(tmp_path):
    results = tmp_path / "run.jsonl"
    assert run_cli("match", "tictactoe", "random", "random", "-n", "2", "--seed", "3", "-j", "1",
                   "--out", str(results), "--quiet", *SLACK).returncode == 0
    done = run_cli("view", f"{results}:1")
    assert done.returncode == 2 and "--replays DIR" in done.stderr


def test_open_hands_the_page_to_the_users_browser(tmp_path):
    """--open goes through Python's webbrowser, which honours $BROWSER: here a script that notes
    the address it is given."""
    replay = play(tmp_path, "tictactoe", GAMES["tictactoe"])
    noted = tmp_path / "opened.txt"
    opener = tmp_path / "opener.py"
    opener.write_text(f"import sys; open({str(noted)!r}, 'w').write(sys.argv[1])\n")
    done = run_cli("view", str(replay), "--open",
                   env={**os.environ, "BROWSER": f"{sys.executable} {opener} %s"})
    assert done.returncode == 0, done.stderr
    for _ in range(100):                       # webbrowser may start the opener in the background
        if noted.exists() and noted.read_text():
            break
        time.sleep(0.05)
    assert noted.read_text() == replay.with_suffix(".html").resolve().as_uri()


def test_a_missing_browser_or_playwright_is_named_in_one_line(monkeypatch, tmp_path):
    """What the browser tests and ``bench view`` print when they skip: the part to install."""
    from tools.view import browser
    pytest.importorskip("playwright.sync_api",
                        reason="optional: playwright (pip install 'botarena[view-test]')")
    monkeypatch.setenv("BOTARENA_CHROMIUM", str(tmp_path / "no-such-chromium"))
    assert browser.chromium_path() is None
    assert browser.missing() == "chromium is not installed (apt-get install chromium)"
    monkeypatch.setitem(sys.modules, "playwright.sync_api", None)       # import fails
    assert browser.missing() == ("the Python package playwright is not installed "
                                 "(pip install 'botarena[view-test]')")
    chosen = tmp_path / "my-chromium"
    chosen.write_text("#!/bin/sh\n")
    chosen.chmod(0o755)
    monkeypatch.setenv("BOTARENA_CHROMIUM", str(chosen))
    assert browser.chromium_path() == str(chosen)


def test_a_game_file_named_where_a_builtin_game_goes_is_one_line(tmp_path):
    """A replay of an external game names its file in 'game_file'; one naming it in 'game'
    (edited by hand) is refused in one line, not drawn with the rules it has not."""
    game_file = sdk_game(tmp_path)
    target = _tampered(tmp_path, "tictactoe", _set(("game",), str(game_file)))
    done = run_cli("view", target, "-o", str(tmp_path / "out.html"))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "names a game file" in done.stderr
    assert "Traceback" not in done.stderr
