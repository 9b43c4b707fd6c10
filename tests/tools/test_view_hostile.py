"""The viewer page against a hostile replay (issue 23, defects 8 and 9): its Content Security
Policy runs only the page's own scripts (no inline event handler, no stray script element), and
a replay's stderr is capped per turn as the harness caps it."""
from __future__ import annotations

import base64
import hashlib
import html.parser
import json
import re

import pytest

from referee.match import REPLAY_STDERR_CHARS
from tests.conftest import run_cli
from tools.view.browser import missing
from tools.view.frames import page_data
from tools.view.page import render_page

INJECTED = ('<img id="injected" src="data:," onerror="document.title = \'handler ran\'">'
            '<script>document.title = "stray script ran"</script>')


@pytest.fixture(scope="module")
def replay_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("view") / "game.json"
    done = run_cli("play", "tictactoe", "random --seed 1", "random --seed 2", "--seed", "4",
                   "--replay", str(path))
    assert done.returncode == 0, done.stderr
    return path


class _Scripts(html.parser.HTMLParser):
    """The policy's meta tag and every script element that runs (not the JSON data block)."""

    def __init__(self):
        super().__init__()
        self.policy, self.scripts, self._inside = None, [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "meta" and attrs.get("http-equiv") == "Content-Security-Policy":
            self.policy = attrs["content"]
        if tag == "script" and "type" not in attrs:
            self._inside = ""

    def handle_data(self, data):
        if self._inside is not None:
            self._inside += data

    def handle_endtag(self, tag):
        if tag == "script" and self._inside is not None:
            self.scripts.append(self._inside)
            self._inside = None


def _page(replay_path) -> str:
    return render_page([page_data(json.loads(replay_path.read_text()), replay_path.name)])


def test_the_policy_allows_the_pages_own_scripts_by_hash_and_nothing_inline(replay_path):
    parsed = _Scripts()
    parsed.feed(_page(replay_path))
    directives = dict(part.strip().split(" ", 1) for part in parsed.policy.split(";"))
    assert directives["default-src"] == "'none'"
    assert "unsafe" not in directives["script-src"], directives["script-src"]
    hashes = set(re.findall(r"'sha256-([^']+)'", directives["script-src"]))
    assert hashes == {base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
                      for script in parsed.scripts}
    assert len(parsed.scripts) >= 3            # the viewer, the game's drawing, the start call


@pytest.mark.skipif(bool(missing()), reason=f"optional: viewer policy in a browser: {missing()}")
def test_an_event_handler_or_script_slipped_into_the_page_does_not_run(replay_path, tmp_path):
    """The same page with markup injected after <body>: under 'unsafe-inline' its onerror ran."""
    from tools.view.browser import Browser
    page_file = tmp_path / "injected.html"
    page_file.write_text(_page(replay_path).replace("<body>", "<body>" + INJECTED, 1))
    browser = Browser()
    try:
        page = browser.new_page()
        page.goto(page_file.as_uri())
        page.wait_for_selector("body[data-step]")          # the viewer's own scripts ran
        page.wait_for_function("document.getElementById('injected').complete")
        assert page.title().startswith("botarena: "), page.title()
        assert page.evaluate("document.querySelectorAll('#app .board').length") > 0
        refused = [error for error in page.errors if "Content Security Policy" in error]
        assert len(refused) == 2 and refused == page.errors, page.errors
    finally:
        browser.close()


def test_a_replays_stderr_is_capped_per_turn_with_what_was_cut(replay_path, tmp_path):
    replay = json.loads(replay_path.read_text())
    flood = "[PDATA] depth = 1\n" + "x" * (5 << 20) + "\nlast line\n"
    replay["turns"][0]["seats"][0]["stderr"] = flood
    ours = "[... 9000 bytes cut]\n" + "y" * REPLAY_STDERR_CHARS        # as the harness writes it
    replay["turns"][1]["seats"][0]["stderr"] = ours
    hostile = tmp_path / "flood.json"
    hostile.write_text(json.dumps(replay))
    out = tmp_path / "flood.html"
    done = run_cli("view", str(hostile), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size < 1 << 20, "the 5 MB of stderr reached the page"
    steps = page_data(replay, hostile.name)["steps"]
    shown = steps[1]["seats"][0]["stderr"]
    cut = len(flood) - REPLAY_STDERR_CHARS
    assert shown == f"[... {cut} characters cut by botarena view]\n{flood[cut:]}"
    assert shown.endswith("last line\n")
    assert steps[2]["seats"][0]["stderr"] == ours, "a replay's own capped stderr is kept whole"
