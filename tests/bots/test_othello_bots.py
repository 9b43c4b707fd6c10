"""Othello bots: the shared evaluation, answers to scripted positions, a full game via the CLI."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from bots.othello._evaluation import Evaluation, OrderedState, disc_value
from bots.search.alternating import alphabeta, minimax
from referee.games import load_game
from referee.games.othello import codec
from referee.games.othello.rules import OthelloState, play_random_game
from tests.conftest import ROOT, run_cli
from tools.arena.botspec import bot_module

BOTS = ["random", "minimax", "alphabeta", "iterative_deepening", "pmc", "mcts"]


def positions(count: int, seed: int) -> list[OthelloState]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = OthelloState()
        for _ in range(rng.randrange(1, 50)):
            state.play(rng.choice(state.legal_actions()))
            if state.over:
                break
        if not state.over:
            found.append(state)
    return found


def test_evaluation_is_zero_sum_and_prices_corners():
    evaluation = Evaluation()
    for state in positions(30, seed=1):
        assert evaluation.of_state(state, 0) == pytest.approx(-evaluation.of_state(state, 1))
        assert evaluation.value(state, 0) + evaluation.value(state, 1) == pytest.approx(1.0)
        assert 0.0 < evaluation.value(state, 0) < 1.0
    corner = evaluation.heuristic(1 << 0, 0, 0, 0)
    x_square = evaluation.heuristic(1 << 9, 0, 0, 0)
    assert corner == 100 and x_square == -50
    end = play_random_game(5)
    black, white = end.discs()
    assert disc_value(end, 0) == (1.0 if black > white else 0.5 if black == white else 0.0)


def test_ordered_state_lists_corners_first_and_keeps_the_position():
    state = OthelloState.from_boards(0b10 | 1 << 9, 0b100 | 1 << 18, 1)
    ordered = OrderedState.of(state)
    assert sorted(ordered.legal_actions()) == state.legal_actions()
    assert ordered.boards == state.boards and ordered.boards is not state.boards
    child = ordered.clone()
    child.play(child.legal_actions()[0])
    assert type(child) is OrderedState and ordered.boards == state.boards


def test_alphabeta_agrees_with_minimax():
    evaluate = Evaluation().value
    for state in positions(8, seed=3):
        ordered = OrderedState.of(state)
        plain = minimax(ordered, 3, evaluate=evaluate)
        pruned = alphabeta(ordered, 3, evaluate=evaluate)
        assert pruned.value == pytest.approx(plain.value)
        assert pruned.iterations <= plain.iterations


def scripted_input(states: list[OthelloState], seat: int) -> str:
    lines = codec.init_lines(states[0], seat)
    for state in states:
        lines += codec.turn_lines(state, seat)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("bot, args", [
    ("random", ["--seed", "1"]), ("minimax", ["--iterations", "300"]),
    ("alphabeta", ["--iterations", "300"]), ("iterative_deepening", ["--iterations", "300"]),
    ("pmc", ["--iterations", "40", "--depth", "10", "--seed", "2"]),
    ("mcts", ["--iterations", "40", "--seed", "2"])])
def test_bot_answers_legal_moves_and_reports(bot, args):
    states = [state for state in positions(6, seed=9) if state.to_move == 1][:3]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-P", "-m", bot_module("othello", bot), *args],
                          input=scripted_input(states, 1), capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=60)
    answers = done.stdout.split()
    assert len(answers) == len(states), done.stderr
    for state, text in zip(states, answers):
        assert codec.square_from_text(text) in state.legal_actions()
    assert done.stderr.count("[PDATA] iterations = ") == len(states)
    assert "[PDATA] elapsed_ms = " in done.stderr


def test_fixed_budget_bots_repeat_their_moves():
    states = [state for state in positions(4, seed=5) if state.to_move == 0]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    runs = [subprocess.run([sys.executable, "-P", "-m", "bots.othello.pmc", "--iterations", "60",
                            "--seed", "7"], input=scripted_input(states, 0), capture_output=True,
                           text=True, env=env, cwd=ROOT, timeout=60).stdout for _ in range(2)]
    assert runs[0] == runs[1] and runs[0].strip()


def test_full_game_through_the_cli():
    done = run_cli("play", "othello", "alphabeta --iterations 200", "pmc --iterations 30 --seed 1",
                   "--seed", "3", "--json", "--turn-ms", "3000", "--first-turn-ms", "5000")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["reason"] in ("board full", "no legal move for either")
    assert all(player["fault"] is None for player in result["players"])
    black, white = (player["score"] for player in result["players"])
    assert black + white <= 64 and result["winner"] == (None if black == white else int(white > black))
    assert result["players"][0]["pdata"]["iterations"] >= 1


def test_game_registry_lists_othello():
    assert load_game("othello").seats == (2, 2)
