"""The multi-file C, C++, Java and Rust bots of tests/fixtures/bots/, and what their tests share:
a compile cache for the session, and a skip (one line) where a compiler is missing."""
from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tools.languages.compilers import COMPILERS

FIXTURES = ROOT / "tests" / "fixtures" / "bots"


@dataclass(frozen=True)
class NativeBot:
    language: str
    game: str
    path: Path                  # the file with main (Java: Player.java)

    @property
    def relative(self) -> str:
        return str(self.path.relative_to(ROOT))


BOTS = {
    "cpp": NativeBot("C++", "xmas_rush", FIXTURES / "cpp" / "xmas_rush" / "main.cpp"),
    "c": NativeBot("C", "tictactoe", FIXTURES / "c" / "tictactoe" / "main.c"),
    "java": NativeBot("Java", "tictactoe", FIXTURES / "java" / "tictactoe" / "bot" / "Player.java"),
    "rust": NativeBot("Rust", "tictactoe", FIXTURES / "rust" / "tictactoe" / "main.rs"),
}


def missing_compiler(language: str) -> str | None:
    """Why bots of ``language`` cannot be built here, or None."""
    compiler = next(compiler for compiler in COMPILERS if compiler.language == language)
    for program in (compiler.program, *compiler.also_needs):
        if shutil.which(program) is None:
            return f"{program} is not installed ({compiler.install})"
    return None


def needs(language: str) -> pytest.MarkDecorator:
    problem = missing_compiler(language)
    return pytest.mark.skipif(problem is not None,
                              reason=f"optional: {language} bot tests skipped: {problem}")


def bot_params(*keys: str) -> list:
    """pytest params of the fixture bots, each skipped where its compiler is missing."""
    return [pytest.param(BOTS[key], id=key, marks=needs(BOTS[key].language))
            for key in keys or BOTS]
