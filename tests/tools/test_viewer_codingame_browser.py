"""CodinGame's viewer page in a real browser (headless Chromium), with the stand-in viewer
(tests/fixtures/sdk_viewer/: CodinGame's own files cannot be in the repository): served by
``view --serve`` and, from ``-o DIR``, by a plain static server; the page loads with no console
error and nothing asked of any other host, the frames advance, and the last frame shows the
scores. Screenshots land in build/view-screenshots/."""
from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys

import pytest

from tests.conftest import ROOT, run_cli
from tests.tools.sdk_viewer import play_viewer_game
from tools.view.browser import missing

REASON = missing()
if REASON:
    pytest.skip(f"optional: browser tests of CodinGame's viewer skipped: {REASON}",
                allow_module_level=True)

from tools.view.browser import Browser  # noqa: E402

SHOTS = ROOT / "build" / "view-screenshots"


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    replay, _ = play_viewer_game(tmp_path_factory.mktemp("sdk-viewer-browser"))
    return replay, json.loads(replay.read_text())


@pytest.fixture(scope="module")
def browser():
    browser = Browser()
    yield browser
    browser.close()


@pytest.fixture
def page(browser):
    page = browser.new_page()
    page.requests = []
    page.on("request", lambda request: page.requests.append(request.url))
    yield page
    page.close()


def watch(page, url: str, replay: dict, shot: str) -> None:
    """Open the viewer at ``url``, play it to the end, and check what the stand-in drew."""
    page.goto(url)
    page.wait_for_selector("body[data-loaded=true]", timeout=30_000)
    player = page.frame_locator("iframe")
    page.wait_for_selector("body[data-frame='0']", timeout=30_000)
    player.locator("body[data-final='false']").wait_for(timeout=30_000)  # the board drawn
    page.screenshot(path=str(SHOTS / f"{shot}-first.png"))
    # beside the player, a turn's outputs and stderr (a turn: each seat answers once)
    page.evaluate("botarenaViewer.goTo(2)")
    page.wait_for_selector("body[data-frame='2']")
    assert page.inner_text("#agent-0 .stdout").strip() == "7"
    assert page.inner_text("#agent-1 .stdout").strip() == "2"
    assert page.inner_text("#agent-0 .stderr").startswith("bot 0 turn")
    page.evaluate("botarenaViewer.goTo(0)")
    # a summary's colours and player names as the SDK's page shows them, its markup as text
    page.evaluate("botarenaViewer.showSummary('\\xa4RED\\xa4$1 <b>lost</b>\\xa7RED\\xa7 to $0')")
    assert page.inner_text("#summary .console-error .nickname") == replay["players"][1]["bot"]
    assert page.inner_text("#summary") == (f"{replay['players'][1]['bot']} <b>lost</b> to "
                                           f"{replay['players'][0]['bot']}")
    page.evaluate("window.seen = []; botarenaViewer.player.subscribe(f => window.seen.push(f))")
    page.evaluate("botarenaViewer.player.play()")
    # frames advance: the player reaches the last frame by itself, through every frame between
    frames = page.evaluate("botarenaViewer.parsed.frames.length")       # the game's turns
    assert frames == sum(1 for step in replay["turns"] for frame in step["notes"]["frames"]
                         if frame["view"][0].startswith("KEY_FRAME"))
    page.wait_for_selector("body[data-at-end='true']", timeout=60_000)   # (no eval: the CSP)
    assert page.get_attribute("body", "data-frame") == str(frames - 1)
    seen = set(page.evaluate("window.seen"))
    assert set(range(1, frames)) <= seen <= set(range(frames))
    scores = [int(player["score"]) for player in replay["result"]["players"]]
    final = player.locator("body[data-final='true']")
    final.wait_for(timeout=30_000)
    assert json.loads(final.get_attribute("data-scores")) == scores          # drawn by the game
    table = page.inner_text("#scores")
    for seat, score in enumerate(scores):
        assert f"{replay['players'][seat]['bot']}\t{score}" in table        # and beside it
    page.screenshot(path=str(SHOTS / f"{shot}-last.png"))
    assert page.errors == [], page.errors
    origin = url.split("/")[2]
    assert {request.split("/")[2] for request in page.requests if "://" in request} == {origin}


def test_served_the_viewer_plays_to_the_scores_with_no_error(played, page, tmp_path):
    path, replay = played
    SHOTS.mkdir(parents=True, exist_ok=True)
    server = subprocess.Popen([sys.executable, "-m", "tools.cli", "view", str(path), "--serve"],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        assert line.startswith("serving http://127.0.0.1:"), line + server.stderr.read()
        watch(page, line.split()[1], replay, "codingame-standin-served")
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)
    assert server.returncode == 0


def test_a_folder_on_a_plain_static_server(played, page, tmp_path):
    path, replay = played
    out = tmp_path / "viewer"
    assert run_cli("view", str(path), "-o", str(out)).returncode == 0
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # Python's own file server: no CORS headers, nothing botarena set up
    server = subprocess.Popen([sys.executable, "-m", "http.server", "-b", "127.0.0.1", "-d",
                               str(out), str(port)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    try:
        page.wait_for_timeout(300)
        for _ in range(100):                        # until it listens (no timing asserted)
            with socket.socket() as client:
                if client.connect_ex(("127.0.0.1", port)) == 0:
                    break
            page.wait_for_timeout(100)
        watch(page, f"http://127.0.0.1:{port}/index.html", replay, "codingame-standin-static")
    finally:
        server.terminate()
        server.communicate(timeout=30)
