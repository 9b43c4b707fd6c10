"""The simple-tree Monte Carlo of seed 004 on a tiny single-player game with chance."""
from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest

from bots.search.chance import chance_playout, sample_outcome, simple_tree


class PushYourLuck:
    """Each turn: BANK (one sure point) or GAMBLE (then chance: +4 points with probability 0.4,
    else every point is lost). The score after ``turns`` turns counts."""

    __slots__ = ("points", "turns_left", "pending")

    def __init__(self, points: int = 0, turns_left: int = 3, pending: bool = False):
        self.points, self.turns_left, self.pending = points, turns_left, pending

    def clone(self):
        return PushYourLuck(self.points, self.turns_left, self.pending)

    def acting_seats(self):
        return (0,)

    def legal_actions(self, seat=0):
        return ["BANK", "GAMBLE"]

    def apply(self, actions):
        if actions[0] == "BANK":
            self.points += 1
            self.turns_left -= 1
        else:
            self.pending = True

    def is_chance(self):
        return self.pending

    def chance_outcomes(self):
        return [("WIN", 0.4), ("LOSE", 0.6)]

    def apply_chance(self, outcome):
        self.points = self.points + 4 if outcome == "WIN" else 0
        self.pending = False
        self.turns_left -= 1

    def is_over(self):
        return self.turns_left == 0 and not self.pending

    def scores(self):
        return (float(self.points),)


@cache
def expectimax(points: int, turns_left: int) -> tuple[float, str | None]:
    """The exact value and best action of a decision state."""
    if turns_left == 0:
        return float(points), None
    bank = expectimax(points + 1, turns_left - 1)[0]
    gamble = 0.4 * expectimax(points + 4, turns_left - 1)[0] + 0.6 * expectimax(0, turns_left - 1)[0]
    return (bank, "BANK") if bank >= gamble else (gamble, "GAMBLE")


@pytest.mark.parametrize("points,turns", [(0, 1), (0, 3), (1, 2), (3, 3), (0, 4)])
def test_expanding_the_whole_game_gives_the_exact_expectimax(points, turns):
    state = PushYourLuck(points, turns)
    choice = simple_tree(state, rng=random.Random(0), levels=2 * turns, playouts=3)
    value, action = expectimax(points, turns)
    assert choice.action == action
    assert choice.value == pytest.approx(value)
    assert choice.iterations == 0                  # every leaf was a finished game


def test_shallow_trees_estimate_with_playouts_and_still_choose_well():
    state = PushYourLuck(0, 4)
    choice = simple_tree(state, rng=random.Random(1), levels=2, playouts=200)
    assert choice.action == expectimax(0, 4)[1]
    assert {entry.action for entry in choice.stats} == {"BANK", "GAMBLE"}
    assert choice.iterations > 0


def test_same_seed_same_choice_and_a_playout_budget_is_respected():
    state = PushYourLuck(2, 5)
    first, again = (simple_tree(state, rng=random.Random(3), levels=3, playouts=20) for _ in range(2))
    assert first == again
    capped = simple_tree(state, rng=random.Random(3), levels=3, playouts=20, iterations=25)
    assert capped.iterations == 25
    assert capped.action in state.legal_actions()


def test_outcomes_are_sampled_by_probability():
    rng = random.Random(7)
    counts = Counter(sample_outcome([("a", 0.2), ("b", 0.5), ("c", 0.3)], rng) for _ in range(20000))
    assert counts["a"] / 20000 == pytest.approx(0.2, abs=0.015)
    assert counts["b"] / 20000 == pytest.approx(0.5, abs=0.015)


def test_chance_playout_plays_choices_and_chance_to_the_end():
    state = PushYourLuck(0, 6)
    chance_playout(state, random.Random(2))
    assert state.is_over()
    cut = PushYourLuck(0, 6)
    chance_playout(cut, random.Random(2), max_turns=1)
    assert not cut.is_over()


def test_a_chance_root_is_refused():
    with pytest.raises(ValueError):
        simple_tree(PushYourLuck(0, 2, pending=True), rng=random.Random(0), levels=1, playouts=1)
