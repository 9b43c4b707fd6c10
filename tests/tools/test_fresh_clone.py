"""What a new user met trying botarena from a fresh clone with README.md and docs/ in hand
(issue 33's last check): each is a test of what they now see."""
from __future__ import annotations

import json
import shlex

from referee.games import game_names, load_game
from referee.match import play_match
from referee.testing import ScriptedPlayer
from tests.conftest import run_cli
from tools.arena.botspec import bot_description, builtin_bots
from tools.cli.games import players_text
from tools.cli.play import summary_text
from tools.starters import starter_text
from tools.view.source import _play_again


def test_every_built_in_bot_is_described_by_whole_sentences():
    """`botarena bots GAME` showed 'hybrid: ... keeps both players' --keep best pushes, then':
    the first line of a docstring whose summary wraps, cut mid-sentence."""
    cut = {f"{game}/{name}": bot_description(game, name)
           for game in game_names() for name in builtin_bots(game)
           if not bot_description(game, name).endswith((".", ")"))}
    assert cut == {}
    assert bot_description("xmas_rush", "hybrid").endswith("then DUCT over that matrix.")


def test_a_bundles_header_describes_the_bot_in_whole_sentences(tmp_path):
    out = tmp_path / "pmc.py"
    done = run_cli("bundle", "xmas_rush/pmc", "-o", str(out))
    assert done.returncode == 0, done.stderr
    header = out.read_text().splitlines()[1]
    assert header == ("# bots/xmas_rush/pmc.py, bundled by botarena: Primitive Monte Carlo: each own "
                      "action in turn against a random reply, a short playout, the evaluation; "
                      "best mean wins.")


def test_plays_seat_lines_line_up_with_a_long_bot_path():
    """README's twenty_one example: 'docs/examples/twenty_one/bots/perfect.py score 1' ran the
    path into the score, and a longer path beside it put each seat's figures elsewhere."""
    names = ["docs/examples/twenty_one/bots/perfect.py", "python3 some/other/folder/a_longer_name.py"]
    result = play_match(load_game("tictactoe"), [ScriptedPlayer(lambda lines: lines[-1], name)
                                                 for name in names], seed=1)
    seats = summary_text(result).splitlines()[1:3]
    assert len({line.index(" score ") for line in seats}) == 1
    assert seats[1].startswith(f"  seat 1  {names[1]}  score ")


def test_a_one_turn_game_is_one_turn():
    """The example's bot that answers 4 is out at once: play said '1 turns (1 frames)'."""
    result = play_match(load_game("tictactoe"), [ScriptedPlayer(lambda lines: lines[-1]),
                                                 ScriptedPlayer(lambda lines: "9 9")], seed=1)
    assert summary_text(result).splitlines()[0] == "tictactoe  seed 1  1 turn  (fault: seat 1 bad_output)"


def test_viewing_a_results_file_says_to_name_a_line_and_a_line_how_to_get_its_replay(tmp_path):
    """docs/viewer.md's 'view run.jsonl:7' without its ':7' said 'replay ... is not JSON: Extra
    data: line 2 column 1'; a line of a run without replays (a ladder's, always) said only 'play
    the run with --replays DIR': it now gives the command that plays that game again."""
    results = tmp_path / "run.jsonl"
    played = run_cli("match", "tictactoe", "random --seed 1", "random --seed 2", "-n", "2",
                     "--out", str(results), "--first-turn-ms", "30000", "--turn-ms", "30000")
    assert played.returncode == 0, played.stderr
    done = run_cli("view", str(results))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"botarena: {str(results)!r} is a results file, a game a line: view "
                           f"{results}:LINE draws the game on line LINE (its replay, which a run "
                           "keeps when played with --replays DIR)\n")
    done = run_cli("view", f"{results}:2")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    head, again = done.stderr.strip().split("; play that game again with one: ")
    assert head == (f"botarena: {results}:2 has no replay (a match, league or sweep keeps one per "
                    "game with --replays DIR)")
    words = shlex.split(again)
    assert words[:3] == ["botarena", "play", "tictactoe"] and words[-2:] == ["--replay", "game.json"]
    replay = tmp_path / "game.json"
    assert run_cli(*words[1:-1], str(replay)).returncode == 0
    assert run_cli("view", str(replay)).returncode == 0 and replay.with_suffix(".html").is_file()
    record = json.loads(results.read_text().splitlines()[1])
    assert record["commands"] == [words[3], words[4]], "the seats' own commands, seeds included"


def test_a_bundle_goes_into_a_new_folder_and_a_bot_without_docstring_gets_no_colon(tmp_path):
    """A Java bundle must be -o DIR/Player.java: 'cannot write 'submit/Player.java': No such file
    or directory' for a folder not made yet (starter -o makes its folder); and a Python starter's
    bundle began '# bot.py, bundled by botarena: ' with nothing after the colon."""
    bot = tmp_path / "bot.py"
    bot.write_text(starter_text("tictactoe", "python"))
    out = tmp_path / "submit" / "today" / "bot.py"
    done = run_cli("bundle", str(bot), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_text().splitlines()[1] == "# bot.py, bundled by botarena"


def test_games_says_how_many_players_in_words():
    """`botarena games` said 'single, 1-1 players' and 'alternating, 2-2 players'."""
    lines = run_cli("games").stdout.splitlines()
    after = {lines[index - 1].split()[0]: line.strip() for index, line in enumerate(lines)
             if line.startswith(" " * 18) and "first turn" in line}
    assert after["calculation"] == "single-player, 1000 ms first turn, 100 ms after"
    assert after["othello"] == "alternating, 2 players, 1000 ms first turn, 100 ms after"
    assert players_text(2, 4) == "2-4 players"


def test_a_ladders_bot_file_is_named_from_here(tmp_path):
    """A ladder's bots run from its folder ('bots/v1/bot.py'): the command to play a game again
    names them from where the user is."""
    (tmp_path / "bots" / "v1").mkdir(parents=True)
    (tmp_path / "bots" / "v1" / "bot.py").write_text("")
    record = {"game": "tictactoe", "seed": 5, "seats": ["v1", "r"],
              "commands": ["bots/v1/bot.py", "random --seed 3"]}
    assert _play_again(record, tmp_path) == shlex.join(
        ["botarena", "play", "tictactoe", str(tmp_path / "bots/v1/bot.py"), "random --seed 3",
         "--seed", "5", "--replay", "game.json"])
