"""The game file: every field checked with one line naming the file and the field."""
from __future__ import annotations

import sys

import pytest

from referee.api import UsageError
from referee.external.gamefile import read_game_file
from referee.games import load_game
from tests.referee.external.gamefiles import SDK_REFEREE, sdk_game, write_game_file


def test_a_whole_file_is_read(tmp_path):
    path = sdk_game(tmp_path, "--monitoring", players="[2, 4]", extra="referee_timeout_ms = 5000",
                    parameters={"turns": 3, "fast": True, "label": "x"})
    game = read_game_file(str(path))
    assert game.name == "digits" and game.protocol == "codingame"
    assert game.players == (2, 4) and game.referee_timeout_ms == 5000
    assert game.command[1:] == (str(SDK_REFEREE), "--monitoring")
    assert game.parameters == {"first_ms": "3000", "turn_ms": "400", "turns": "3", "fast": "true",
                               "label": "x"}


def test_relative_paths_start_from_the_files_folder(tmp_path):
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "run.sh").write_text("#!/bin/sh\n")
    path = write_game_file(folder, "g", 'protocol = "brutaltester"\ncommand = "./run.sh --x"\n'
                           "players = 2\nturn_ms = 80\n")
    game = read_game_file(str(path))
    assert game.command == (str(folder / "run.sh"), "--x")
    assert game.folder == folder and game.turn_ms == 80 and game.first_turn_ms == 1000


@pytest.mark.parametrize("body, field", [
    ('command = "x"\nplayers = 2\n', "protocol is missing"),
    ('protocol = "sdk"\ncommand = "python3"\nplayers = 2\n', "protocol 'sdk' is not one of"),
    ('protocol = "codingame"\nplayers = 2\n', "command is missing"),
    ('protocol = "codingame"\ncommand = 3\nplayers = 2\n', "command 3 must be a string"),
    ('protocol = "codingame"\ncommand = "./nowhere"\nplayers = 2\n', "command names './nowhere'"),
    ('protocol = "codingame"\ncommand = "no-such-program-x"\nplayers = 2\n', "not a program on the PATH"),
    ('protocol = "codingame"\ncommand = "python3 \'unclosed"\nplayers = 2\n', "cannot be split"),
    ('protocol = "codingame"\ncommand = "python3"\n', "players is missing"),
    ('protocol = "codingame"\ncommand = "python3"\nplayers = 1\n',
     "players 1: a game file's game has 2 to 8 players (one-player games, CodinGame's solo puzzles"),
    ('protocol = "codingame"\ncommand = "python3"\nplayers = [1, 2]\n', "2 to 8 players"),
    ('protocol = "codingame"\ncommand = "python3"\nplayers = 9\n', "players 9: at most 8 players"),
    ('protocol = "codingame"\ncommand = "python3"\nplayers = [4, 2]\n',
     "players [4, 2]: the least first ([2, 4])"),
    ('protocol = "codingame"\ncommand = "python3"\nplayers = "2"\n', "players '2' must be a number"),
    ('protocol = "codingame"\ncommand = "python3"\nplayers = 2\nturn_ms = 50\n',
     "turn_ms is for protocol brutaltester only"),
    ('protocol = "brutaltester"\ncommand = "python3"\nplayers = 2\n[parameters]\na = 1\n',
     "parameters is for protocol codingame only"),
    ('protocol = "brutaltester"\ncommand = "python3"\nplayers = 2\nturn_ms = 0\n',
     "turn_ms 0 must be a whole number of milliseconds"),
    ('protocol = "brutaltester"\ncommand = "python3"\nplayers = 2\nseed_line = "yes"\n',
     "seed_line 'yes' must be true or false"),
    ('protocol = "codingame"\ncommand = "python3"\nplayers = 2\nreferee_timeout_ms = -5\n',
     "referee_timeout_ms -5"),
    ('protocol = "codingame"\ncommand = "python3"\nplayers = 2\n[parameters]\nseed = 3\n',
     "parameters.seed is set by botarena"),
    ('protocol = "codingame"\ncommand = "python3"\nplayers = 2\n[parameters]\n"a b" = 3\n',
     "parameters.a b is not a usable key"),
    ('protocol = "codingame"\ncommand = "python3"\nplayers = 2\n[parameters]\na = [1]\n',
     "parameters.a [1] must be a number"),
    ('protocol = "codingame"\ncommand = "python3"\nplayers = 2\nname = "a b"\n', "name 'a b' must be"),
    ('protocol = "codingame"\ncommand = "python3"\nplayers = 2\nturns = 3\n',
     "turns is not a field of a game file"),
    ('protocol = "codingame"\ncommand = "python3"\nplayers = 2\nclasspath = ["x"]\n',
     "classpath is used only with host = true"),
    ('protocol = "codingame"\nplayers = 2\nhost = true\n', "classpath is missing"),
    ('protocol = "codingame"\nplayers = 2\nhost = true\nclasspath = ["nothing"]\n',
     "'nothing': no such file or folder"),
    ("protocol = \n", "is not valid TOML"),
])
def test_a_bad_field_is_one_line_naming_the_file_and_the_field(tmp_path, body, field):
    path = write_game_file(tmp_path, "bad", body)
    with pytest.raises(UsageError) as caught:
        read_game_file(str(path))
    message = str(caught.value)
    assert message.startswith(f"game file {str(path)!r}") and field in message, message
    assert "\n" not in message


def test_a_missing_file_or_folder_is_one_line(tmp_path):
    with pytest.raises(UsageError, match="no game file"):
        read_game_file(str(tmp_path / "nothing.toml"))
    with pytest.raises(UsageError, match="is a directory"):
        read_game_file(str(tmp_path))


def test_load_game_takes_a_built_in_name_or_a_path(tmp_path):
    path = sdk_game(tmp_path, name="my-game")
    game = load_game(str(path))
    assert game.name == "my-game" and game.seats == (2, 4) and game.source == str(path)
    assert load_game("tictactoe").name == "tictactoe"
    with pytest.raises(UsageError, match="or a path to a game file"):
        load_game("no_such_game")


def test_options_override_the_parameters_and_are_checked(tmp_path):
    game = load_game(str(sdk_game(tmp_path, parameters={"turns": 3})))
    roomy = {"first_ms": "3000", "turn_ms": "400"}
    assert game.parse_options({}) == {**roomy, "turns": "3"}
    assert game.parse_options({"turns": "7", "x.y": "z"}) == {**roomy, "turns": "7", "x.y": "z"}
    with pytest.raises(UsageError, match="the seed is --seed"):
        game.parse_options({"seed": "3"})
    brutal = write_game_file(tmp_path, "b", f'protocol = "brutaltester"\ncommand = "{sys.executable}"\n'
                             "players = 2\n")
    with pytest.raises(UsageError, match="takes no options"):
        load_game(str(brutal)).parse_options({"a": "1"})
