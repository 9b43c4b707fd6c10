"""``botarena view`` of a game played through an SDK referee: CodinGame's viewer folder (the
stand-in viewer's files from a jar and a folder, the game log, botarena's page, nothing online),
served on localhost until Ctrl-C; the generic page with one line when there are no viewer files.
The page itself runs in Chromium in test_viewer_codingame_browser.py."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import urllib.request

import pytest

from referee.api import UsageError
from referee.external.gamefile import read_game_file
from tests.conftest import ROOT, run_cli
from tests.referee.external.gamefiles import brutal_game, digit_bot, sdk_game
from tests.tools.sdk_viewer import STAND_IN, play_viewer_game, viewer_game_file, zip_folder
from tools.view.codingame.files import command_class_path, find_viewer
from tools.view.codingame.folder import assets_listing, offline_player_page
from tools.view.codingame.game import codingame_view


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    return play_viewer_game(tmp_path_factory.mktemp("sdk-viewer"))


def test_the_viewer_folder_holds_the_viewer_the_log_and_botarenas_page(played, tmp_path):
    replay, log = played
    out = tmp_path / "viewer"
    done = run_cli("view", str(replay), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert f"wrote {out}/" in done.stdout and "CodinGame's viewer of digits" in done.stdout
    files = {path.relative_to(out).as_posix() for path in out.rglob("*") if path.is_file()}
    assert files == {"player.js", "player.html", "lib/pixi6.js", "core/Drawer.js",   # the jar's
                     "config.js", "digits/DigitsModule.js", "assets/background.png",  # the folder's
                     "assets.js", "demo.js", "game.json", "botarena.json",            # written
                     "index.html", "botarena-viewer.js", "botarena-viewer.css"}       # botarena's
    assert (out / "game.json").read_text() == log.read_text()       # the log, as --sdk-log writes it
    assert (out / "assets.js").read_text() == ('export const assets = {"images":{"background.png":'
                                               '"assets/background.png"},"sprites":[],"fonts":[]}\n')
    assert (out / "demo.js").read_text() == "export const demo = null;\n"
    player = (out / "player.html").read_text()
    assert "googleapis" not in player and "Content-Security-Policy" in player
    info = json.loads((out / "botarena.json").read_text())
    recorded = json.loads(replay.read_text())
    assert info["names"] == [player["bot"] for player in recorded["players"]]
    assert info["avatars"][0].startswith("data:image/png;base64,")
    # nothing the folder's pages load comes from elsewhere
    for name in ("index.html", "botarena-viewer.js", "player.html"):
        assert "https://" not in (out / name).read_text().replace("https://static.codingame", "")


def test_a_folder_is_written_again_but_never_over_a_foreign_one(played, tmp_path):
    replay, _ = played
    view = codingame_view(json.loads(replay.read_text()), replay.name)
    out = tmp_path / "viewer"
    view.write(out)
    (out / "stale.js").write_text("from another game")
    view.write(out)                                          # botarena's own folder: replaced
    assert not (out / "stale.js").exists() and (out / "index.html").is_file()
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    with pytest.raises(UsageError, match="did not write and is not empty"):
        view.write(foreign)
    assert (foreign / "notes.txt").read_text() == "keep me"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["mine", "viewer"]  # no scratch left


def test_the_default_folder_is_beside_the_replay(played):
    replay, _ = played
    done = run_cli("view", str(replay))
    assert done.returncode == 0, done.stderr
    assert (replay.parent / "game-viewer" / "index.html").is_file()


def test_served_on_localhost_until_interrupted(played, tmp_path):
    replay, log = played
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    process = subprocess.Popen([sys.executable, "-m", "tools.cli", "view", str(replay), "--serve"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "TMPDIR": str(scratch)})
    try:
        line = process.stdout.readline()
        assert line.startswith("serving http://127.0.0.1:") and "Ctrl-C" in line, line
        url = line.split()[1]
        with urllib.request.urlopen(url, timeout=30) as response:
            assert b"botarena-viewer.js" in response.read()
            assert response.headers["Cache-Control"] == "no-store"
        with urllib.request.urlopen(url + "game.json", timeout=30) as response:
            assert response.read().decode() == log.read_text()
        with urllib.request.urlopen(url + "core/Drawer.js", timeout=30) as response:
            assert response.headers["Content-Type"].startswith("text/javascript")
        assert list(scratch.iterdir()) != []                 # the folder being served
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert list(scratch.iterdir()) == []                     # and removed when stopped


def test_a_port_in_use_is_one_line(played):
    replay, _ = played
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_cli("view", str(replay), "--serve", str(port))
    assert done.returncode == 2
    assert done.stderr.startswith(f"botarena: --serve {port}: cannot listen") and \
        len(done.stderr.splitlines()) == 1


def test_botarenas_page_served_too(tmp_path):
    replay = tmp_path / "ttt.json"
    assert run_cli("play", "tictactoe", "random", "random", "--seed", "1", "--replay", str(replay),
                   "--quiet").returncode == 0
    assert run_cli("view", str(replay), "--serve", "70000").stderr == \
        "botarena: --serve 70000: a port is 0 to 65535\n"
    process = subprocess.Popen([sys.executable, "-m", "tools.cli", "view", str(replay), "--serve"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().startswith(f"wrote {tmp_path / 'ttt.html'}")
        url = process.stdout.readline().split()[1]
        assert url.endswith("/ttt.html")
        with urllib.request.urlopen(url, timeout=30) as response:
            assert b"botarena-data" in response.read()
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)
    assert process.returncode == 0


def test_without_viewer_files_the_generic_page_says_why_in_one_line(tmp_path):
    path = sdk_game(tmp_path, parameters={"turns": 2})
    replay = tmp_path / "plain.json"
    bots = [digit_bot("--digit", "1"), digit_bot("--digit", "2")]
    assert run_cli("play", str(path), *bots, "--replay", str(replay)).returncode == 0
    done = run_cli("view", str(replay))
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert lines == ["botarena view: no CodinGame viewer: the game file names no jar or folder to "
                     "look in for view/: no viewer entries, and its command gives java no -cp; name "
                     "the jars or folders that hold view/ with viewer = [...] in the game file "
                     "(docs/codingame-referees.md); showing botarena's page"]
    assert (tmp_path / "plain.html").is_file()


def test_why_there_is_no_viewer_says_what_was_looked_in(tmp_path):
    """A Python referee names nowhere to look (the example's case, where a list of four missing
    files read as a broken build); folders without view/ and a partial viewer say so."""
    empty = tmp_path / "classes"
    empty.mkdir()
    partial = tmp_path / "partial" / "view"
    partial.mkdir(parents=True)
    (partial / "config.js").write_text("export const modules = []\n")
    for viewer, reason in (
            ("", "the game file names no jar or folder to look in for view/: no viewer entries, "
                 "and its command gives java no -cp; "),
            ('viewer = ["classes"]', "no view/ folder in any of the 1 jars and folders of its "
                                     "viewer entries and its command's -cp: "),
            ('viewer = ["classes", "partial"]',
             "no view/player.js (the SDK runner's player), view/player.html (the SDK runner's "
             "player page), view/core/Drawer.js (the SDK core's viewer) in its viewer entries and "
             "its command's -cp: ")):
        found = find_viewer(read_game_file(sdk_game(tmp_path, extra=viewer)))
        assert found == reason + ("name the jars or folders that hold view/ with viewer = [...] "
                                  "in the game file (docs/codingame-referees.md)")


def test_a_page_name_for_the_viewer_is_refused_and_games_says_what_was_found(played, tmp_path):
    replay, _ = played
    done = run_cli("view", str(replay), "-o", str(tmp_path / "page.html"))
    assert done.returncode == 2 and "is a folder; give a folder's name, or --generic" in done.stderr
    assert list(tmp_path.iterdir()) == []
    listed = run_cli("games", json.loads(replay.read_text())["game_file"])
    assert "CodinGame's viewer: 8 files from 2 jars and folders" in listed.stdout, listed.stdout


def test_generic_forces_botarenas_page(played, tmp_path):
    replay, _ = played
    done = run_cli("view", str(replay), "--generic", "-o", str(tmp_path / "page.html"))
    assert done.returncode == 0 and done.stderr == ""
    assert (tmp_path / "page.html").is_file()


def test_viewer_files_are_looked_for_in_order_first_wins(tmp_path):
    path = viewer_game_file(tmp_path)
    first = tmp_path / "override" / "view"
    first.mkdir(parents=True)
    (first / "config.js").write_text("export const modules = []\n")
    text = path.read_text().replace('viewer = ["', 'viewer = ["override", "')
    path.write_text(text)
    viewer = find_viewer(read_game_file(path))
    assert not isinstance(viewer, str)
    assert viewer.files["config.js"].read() == b"export const modules = []\n"
    assert viewer.files["core/Drawer.js"].root == str(tmp_path / "sdk-standin.jar")


def test_with_host_the_classpath_and_libraries_are_looked_in(tmp_path):
    jar = zip_folder(STAND_IN / "sdk", tmp_path / "sdk-standin.jar")
    game = tmp_path / "game"
    shutil.copytree(STAND_IN / "game", game)
    path = tmp_path / "hosted.toml"
    path.write_text('protocol = "codingame"\nplayers = 2\nhost = true\n'
                    f'classpath = ["game"]\nlibraries = ["{jar.name}"]\n')
    viewer = find_viewer(read_game_file(path))
    assert not isinstance(viewer, str), viewer
    assert viewer.roots == (str(game), str(jar))
    assert viewer.files["config.js"].root == str(game) and viewer.files["player.js"].root == str(jar)


def test_a_brutaltester_game_has_no_viewer(tmp_path):
    reason = find_viewer(read_game_file(brutal_game(tmp_path)))
    assert isinstance(reason, str) and "brutaltester" in reason


def test_the_class_path_of_a_java_command(tmp_path):
    (tmp_path / "lib").mkdir()
    for name in ("b.jar", "a.jar", "notes.txt"):
        (tmp_path / "lib" / name).write_text("")
    (tmp_path / "referee.args").write_text("# the class path\n-cp 'target/classes:sdk core.jar'\n")
    argv = ("java", "-Dx=1", "@referee.args", "--class-path=lib/*", "Main")
    assert command_class_path(argv, tmp_path) == [
        str(tmp_path / "target/classes"), str(tmp_path / "sdk core.jar"),
        str(tmp_path / "lib/a.jar"), str(tmp_path / "lib/b.jar")]
    assert command_class_path(("python3", "referee.py"), tmp_path) == []


def test_assets_are_listed_as_the_sdk_lists_them(tmp_path):
    assets = tmp_path / "assets"
    (assets / "fonts").mkdir(parents=True)
    (assets / "board.png").write_bytes(b"png")
    (assets / "units.png").write_bytes(b"png")
    (assets / "units.json").write_text(json.dumps({"frames": {}, "meta": {"image": "units.png"}}))
    (assets / "fonts" / "digits.fnt").write_text("<font/>")
    listing = assets_listing(tmp_path)
    # the sprite sheet's image is loaded by the sheet (from beside it), not as an image
    assert listing == {"images": {"board.png": "assets/board.png"}, "sprites": ["assets/units.json"],
                       "fonts": ["assets/fonts/digits.fnt"]}
    assert json.loads((assets / "units.json").read_text())["meta"]["image"] == "units.png"


def test_the_players_page_loses_what_is_online():
    page = ('<html><head><meta charset="utf-8"><link href="//fonts.googleapis.com/css?x" '
            'rel="stylesheet"><script src="https://cdn.example/x.js"></script>'
            '<link rel="stylesheet" href="local.css"><script>go()</script></head></html>')
    offline = offline_player_page(page)
    assert "googleapis" not in offline and "cdn.example" not in offline
    assert 'href="local.css"' in offline and "<script>go()</script>" in offline
    assert offline.index("Content-Security-Policy") < offline.index("<script>")


def test_a_referee_failure_is_the_logs_fail_cause(tmp_path):
    path = sdk_game(tmp_path, "--fail-at", "2", parameters={"turns": 4})
    replay, log = tmp_path / "failed.json", tmp_path / "failed-log.json"
    bots = [digit_bot("--digit", "1"), digit_bot("--digit", "2")]
    done = run_cli("play", str(path), *bots, "--replay", str(replay), "--sdk-log", str(log))
    assert done.returncode == 1 and "referee error" in done.stderr, done.stderr
    sdk = json.loads(log.read_text())
    assert "told to fail at turn 2" in sdk["failCause"] and sdk["failCause"].endswith("\n")
    assert sdk["views"][-1] is None and None not in sdk["views"][:-1]
    assert len(sdk["errors"]["referee"]) == len(sdk["views"])
