"""Starter bots, CodinGame's way: for every built-in game and each of five languages, a file that
reads the game's whole protocol (the initialization block, every turn's block) into variables
named after its fields and prints a legal action. They are kept here as package data, one file
per pair, named ``GAME.LANGUAGE`` (``tictactoe.cpp``, ``xmas_rush.rust``), and written out by
``botarena starter GAME LANGUAGE``."""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from referee.api import UsageError
from referee.games import game_names


@dataclass(frozen=True, slots=True)
class StarterLanguage:
    name: str                   # as the command line takes it: "cpp"
    label: str                  # as CodinGame names it: "C++"
    suffixes: tuple[str, ...]   # what a file of it is named (the first: the suggested one)

    def file_name(self, game: str) -> str:
        """The name to write a starter to: botarena and CodinGame compile it by that name."""
        return "Player.java" if self.name == "java" else f"{game}_bot{self.suffixes[0]}"


LANGUAGES = {language.name: language for language in (
    StarterLanguage("python", "Python 3", (".py",)),
    StarterLanguage("c", "C", (".c",)),
    StarterLanguage("cpp", "C++", (".cpp", ".cc", ".cxx")),
    StarterLanguage("java", "Java", (".java",)),
    StarterLanguage("rust", "Rust", (".rs",)),
)}


def language_of(name: str) -> StarterLanguage:
    """The language called ``name`` (case-insensitive; ``c++`` is ``cpp``); UsageError otherwise."""
    key = name.lower().replace("c++", "cpp")
    if key not in LANGUAGES:
        raise UsageError(f"no starter in {name!r}: the languages are {', '.join(LANGUAGES)}")
    return LANGUAGES[key]


def starter_text(game: str, language: str) -> str:
    """The starter bot of ``game`` in ``language``; UsageError (one line) for a game without one
    (a game file: its protocol is the referee's) or an unknown language."""
    chosen = language_of(language)
    if game not in game_names():
        raise UsageError(f"no starter for {game!r}: starters exist for the built-in games "
                         f"({', '.join(game_names())}); a game file's protocol is its referee's")
    source = resources.files(__name__).joinpath(f"{game}.{chosen.name}")
    if not source.is_file():
        raise UsageError(f"{game} has no {chosen.label} starter yet (tools/starters/{game}."
                         f"{chosen.name}; see docs/adding-a-game.md)")
    return source.read_text(encoding="utf-8")
