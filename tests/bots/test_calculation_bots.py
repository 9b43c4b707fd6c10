"""Calculation bots: the belief state, playouts, the greedy policy, scripted turns, a CLI game."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter

import pytest

from bots.calculation._belief import Belief, Deal, build_first_playout, placed_fraction
from bots.calculation._policy import distance, greedy_action, waste_pile_for
from bots.calculation.mcts import grow_tree, infoset_mcts
from bots.search.chance import simple_tree
from bots.search.deadline import Budget
from referee.games.calculation import codec
from referee.games.calculation.rules import FROM_WASTE, SEQUENCES, CalculationState, waste_action
from tests.conftest import ROOT, run_cli
from tools.arena.botspec import bot_module


def midgame(seed: int, steps: int) -> CalculationState:
    rng = random.Random(seed)
    state = CalculationState.deal(seed)
    for _ in range(steps):
        if state.is_over():
            break
        state.play(rng.choice(state.legal_actions()))
    return state


def all_cards(state: CalculationState) -> Counter:
    cards = Counter(card for f, size in enumerate(state.foundations) for card in SEQUENCES[f][1:size + 1])
    cards.update(card for pile in state.wastes for card in pile)
    return cards


def test_belief_chance_steps_follow_the_unseen_cards():
    state = midgame(3, 20)
    belief = Belief.of(state)
    assert not belief.is_chance() and belief.left == len(state.stock)
    belief.play(waste_action(0))
    assert belief.is_chance() and not belief.is_over()
    outcomes = belief.chance_outcomes()
    assert sum(probability for _, probability in outcomes) == pytest.approx(1.0)
    counts = Counter(state.stock)
    assert {rank: probability * belief.left for rank, probability in outcomes} == \
        pytest.approx({rank: float(count) for rank, count in counts.items()})
    rank = outcomes[0][0]
    child = belief.clone()
    child.apply_chance(rank)
    assert child.current == rank and child.left == belief.left - 1 and belief.counts[rank] == counts[rank]


def test_equal_waste_piles_are_offered_once():
    belief = Belief.of(CalculationState([5, 9]))     # current 9, four empty piles
    assert belief.legal_actions() == [waste_action(0)]
    belief.wastes = [[7], [], [7], []]
    assert belief.legal_actions() == [waste_action(0), waste_action(1)]


@pytest.mark.parametrize("share", [0.0, 0.5, 1.0])
def test_playouts_finish_the_deal_and_keep_every_card(share):
    rng = random.Random(1)
    for seed in range(5):
        state = midgame(seed, 10)
        belief = Belief.of(state)
        build_first_playout(belief, rng, None, share)
        assert belief.is_over() and belief.current == 0 and belief.left == 0
        assert sum(all_cards(belief).values()) == 52
        deal = Deal.guess(Belief.of(state), rng)
        assert Counter(deal.stock) == Counter(state.stock)
        build_first_playout(deal, rng, None, share)
        assert deal.is_over() and sum(all_cards(deal).values()) == 52


def test_greedy_policy():
    foundations = [1, 1, 1, 1]                       # need 2, 4, 6, 8
    assert distance(2, foundations) == 0 and distance(3, foundations) == 1
    assert distance(13, foundations) == 11           # a king is always a foundation's last card
    assert distance(12, foundations) == 1 and distance(5, foundations) == 3
    # The tightest fit: a queen (distance 1) on the 5 (gap 2), not the king (gap 10), not on
    # the empty pile (gap 4), never on the 2 (needed sooner than the queen).
    assert waste_pile_for(12, foundations, [[5], [13], [], [2]]) == 0
    # A loose fit loses to an empty pile.
    assert waste_pile_for(2, foundations, [[13], [], [13], [13]]) == 1
    # Every top needed sooner: bury the one needed last (the 5).
    assert waste_pile_for(13, foundations, [[2], [3], [5], [6]]) == 2
    state = midgame(4, 15)
    for _ in range(60):
        if state.is_over():
            break
        action = greedy_action(state)
        assert action in state.legal_actions()
        state.play(action)


def test_searches_answer_legal_actions_within_their_budget():
    state = midgame(6, 12)
    belief = Belief.of(state)
    rng = random.Random(1)
    tree = simple_tree(belief, rng=rng, levels=2, playouts=2, iterations=400, playout=build_first_playout)
    assert tree.action in belief.legal_actions() and tree.iterations <= 400
    tree = infoset_mcts(belief, None, rng, iterations=200)
    assert tree.action in belief.legal_actions() and tree.iterations == 200
    assert sum(entry.visits for entry in tree.stats) == 200 and tree.depth >= 2


def test_infoset_tree_children_follow_the_turned_card():
    belief = Belief.of(midgame(8, 10))
    root, deepest = grow_tree(belief, Budget(iterations=300), random.Random(3), 0.1,
                              build_first_playout, placed_fraction)
    assert root.visits == 300 and sum(root.counts) == 300 and deepest >= 2
    unseen = belief.unseen_counts()
    for (index, card), child in root.children.items():
        if root.actions[index] >= FROM_WASTE:
            assert card == belief.current          # a waste move turns no card
        else:
            assert unseen[card] > 0                # the turned card was one of the unseen
        assert child.visits < root.counts[index]     # its first visit ended in a playout


def scripted_input(states: list[CalculationState]) -> str:
    lines = codec.init_lines(states[0], 0)
    for state in states:
        lines += codec.turn_lines(state, 0)
    return "\n".join(lines) + "\n"


def run_bot(bot: str, args: list[str], states: list[CalculationState]) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-P", "-m", bot_module("calculation", bot), *args],
                          input=scripted_input(states), capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=60)


@pytest.mark.parametrize("bot, args", [
    ("random", ["--seed", "1"]), ("greedy", []),
    ("simple_tree", ["--iterations", "200", "--seed", "1"]),
    ("mcts", ["--iterations", "200", "--seed", "1"])])
def test_bot_answers_legal_actions(bot, args):
    states = [midgame(seed, 8) for seed in range(3)]
    done = run_bot(bot, args, states)
    answers = done.stdout.splitlines()
    assert len(answers) == len(states), done.stderr
    for state, line in zip(states, answers):
        assert codec.action_from_text(line) in state.legal_actions()
    assert done.stderr.count("[PDATA] iterations = ") == len(states)


def test_fixed_budget_search_repeats_itself():
    states = [midgame(seed, 6) for seed in range(4)]
    runs = [run_bot("mcts", ["--iterations", "120", "--seed", "5"], states).stdout for _ in range(2)]
    assert runs[0] == runs[1] and runs[0].strip()


def test_full_game_through_the_cli():
    done = run_cli("play", "calculation", "simple_tree --iterations 60 --level 1 --seed 1",
                   "--seed", "3", "--json", "--turn-ms", "3000", "--first-turn-ms", "5000")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    player = result["players"][0]
    assert player["fault"] is None and 4 <= player["score"] <= 52
    assert result["reason"].startswith(("won", "stuck"))
