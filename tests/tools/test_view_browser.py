"""The viewer page in a real browser (headless Chromium): every game's board against the rules'
position, keyboard stepping, the stderr of the right turn, the fault marker, no console error, no
bot markup run, two replays compared. Screenshots of each game land in build/view-screenshots/.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.games import load_game
from referee.replay import read_replay
from tests.conftest import ROOT, run_cli
from tests.tools.test_view import CHATTY, GAMES, SLACK, play
from tools.view.browser import missing

REASON = missing()
if REASON:
    pytest.skip(f"optional: browser tests of the replay viewer skipped: {REASON}", allow_module_level=True)

from tools.view.browser import Browser  # noqa: E402

SHOTS = ROOT / "build" / "view-screenshots"
STEP = {"xmas_rush": 8, "othello": 20, "tictactoe": 5, "number_maze": 6, "number_maze_duel": 8,
        "calculation": 20}


@pytest.fixture(scope="module")
def browser():
    browser = Browser()
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("view")


@pytest.fixture
def page(browser):
    page = browser.new_page()
    yield page
    assert page.errors == [], page.errors            # no console error on any page
    page.close()


def view(folder: Path, *replays: Path) -> Path:
    out = folder / ("-".join(replay.stem for replay in replays) + ".html")
    done = run_cli("view", *map(str, replays), "-o", str(out))
    assert done.returncode == 0, done.stderr
    return out


def step_to(page, target: int) -> None:
    """Walk there with the keyboard, one arrow at a time, checking each step."""
    page.keyboard.press("Home")
    for step in range(1, target + 1):
        page.keyboard.press("ArrowRight")
        assert page.get_attribute("body", "data-step") == str(step)


def rules_state(replay: dict, steps: int):
    """The position the rules reach after the first ``steps`` turn records of the replay."""
    game = load_game(replay["game"])
    state = game.new_state(replay["seed"], game.parse_options({}))
    for record in replay["turns"][:steps]:
        state.apply([game.parse_action(state, seat["seat"], seat["output"]) for seat in record["seats"]])
    return state


def attrs(page, selector: str, *names: str) -> list[tuple]:
    return page.eval_on_selector_all(
        selector, "(nodes, names) => nodes.map(n => names.map(k => n.getAttribute(k)))", list(names))


def board_of(page, game: str) -> object:
    """What the page draws, read back from the board's data attributes, in the rules' terms."""
    if game == "tictactoe":
        marks = attrs(page, ".board .mark", "data-cell", "data-seat")
        return sorted((int(cell), int(seat)) for cell, seat in marks)
    if game == "othello":
        discs = attrs(page, ".board .disc", "data-square", "data-seat")
        return sorted((int(square), int(seat)) for square, seat in discs)
    if game == "xmas_rush":
        tiles = [int(mask) for cell, mask in attrs(page, ".board .tile", "data-cell", "data-tile")
                 if not cell.startswith("hand")]
        players = [int(cell) for _, cell in sorted(attrs(page, ".board .player", "data-seat", "data-cell"))]
        return tiles, players, len(attrs(page, ".board .item", "data-item"))
    if game.startswith("number_maze"):
        cells = attrs(page, ".board .cell, .board .wall", "data-cell", "data-points")
        points = [int(points) for _, points in cells]
        cells = [int(cell) for _, cell in sorted(attrs(page, ".board .character", "data-seat", "data-cell"))]
        return points, cells
    sizes = [int(size) for (size,) in attrs(page, ".board .foundation", "data-size")]
    wastes = [cards for (cards,) in attrs(page, ".board .waste", "data-cards")]
    return sizes, wastes, int(page.get_attribute(".board .current", "data-card"))


def expected_board(game: str, state) -> object:
    if game == "tictactoe":
        return sorted((cell, seat) for seat in (0, 1) for cell in range(9) if state.boards[seat] >> cell & 1)
    if game == "othello":
        return sorted((sq, seat) for seat in (0, 1) for sq in range(64) if state.boards[seat] >> sq & 1)
    if game == "xmas_rush":
        items = sum(1 for cell in state.item_cells().values() if cell >= 0) + \
            sum(1 for hand in state.hands if hand >> 4)
        return [state.tile(cell) for cell in range(49)], list(state.pos), items
    if game.startswith("number_maze"):
        cells = [state.cell] if game == "number_maze" else list(state.cells)
        return list(state.points), cells
    return (list(state.foundations), [" ".join(map(str, pile)) for pile in state.wastes], state.current)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_board_is_the_rules_position_at_a_known_turn(folder, page, game):
    replay_path = play(folder, game, GAMES[game])
    page.goto(view(folder, replay_path).as_uri())
    step = STEP[game]
    step_to(page, step)
    assert board_of(page, game) == expected_board(game, rules_state(read_replay(replay_path), step))
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{game}.png"), full_page=True)
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("body", "data-step") == str(step - 1)
    assert board_of(page, game) == expected_board(game, rules_state(read_replay(replay_path), step - 1))
    page.keyboard.press("End")
    last = len(read_replay(replay_path)["turns"])
    assert page.get_attribute("body", "data-step") == str(last)
    assert "end:" in page.inner_text(".banner")


def test_stderr_fault_marker_and_no_bot_markup_run(folder, page):
    replay_path = play(folder, "tictactoe", [f"{CHATTY} 3", "random --seed 1"])
    page.goto(view(folder, replay_path).as_uri())
    assert page.get_attribute(".marker.fault", "data-step") == "5"     # the chatty bot's 3rd answer
    step_to(page, 3)                                 # seat 0's second answer
    stderr = page.inner_text("#game-0 .seat[data-seat='0'] .stderr")
    assert stderr.startswith("answer 2 thinking </script><script>")
    assert "iterations = 20" in page.inner_text("#game-0 .seat[data-seat='0'] .pdata")
    assert page.inner_text("#game-0 .seat[data-seat='0'] .fault") == ""
    step_to(page, 5)
    panel = "#game-0 .seat[data-seat='0']"
    assert "faulted" in page.get_attribute(panel, "class")
    assert page.inner_text(f"{panel} .fault").startswith("FAULT bad_output")
    assert page.inner_text(f"{panel} .answer") == '<b onmouseover="window.pwned = 3">9 9</b>'
    page.hover(f"{panel} .answer")
    assert page.evaluate("window.pwned") is None and "pwned" not in page.title()
    assert page.evaluate("document.querySelectorAll('#app img, #app b').length") == 0


def test_space_plays_and_pauses(folder, page):
    page.goto(view(folder, play(folder, "tictactoe", GAMES["tictactoe"])).as_uri())
    page.click("#next")                        # a clicked button must not keep the focus:
    assert page.get_attribute("body", "data-step") == "1"
    page.keyboard.press(" ")                   # space plays, it does not click "next" again
    assert page.inner_text("#play") == "pause"
    for _ in range(200):                       # (wait_for_function evaluates a string: the CSP refuses)
        if page.get_attribute("body", "data-step") not in ("0", "1"):
            break
        page.wait_for_timeout(25)
    assert page.get_attribute("body", "data-step") not in ("0", "1")
    page.keyboard.press(" ")
    assert page.inner_text("#play") == "play"


def test_two_replays_one_timeline_first_difference_marked(folder, page):
    first = play(folder, "othello", ["random --seed 1", "random --seed 2"], 8)
    second = folder / "othello-other.json"
    assert run_cli("play", "othello", "random --seed 1", "random --seed 3", "--seed", "8", "--replay",
                   str(second), "--quiet", *SLACK).returncode == 0
    page.goto(view(folder, first, second).as_uri())
    data = json.loads(page.inner_text("#botarena-data"))
    assert page.get_attribute(".marker.diff", "data-step") == str(data["diff_step"])
    assert page.eval_on_selector_all(".game", "nodes => nodes.length") == 2
    step_to(page, data["diff_step"])
    answers = page.eval_on_selector_all(".game .seat.asked .answer", "nodes => nodes.map(n => n.textContent)")
    assert len(answers) == 2 and answers[0] != answers[1]
    page.screenshot(path=str(SHOTS / "compare.png"), full_page=True)


def test_a_replay_of_another_version_says_so_instead_of_drawing(folder, page):
    replay = read_replay(play(folder, "othello", GAMES["othello"], 9))
    replay["turns"][3]["seats"][0]["input"][0] = "0" * 8
    tampered = folder / "tampered.json"
    tampered.write_text(json.dumps(replay))
    page.goto(view(folder, tampered).as_uri())
    step_to(page, 3)
    assert page.is_visible(".board .disc")
    page.keyboard.press("ArrowRight")
    assert not page.is_visible(".board") and "another version" in page.inner_text(".no-board")
