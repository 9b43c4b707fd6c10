"""``botarena starter GAME LANGUAGE``: every (game, language) pair reads the whole protocol with
the game's field names, plays a full game against ``random`` (alone in a one-player game)
without a fault, exits cleanly when its input ends, and bundles into one file that is itself.

The first tier plays every Python starter and one compiled starter per language, and checks
every pair's text and bundle; the second tier plays every pair."""
from __future__ import annotations

import ast
import json
import re
import subprocess
from pathlib import Path

import pytest

from referee.games import game_names, load_game
from tests.conftest import ROOT, run_cli
from tests.tools.native_bots import needs
from tools.arena.botspec import resolve_bot
from tools.bundle.builder import build_bundle, resolve_entry
from tools.bundle.native import build_native_bundle
from tools.starters import LANGUAGES, starter_text

CALM = ("--first-turn-ms", "20000", "--turn-ms", "10000")    # a JVM starting on a busy machine
COMPILER = {"c": "C", "cpp": "C++", "java": "Java", "rust": "Rust"}
FIRST_TIER = {("tictactoe", "c"), ("xmas_rush", "cpp"), ("othello", "java"),
              ("calculation", "rust"), *((game, "python") for game in game_names())}

# the protocol's fields, as each game's page names them (docs/games/GAME.md)
FIELDS = {
    "tictactoe": ("opponentRow", "opponentCol", "validActionCount", "row", "col"),
    "number_maze": ("height", "width", "turns", "turnsLeft", "score", "row", "col", "grid"),
    "number_maze_duel": ("height", "width", "turns", "turnsLeft", "myScore", "myRow", "myCol",
                         "opponentScore", "opponentRow", "opponentCol", "grid"),
    "othello": ("id", "boardSize", "board", "actionCount", "actions"),
    "calculation": ("foundationCount", "wastePileCount", "card", "unseen", "size", "top"),
    "xmas_rush": ("turnType", "tiles", "numPlayerCards", "playerX", "playerY", "playerTile",
                  "numItems", "itemName", "itemX", "itemY", "itemPlayerId", "numQuests",
                  "questItemName", "questPlayerId"),
}
SNAKE_CASE = ("python", "rust")
ALIASES = {("python", "id"): "my_id"}      # Python's built-in id() is not shadowed


def _pairs(*, first_tier_only: bool = False) -> list:
    params = []
    for game in game_names():
        for language in LANGUAGES:
            if first_tier_only and (game, language) not in FIRST_TIER:
                continue
            marks = [needs(COMPILER[language])] if language in COMPILER else []
            if not first_tier_only and (game, language) in FIRST_TIER:
                continue            # played in the first tier already
            if not first_tier_only:
                marks.append(pytest.mark.full)
            params.append(pytest.param(game, language, id=f"{game}-{language}", marks=marks))
    return params


def _every_pair() -> list:
    return [pytest.param(game, language, id=f"{game}-{language}")
            for game in game_names() for language in LANGUAGES]


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda match: "_" + match.group(1).lower(), name)


def write_starter(game: str, language: str, folder: Path) -> Path:
    """The starter written by the command line, under the name it suggests."""
    path = folder / LANGUAGES[language].file_name(game)
    done = run_cli("starter", game, language, "-o", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{path}: {game} starter in {LANGUAGES[language].label}; "
                                  f"play it: botarena play {game} {path}")
    return path


@pytest.mark.parametrize(("game", "language"), _every_pair())
def test_every_starter_names_the_protocols_fields_and_points_to_its_page(game, language):
    text = starter_text(game, language)
    page = f"docs/games/{game}.md"
    assert f"Protocol: {page}" in text and (ROOT / page).is_file()
    for field in FIELDS[game]:
        name = ALIASES.get((language, field),
                           _snake(field) if language in SNAKE_CASE else field)
        assert re.search(rf"\b{name}s?\b", text), f"{game}.{language} does not read {field}"
    assert "botarena play " + game in text


@pytest.mark.parametrize(("game", "language"), _every_pair())
def test_every_starters_bundle_is_itself_in_one_file(game, language, tmp_path):
    """A starter is one file: its bundle holds its text and nothing else of the project."""
    path = tmp_path / LANGUAGES[language].file_name(game)
    path.write_text(starter_text(game, language))
    if language == "python":
        bundle = build_bundle(resolve_entry(str(path)))
        assert [module.name for module in bundle.modules] == ["__main__"]
        modules = _bundled_modules(bundle.text)
        assert list(modules) == ["__main__"] and modules["__main__"][2] == path.read_text()
        return
    bundle = build_native_bundle(path, include_dirs=(), limit=100_000, command="")
    assert bundle.files == 1
    kept = [line for line in bundle.text.splitlines()
            if line.strip() and not re.match(r"// (---- .* ----|.*bundled by botarena)", line)]
    assert sorted(kept) == sorted(line for line in path.read_text().splitlines() if line.strip())


def _bundled_modules(text: str) -> dict:
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "_MODULES":
            return ast.literal_eval(node.value)
    raise AssertionError("no _MODULES in the bundle")


def _play_and_end_input(game: str, language: str, tmp_path: Path) -> None:
    """A full game against random without a fault; then the starter alone, fed its first two
    turns' input and the end of input, answers as it did in the game and exits with status 0."""
    bot = write_starter(game, language, tmp_path / f"{game}-{language}")
    seats = load_game(game).seats[0]
    replay = tmp_path / "game.json"
    done = run_cli("play", game, str(bot), *["random"] * (seats - 1), "--seed", "5", *CALM,
                   "--replay", str(replay), "--json", timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [player["fault"] for player in result["players"]] == [None] * seats, result
    assert result["turns"] > 1
    asked = [seat for turn in json.loads(replay.read_text())["turns"] for seat in turn["seats"]
             if seat["seat"] == 0][:2]
    lines = [line for seat in asked for line in seat["input"]]
    argv = resolve_bot(game, str(bot)).argv
    fed = subprocess.run(argv, input="\n".join(lines) + "\n", capture_output=True, text=True,
                         timeout=120)
    assert fed.returncode == 0, fed.stderr
    assert fed.stdout.splitlines() == [seat["output"] for seat in asked]


@pytest.mark.parametrize(("game", "language"), _pairs(first_tier_only=True))
def test_a_starter_plays_a_full_game_and_exits_at_the_end_of_input(game, language, tmp_path,
                                                                  session_cache):
    _play_and_end_input(game, language, tmp_path)


@pytest.mark.parametrize(("game", "language"), _pairs())
def test_every_other_starter_plays_a_full_game_and_exits_at_the_end_of_input(
        game, language, tmp_path, session_cache):
    _play_and_end_input(game, language, tmp_path)


def test_the_starter_goes_to_stdout_without_o_and_is_never_written_over(tmp_path):
    done = run_cli("starter", "tictactoe", "C++")
    assert done.returncode == 0 and done.stdout == starter_text("tictactoe", "cpp")
    target = tmp_path / "main.cpp"
    target.write_text("// my bot\n")
    again = run_cli("starter", "tictactoe", "cpp", "-o", str(target))
    assert again.returncode == 2 and target.read_text() == "// my bot\n"
    assert again.stderr.count("\n") == 1 and "already exists" in again.stderr


@pytest.mark.parametrize(("args", "message"), [
    (("tictactoe", "go"), "no starter in 'go': the languages are python, c, cpp, java, rust"),
    (("chess", "python"), "no starter for 'chess': starters exist for the built-in games"),
    (("tictactoe", "java", "-o", "{folder}/Bot.java"), "javac wants in a file named Player.java"),
    (("tictactoe", "rust", "-o", "{folder}/bot.py"), "a Rust file is named *.rs"),
])
def test_bad_starter_requests_are_one_line_and_exit_2(args, message, tmp_path):
    done = run_cli("starter", *(word.format(folder=tmp_path) for word in args))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert message in done.stderr and not list(tmp_path.iterdir())
