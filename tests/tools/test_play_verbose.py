"""``botarena play -v``: every line each way between the match and its bots on stderr (through
``logging``), and nothing of it without ``-v``."""
from __future__ import annotations

import logging
import re
import sys

from referee.games import load_game
from referee.match import play_match
from referee.player_log import LoggedPlayer, log
from referee.testing import ScriptedPlayer
from tests.conftest import run_cli

# answers tictactoe's first valid cell, then a line the game refuses
REFUSER = ("import sys\nfor turn in range(9):\n    sys.stdin.readline()\n"
           "    cells = [sys.stdin.readline().strip() for _ in range(int(sys.stdin.readline()))]\n"
           "    print(cells[0] if turn == 0 else 'debug: thinking', flush=True)\n")


def test_verbose_play_logs_every_line_each_way_and_the_fault():
    done = run_cli("play", "tictactoe", "random --seed 1", f"{sys.executable} -c \"{REFUSER}\"",
                   "--seed", "3", "-v")
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    first = lines[:lines.index("seat0 << 2 2") + 1]
    assert first == ["seat0 << -1 -1", "seat0 << 9"] + [f"seat0 << {row} {col}"
                                                       for row in range(3) for col in range(3)]
    answers = [line for line in lines if " >> " in line]
    assert len(answers) == 4                        # seat 0 twice, seat 1 twice (its 2nd refused)
    assert all(re.fullmatch(r"seat[01] >> (\d \d|debug: thinking) \(\d+\.\d ms\)", line)
               for line in answers)
    assert answers[-1].startswith("seat1 >> debug: thinking (")
    assert lines[-1] == "seat1 !! bad_output: expected 'row col', got 'debug: thinking'"
    assert sum(line.startswith("seat1 << ") for line in lines) == 2 + 8 + 2 + 6


def test_without_v_nothing_is_logged():
    done = run_cli("play", "tictactoe", "random --seed 1", "random --seed 2", "--seed", "3")
    assert done.returncode == 0 and " << " not in done.stderr and " >> " not in done.stderr


def test_players_are_wrapped_only_while_the_log_is_on(caplog):
    seen = []

    def first_cell(lines):
        seen.append(lines)
        return lines[2]
    players = [ScriptedPlayer(first_cell), ScriptedPlayer(first_cell)]
    with caplog.at_level(logging.DEBUG, logger=log.name):
        result = play_match(load_game("tictactoe"), players, seed=1)
    assert result.reason == "three in a row"
    messages = [record.getMessage() for record in caplog.records]
    assert messages[:3] == ["seat0 << -1 -1", "seat0 << 9", "seat0 << 0 0"]
    assert re.fullmatch(r"seat0 >> 0 0 \(\d+\.\d ms\)", messages[11])
    assert len([message for message in messages if " >> " in message]) == 7
    caplog.clear()
    play_match(load_game("tictactoe"), players, seed=1)
    assert caplog.records == []
    assert isinstance(LoggedPlayer(players[0], 0).pdata, dict)
