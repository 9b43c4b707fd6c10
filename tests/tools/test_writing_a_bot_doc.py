"""docs/writing-a-bot.md's "Test your bot" example runs as written: its pytest functions pass
with the C starter as ``my_bot/main.c``, and a MatchResult prints as the few lines it shows."""
from __future__ import annotations

import re

from referee.games import load_game
from referee.match import play_match
from referee.testing import ScriptedPlayer
from tests.conftest import ROOT
from tests.tools.native_bots import needs
from tools.starters import starter_text


def _section() -> str:
    page = (ROOT / "docs" / "writing-a-bot.md").read_text()
    return page.split("\n## Test your bot\n", 1)[1].split("\n## ", 1)[0]


def _example() -> str:
    block = re.search(r"```python\n(.*?)```", _section(), re.S)
    assert block, "no python block under '## Test your bot'"
    return block.group(1)


@needs("C")
def test_the_documented_bot_test_passes_on_the_c_starter(tmp_path, monkeypatch, session_cache):
    (tmp_path / "my_bot").mkdir()
    (tmp_path / "my_bot" / "main.c").write_text(starter_text("tictactoe", "c"))
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "test_my_bot"}
    exec(compile(_example(), "test_my_bot.py", "exec"), namespace)
    tests = [function for name, function in namespace.items() if name.startswith("test_")]
    assert len(tests) == 2
    for test in tests:
        test()


def test_a_result_prints_as_the_summary_the_page_shows():
    """The page's summary block is what print(result) gives (a scripted bot in the C
    starter's place: the same answers), and a few hundred characters, not a replay's worth."""
    summary = re.search(r"```\n(MatchResult.*?)```", _section(), re.S)
    assert summary, "no MatchResult block under '## Test your bot'"

    def first_valid_action(lines: list[str]) -> str:
        return lines[2]

    result = play_match(load_game("tictactoe"), [ScriptedPlayer(first_valid_action, "my_bot/main.c"),
                                                 ScriptedPlayer(lambda lines: lines[-1])], seed=1)
    assert repr(result) + "\n" == summary.group(1)
    assert len(repr(result)) < 400 and result.records
