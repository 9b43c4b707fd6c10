"""README.md and docs/: every relative link names a file that exists, every #anchor a heading.

No network: links with a scheme (https:, mailto:) are not followed. Anchors are GitHub's: the
heading's text, lower case, punctuation dropped, each space a hyphen, a repeated heading -1, -2...
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

_FENCE = re.compile(r"^\s*(```|~~~)")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def documentation_files(root: Path = ROOT) -> list[Path]:
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def _prose_lines(text: str):
    """(line number, line) outside fenced code blocks."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def github_anchor(heading: str) -> str:
    """The id GitHub gives a heading: its rendered text, slugged."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)      # a link renders as its text
    text = _CODE_SPAN.sub(lambda match: match.group(2), text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)                            # \w keeps letters, digits, _
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for _, line in _prose_lines(path.read_text(encoding="utf-8")):
        match = _HEADING.match(line)
        if not match:
            continue
        slug = github_anchor(match.group(2))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def broken_links(path: Path) -> list[str]:
    """One message per relative link or anchor in ``path`` that leads nowhere."""
    problems = []
    for number, line in _prose_lines(path.read_text(encoding="utf-8")):
        for match in _LINK.finditer(_CODE_SPAN.sub("", line)):
            target = match.group(1)
            if not target or _SCHEME.match(target):
                continue
            file_part, _, anchor = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path
            where = f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:{number}"
            if not linked.exists():
                problems.append(f"{where}: {target!r}: no such file")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                problems.append(f"{where}: {target!r}: no heading with anchor #{anchor}")
    return problems


@pytest.mark.parametrize("path", documentation_files(), ids=lambda path: str(path.relative_to(ROOT)))
def test_relative_links_and_anchors_resolve(path):
    assert broken_links(path) == []


def test_docs_folder_exists_with_an_index():
    assert (ROOT / "docs" / "README.md").is_file()


def test_checker_finds_a_broken_file_link_and_a_broken_anchor(tmp_path):
    (tmp_path / "other.md").write_text("# Other page\n\n## The `match` command\n")
    page = tmp_path / "page.md"
    page.write_text("# Page\n\n[fine](other.md#the-match-command) [self](#page)\n"
                    "[gone](missing.md) [bad anchor](other.md#nope) [web](https://example.com)\n"
                    "```\n[in code](nowhere.md)\n```\n`[in a span](nowhere.md)`\n")
    problems = broken_links(page)
    assert len(problems) == 2, problems
    assert "'missing.md': no such file" in problems[0]
    assert "#nope" in problems[1]


@pytest.mark.parametrize("heading, anchor", [
    ("Built-in search bots", "built-in-search-bots"),
    ("The `match` command", "the-match-command"),
    ("Seed 004: simple-tree Monte Carlo, success rate", "seed-004-simple-tree-monte-carlo-success-rate"),
    ("xmas_rush rules", "xmas_rush-rules"),
    ("The hybrid's playout depth against duct", "the-hybrids-playout-depth-against-duct"),
])
def test_anchors_follow_github(heading, anchor):
    assert github_anchor(heading) == anchor
