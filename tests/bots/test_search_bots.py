"""The built-in search bots as real processes: a full game per game through the CLI."""
from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

GAMES = {
    "tictactoe": ["mcts --seed 1 --iterations 300", "alphabeta --iterations 5000"],
    "number_maze_duel": ["duct --seed 1 --iterations 200", "mcts --seed 2 --iterations 200"],
    "number_maze": ["chokudai --iterations 300"],
}


def play(game: str, bots: list[str], seed: int = 4) -> dict:
    """One game; the bots' budgets are iterations, so the referee's clock is made generous (a
    busy test machine must not turn slow start-ups into timeouts)."""
    result = run_cli("play", game, *bots, "--seed", str(seed), "--json", "--first-turn-ms", "20000",
                     "--turn-ms", "10000")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_search_bots_play_a_whole_game_reproducibly(game):
    first = play(game, GAMES[game])
    assert first["reason"] in ("turn limit", "three in a row", "board full")
    for player in first["players"]:
        assert player["fault"] is None
        assert {"iterations", "depth", "elapsed_ms"} <= set(player["pdata"])
    again = play(game, GAMES[game])
    assert [p["score"] for p in again["players"]] == [p["score"] for p in first["players"]]
    assert again["turns"] == first["turns"]


def test_other_number_maze_and_duel_bots_play_through():
    for bot in ("greedy --iterations 1", "beam --width 5 --iterations 50"):
        assert play("number_maze", [bot])["players"][0]["fault"] is None
    result = play("number_maze_duel", ["pmc --seed 3 --iterations 100 --playout-depth 4",
                                       "duct --seed 4 --iterations 100 --playout-depth 2 --c 0.7"])
    assert all(player["fault"] is None for player in result["players"])


def test_bots_lists_the_search_bots_with_their_parameters():
    result = run_cli("bots", "number_maze_duel")
    assert result.returncode == 0
    for text in ("duct:", "mcts:", "pmc:", "--expand-threshold", "--playout-depth", "--margin-ms",
                 "--iterations", "--seed"):
        assert text in result.stdout


def test_a_bad_bot_parameter_is_one_clear_line():
    result = run_cli("play", "tictactoe", "mcts --c nope", "random")
    assert result.returncode == 2
    assert "mcts --c nope" in result.stderr and "Traceback" not in result.stderr


def test_the_first_turn_runs_from_the_inputs_arrival_and_never_below_a_later_turns_budget(monkeypatch):
    import time

    from bots import runtime
    now = time.perf_counter()
    monkeypatch.setattr(runtime, "_first_input_at", now)          # input arrived just now
    clock = runtime.TurnClock(first_ms=1000, turn_ms=50, margin_ms=10)
    assert clock.start_turn() - now == pytest.approx(0.89, abs=0.05)
    assert clock.start_turn() - clock.started == pytest.approx(0.04)
    monkeypatch.setattr(runtime, "_first_input_at", now - 5.0)    # looks older than the budget
    late = runtime.TurnClock(first_ms=1000, turn_ms=50, margin_ms=10)
    assert late.start_turn() - late.started == pytest.approx(0.04)
