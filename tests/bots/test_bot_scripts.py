"""Every built-in bot runs as a plain script, ``python path/to/bots/GAME/BOT.py``, from any folder,
and plays exactly as the bot started by ``botarena`` (``python -P -m bots.GAME.BOT``).

A script's folder comes first on ``sys.path``: a file there named after a standard-library module
(``random.py``) would replace that module for the bot and everything it imports.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.api import TimeControl
from referee.games import game_names, load_game
from referee.match import MatchResult, PlayerSpec, play_match
from tests.conftest import ROOT
from tools.arena.botspec import bot_parser, bot_path, builtin_bots, resolve_bot

SEED = 1
ITERATIONS = 8                      # small: the bots' own clocks never cut a search short
SHORT_GAME_TURNS = 12
NEVER_EARLY_MS = -10**9
GENEROUS = TimeControl(first_turn_ms=20_000, turn_ms=10_000, grace_ms=1_000)
ALL_BOTS = [(game, bot) for game in game_names() for bot in builtin_bots(game)]


def _script(path: Path, run_dir: Path, *args: str) -> PlayerSpec:
    """``python PATH ARGS`` started in ``run_dir``, without -m, -P or PYTHONPATH: only the
    installed botarena makes ``bots`` and ``referee`` importable."""
    argv = ("/bin/sh", "-c", 'cd "$0" && exec "$@"', str(run_dir), sys.executable, str(path), *args)
    return PlayerSpec(name=f"script {path.name}", argv=argv, env=_without_pythonpath())


def _without_pythonpath() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}


def _deterministic_args(game_name: str, bot: str) -> str:
    """A fixed seed and iteration budget; a bot without one gets a margin so far below zero that
    its clock never cuts its evaluation short (greedy on a loaded machine would answer otherwise)."""
    dests = {action.dest for action in bot_parser(game_name, bot)._actions}
    settings = [(key, value) for key, value in (("seed", SEED), ("iterations", ITERATIONS)) if key in dests]
    if "iterations" not in dests and "margin_ms" in dests:
        settings.append(("margin-ms", NEVER_EARLY_MS))
    return " ".join(f"--{key} {value}" for key, value in settings)


def _play(game, first: PlayerSpec, other: PlayerSpec) -> MatchResult:
    options = game.parse_options({})
    if options.get("turns", 0) > SHORT_GAME_TURNS:
        options["turns"] = SHORT_GAME_TURNS
    players = [first] + [other] * (game.seats[0] - 1)
    result = play_match(game, players, seed=SEED, options=options, time_control=GENEROUS, memory_mb=None)
    faults = [player.fault for player in result.players if player.fault]
    assert not faults, f"{result.reason}: {faults}"
    return result


def _answers(result: MatchResult, seat: int = 0) -> list[tuple[int, str | None]]:
    return [(record.turn, entry.output) for record in result.records for entry in record.seats
            if entry.seat == seat]


def test_no_file_under_bots_shadows_a_standard_library_module():
    shadowing = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "bots").rglob("*")
                       if (path.suffix == ".py" or path.is_dir()) and path.stem in sys.stdlib_module_names)
    assert shadowing == []


def test_bots_keep_their_names_on_the_command_line():
    for game in game_names():
        assert "random" in builtin_bots(game)
        assert bot_path(game, "random").name == "random_bot.py"


@pytest.mark.parametrize("game_name, bot", ALL_BOTS, ids=[f"{g}/{b}" for g, b in ALL_BOTS])
def test_plain_script_plays_like_the_module(game_name, bot, tmp_path):
    """A whole game, the bot in seat 0 as a script from an empty folder, against the same bot
    started by botarena with another seed: its answers are those of the ``-m`` run."""
    game = load_game(game_name)
    args = _deterministic_args(game_name, bot)
    module = resolve_bot(game_name, f"{bot} {args}")
    opponent = resolve_bot(game_name, f"{bot} {args.replace(f'--seed {SEED}', '--seed 2')}")
    expected = _play(game, module, opponent)
    if "--iterations" not in args and _answers(_play(game, module, opponent)) != _answers(expected):
        pytest.skip(f"{game_name}/{bot} has no deterministic mode (no --iterations, and two runs "
                    "with the same seed differ): nothing to compare the script with")
    actual = _play(game, _script(bot_path(game_name, bot), tmp_path, *args.split()), opponent)
    assert _answers(actual) == _answers(expected)
    assert [player.score for player in actual.players] == [player.score for player in expected.players]


def test_a_bot_file_given_to_play_from_another_folder_plays_like_the_builtin(tmp_path):
    """Through the CLI: ``botarena play GAME /path/to/bots/GAME/random_bot.py`` run from another
    folder gives the game that ``botarena play GAME random`` gives."""
    games = []
    for index, (first, cwd) in enumerate(((f"{bot_path('tictactoe', 'random')} --seed 3", tmp_path),
                                          ("random --seed 3", ROOT))):
        replay = tmp_path / f"replay{index}.json"
        done = subprocess.run([sys.executable, "-m", "tools.cli", "play", "tictactoe", first,
                               "random --seed 4", "--seed", "5", "--replay", str(replay),
                               "--first-turn-ms", "20000", "--turn-ms", "10000"],     # load-proof
                              cwd=cwd, env=_without_pythonpath(), capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        turns = json.loads(replay.read_text())["turns"]
        games.append([[seat["output"] for seat in turn["seats"]] for turn in turns])
    assert games[0] == games[1] and len(games[0]) >= 5
