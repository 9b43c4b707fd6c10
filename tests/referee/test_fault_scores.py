"""A seat that faults scores -1 in a game of several players, as CodinGame's referees score a
deactivated player, so a built-in game and its official referee agree in every field."""
from __future__ import annotations

import sys
from pathlib import Path

from referee.games import load_game
from referee.match import PlayerSpec, play_match
from referee.replay import to_replay
from referee.replay_check import verify_replay

HOSTILE = str(Path(__file__).resolve().parents[1] / "fixtures" / "hostile" / "bot.py")
CRASH = (sys.executable, "-c", "import sys; sys.exit(3)")


def _play(game_name: str, *argvs: tuple[str, ...], seed: int = 4):
    game = load_game(game_name)
    players = [PlayerSpec(name=f"bot{seat}", argv=argv) for seat, argv in enumerate(argvs)]
    result = play_match(game, players, seed=seed)
    return game, players, result


def test_the_faulty_seat_scores_minus_one_and_ranks_last():
    game, players, result = _play("tictactoe", (sys.executable, HOSTILE, "exit", "2"),
                                  (sys.executable, HOSTILE, "good"))
    assert result.players[0].fault is not None
    assert [player.score for player in result.players] == [-1.0, 0.0]
    assert [player.rank for player in result.players] == [1, 0] and result.winner == 1
    replay = to_replay(result, players, game.time_control)
    assert verify_replay(game, replay, {}) is None


def test_two_seats_faulting_together_score_minus_one_each_and_draw():
    game, players, result = _play("xmas_rush", CRASH, CRASH)
    assert all(player.fault is not None for player in result.players)
    assert [player.score for player in result.players] == [-1.0, -1.0]
    assert [player.rank for player in result.players] == [0, 0] and result.winner is None
    replay = to_replay(result, players, game.time_control)
    assert verify_replay(game, replay, game.parse_options({})) is None


def test_a_replay_written_before_still_verifies():
    """Replays written when a faulted seat kept its rules' score (0 here) verify as they were."""
    game, players, result = _play("tictactoe", (sys.executable, HOSTILE, "exit", "2"),
                                  (sys.executable, HOSTILE, "good"))
    replay = to_replay(result, players, game.time_control)
    replay["result"]["players"][0]["score"] = 0.0
    assert verify_replay(game, replay, {}) is None
    replay["result"]["players"][0]["score"] = 5.0
    assert "score" in str(verify_replay(game, replay, {}))


def test_a_single_player_keeps_its_score():
    game, players, result = _play("number_maze", (sys.executable, HOSTILE, "exit", "2"))
    assert result.players[0].fault is not None and result.players[0].score != -1.0
