"""Search bots are stronger than ``random``: a bot whose evaluation or objective is upside down
(it plays to lose, or to place as few cards as it can) still answers legal moves, so only its
results can tell. Short seeded matches with a fixed number of iterations per move (no clock,
so the result does not depend on the machine's load), through the CLI on real bot processes.
"""
from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

CALM = ("--first-turn-ms", "60000", "--turn-ms", "60000", "--quiet", "--json")


def _match(game: str, bot: str, opponent: str, games: int) -> dict:
    done = run_cli("match", game, bot, opponent, "-n", str(games), "--seed", "1", *CALM,
                   timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# the evaluation's bots; pmc and mcts cut their playouts and score them with the evaluation
OTHELLO_SEARCH_BOTS = ["minimax --depth 2", "alphabeta --depth 3",
                       "iterative_deepening --max-depth 3 --iterations 2000",
                       "pmc --iterations 60 --depth 6 --cut-eval heuristic",
                       "mcts --iterations 60 --depth 6 --cut-eval heuristic"]


@pytest.mark.parametrize("bot", OTHELLO_SEARCH_BOTS)
def test_othello_search_bots_beat_random(bot):
    # four games, seats swapped: a bot that plays to win takes at least three; one that plays
    # to lose (its evaluation's sign flipped) takes at most one
    summary = _match("othello", f"{bot} --seed 1", "random --seed 2", 4)
    assert summary["games"] == 4 and summary["wins"] >= 3, summary


CALCULATION_BOTS = ["greedy", "mcts --iterations 40", "simple_tree --iterations 100 --level 1"]


@pytest.mark.parametrize("bot", CALCULATION_BOTS)
def test_calculation_bots_place_far_more_cards_than_random(bot):
    # the same six deals for both: random places ~17 cards on average, these ~35; with the
    # objective flipped (as few cards as possible) the searches place ~11
    summary = _match("calculation", f"{bot} --seed 1", "random --seed 1", 6)
    means = {name: figures["mean"] for name, figures in summary["mean_score"].items()}
    assert means[f"{bot} --seed 1"] >= means["random --seed 1"] + 10, means
