"""docs/tools.md walks a new user through psyleague (issue 23): the steps that stopped one are
written down before the config block they concern."""
from __future__ import annotations

from tests.conftest import ROOT


def _section() -> str:
    text = (ROOT / "docs" / "tools.md").read_text()
    start = text.index("## Driving botarena from psyleague")
    return text[start:text.index("\n## ", start + 1)]


def test_psyleague_config_comes_first_then_the_lines_to_edit():
    section = _section()
    assert "Run `psyleague\nconfig` first" in section or "Run `psyleague config` first" in section
    assert section.index("config` first") < section.index("```toml")
    assert "KeyError: 'version'" in section


def test_botarena_must_be_on_the_path_of_psyleague():
    section = _section()
    assert "`PATH`" in section and "activate" in section and "127" in section
    assert section.index("`PATH`") < section.index("```toml")


def test_a_bot_is_not_named_like_a_standard_module():
    section = _section()
    assert "psyleague bot add random_bot" in section and "would shadow" in section
