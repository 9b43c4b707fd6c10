"""The xmas_rush search bots (pmc, duct, hybrid): their fast model against the rules, the shared
evaluation, deterministic choices, and short games through the CLI (sanity only: no strength)."""
from __future__ import annotations

import json
import random
import subprocess
import sys
import time

import pytest

from bots.search.choice import ActionStats, Choice
from bots.search.deadline import Budget
from bots.search.hybrid import hybrid, worst_cases
from bots.search.simultaneous import duct, pmc
from bots.xmas_rush._evaluation import Evaluation, material
from bots.xmas_rush._model import AUTO, SearchState, random_playout, same_line
from bots.xmas_rush._play import OverrunGuard, StaleCounter, collecting_moves, root_position, unblocked_push
from referee.games.xmas_rush.codec import state_from_lines, turn_lines
from referee.games.xmas_rush.rules import PUSHES, new_state
from tests.conftest import ROOT, run_cli

BOTS = ("pmc", "duct", "hybrid")


def _played(seed: int, turns: int):
    """A rules state ``turns`` random game turns into game ``seed``."""
    rng = random.Random(seed)
    state = new_state(seed)
    for _ in range(turns):
        state.apply((rng.choice(state.legal_actions(0)), rng.choice(state.legal_actions(1))))
    return state


def test_model_plays_pushes_and_moves_exactly_as_the_rules():
    rng = random.Random(3)
    for seed in range(6):
        rules = new_state(seed)
        model = SearchState.from_rules(rules)
        while not rules.is_over():
            if rules.is_push_turn():
                first, second = rng.randrange(28), rng.randrange(28)
                rules.apply((PUSHES[first], PUSHES[second]))
                model.apply((first, second))
            else:
                moves = (rng.choice(rules.move_actions(0)), rng.choice(rules.move_actions(1)))
                rules.apply(moves)
                model.apply_move(0, moves[0])
                model.apply_move(1, moves[1])
                model.end_turn()
            settled = rules.clone()
            settled.collect_items()             # the rules collect a fresh reveal at the next apply
            where = settled.item_cells()
            assert [model.tile(cell) for cell in range(49)] == [rules.tile(cell) for cell in range(49)]
            assert (model.pos, model.score, model.quests) == (settled.pos, settled.score, settled.quests)
            assert model.quest_cells == tuple(tuple(where[code] for code in settled.quests[seat])
                                              for seat in (0, 1))
            assert model.is_over() == rules.is_over()


def test_auto_move_collects_every_reachable_quest_item():
    for seed in range(10):
        model = SearchState.from_rules(_played(seed, 5))
        reach = model.reachable(0)
        wanted = [cell for cell in model.quest_cells[0] if cell >= 0 and reach >> cell & 1]
        before = model.score[0]
        model.auto_move(0)
        assert model.score[0] == before + len(wanted)
        assert reach >> model.pos[0] & 1            # it stays inside the area it could reach


def test_same_line_pushes_are_recognised():
    assert same_line(3, 3 + 14)                     # column 3 UP and DOWN
    assert same_line(7 + 2, 21 + 2)                 # row 2 RIGHT and LEFT
    assert not same_line(3, 7 + 3)                  # column 3 and row 3 do not cancel
    assert not same_line(AUTO, 3)


def test_one_ply_matrix_scores_both_sides():
    root = SearchState.from_rules(_played(5, 8))
    evaluation = Evaluation(root)
    mine, theirs = list(range(0, 28, 3)), list(range(1, 28, 4))
    their_worst = []
    rows = worst_cases(root, 0, mine, theirs, evaluation, Budget(iterations=1), same_line, their_worst)
    values = {}
    for first in mine:
        for second in theirs:
            if not same_line(first, second):
                child = root.clone()
                child.apply((first, second))
                values[first, second] = (evaluation(child, 0), evaluation(child, 1))
    assert rows == [min(values[first, second][0] for second in theirs if (first, second) in values)
                    for first in mine]
    assert their_worst == [min(values[first, second][1] for first in mine if (first, second) in values)
                           for second in theirs]


def test_evaluation_is_in_unit_range_and_half_at_the_root():
    for seed in range(8):
        state = _played(seed, 2 * seed)
        root = SearchState.from_rules(state)
        evaluation = Evaluation(root)
        assert evaluation(root, 0) == pytest.approx(0.5) and evaluation(root, 1) == pytest.approx(0.5)
        rng = random.Random(seed)
        for _ in range(20):
            child = root.clone()
            random_playout(child, rng, 4)
            mine, theirs = evaluation(child, 0), evaluation(child, 1)
            assert 0.0 <= mine <= 1.0 and 0.0 <= theirs <= 1.0
            zero_sum = Evaluation(root, progress=0.0)
            assert zero_sum(child, 0) + zero_sum(child, 1) == pytest.approx(1.0)


def test_progress_breaks_the_tie_between_equal_gains_and_no_change():
    root = SearchState.from_rules(_played(4, 6))
    both_gain = root.clone()
    both_gain.score = (root.score[0] + 1, root.score[1] + 1)
    assert Evaluation(root, progress=0.0)(both_gain, 0) == pytest.approx(0.5)
    assert Evaluation(root)(both_gain, 0) > Evaluation(root)(root, 0) == pytest.approx(0.5)


def test_evaluation_prefers_a_reachable_quest_item():
    state = _played(4, 6)
    model = SearchState.from_rules(state)
    base = material(model, 0)
    reach = model.reachable(0)
    unreachable = [cell for cell in model.quest_cells[0] if cell >= 0 and not reach >> cell & 1]
    assert unreachable, "pick a position with a quest item out of reach"
    model.pos = (unreachable[0], model.pos[1])      # standing on it makes it reachable
    assert material(model, 0) > base


@pytest.mark.parametrize("name", BOTS)
def test_same_seed_and_budget_give_the_same_choice(name):
    search = {"pmc": pmc, "duct": duct, "hybrid": hybrid}[name]
    state = _played(7, 4)
    choices = []
    for _ in range(2):
        root = root_position(state.clone(), random.Random(1))
        choice = search(root, 0, rng=random.Random(2), iterations=150, playout_depth=2,
                        evaluate=Evaluation(root), playout=random_playout)
        choices.append((choice.action, choice.iterations, choice.value))
    assert choices[0] == choices[1] and choices[0][1] == 150 and choices[0][0] in range(28)


def test_move_turn_choices_are_the_best_collecting_paths():
    for seed in range(10):
        state = _played(seed, 3)
        assert not state.is_push_turn()
        moves = collecting_moves(state)
        planned = state.move_actions(0)
        assert moves and all(move in planned for move in moves)


@pytest.mark.parametrize("name", BOTS)
def test_bot_answers_one_block_deterministically(name):
    lines = turn_lines(_played(2, 6), 0)
    assert state_from_lines(lines, turn=6).turn == 6
    answers = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-P", "-m", f"bots.xmas_rush.{name}", "--seed", "3",
                               "--iterations", "120"], input="\n".join(lines) + "\n", cwd=ROOT,
                              capture_output=True, text=True, timeout=60, env={"PYTHONPATH": str(ROOT)})
        assert done.returncode == 0, done.stderr
        answers.append(done.stdout)
        assert "[PDATA] iterations = 120" in done.stderr and "[PDATA] elapsed_ms" in done.stderr
    assert answers[0] == answers[1] and answers[0].startswith("PUSH ")


@pytest.mark.parametrize("name", BOTS)
def test_bot_plays_a_whole_game_without_fault(name):
    done = run_cli("play", "xmas_rush", f"{name} --seed 1 --iterations 40", "greedy --seed 2", "--seed", "3",
                   "--turn-ms", "2000", "--first-turn-ms", "5000", "--json", timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [player["fault"] for player in result["players"]] == [None, None], result
    assert result["players"][0]["pdata"]["depth"] >= 1


def test_stale_push_turns_are_counted_from_the_input():
    counter = StaleCounter()
    state = _played(1, 2)
    assert counter.update(state) == 0
    moved = state.clone()
    moved.turn += 1                                 # a MOVE turn in between changes nothing here
    assert counter.update(moved) == 0
    again = state.clone()
    again.turn += 2                                 # the next PUSH turn, same tiles: nothing happened
    assert counter.update(again) == 1
    pushed = again.clone()
    pushed.turn += 2
    pushed.push_line(0, PUSHES[3])
    assert counter.update(pushed) == 0


def test_after_a_stale_turn_one_of_the_two_best_pushes_is_played():
    stats = tuple(ActionStats(code, visits, value) for code, visits, value in
                  ((4, 10, 0.5), (9, 30, 0.4), (2, 20, 0.6), (7, 5, 0.9)))
    choice = Choice(9, 65, 2, 0.4, stats)
    rng = random.Random(1)
    assert {unblocked_push(choice, rng, by_visits=True) for _ in range(40)} == {9, 2}
    assert {unblocked_push(choice, rng, by_visits=False) for _ in range(40)} == {7, 2}


def test_overrun_guard_moves_the_deadline_by_the_recent_overrun():
    guard = OverrunGuard(window=2, floor_ms=2.0)
    now = time.perf_counter()
    assert guard.deadline(now + 0.030, now) == now + 0.030
    guard.record(time.perf_counter() - 0.010)       # answered at least 10 ms after its deadline
    assert guard.deadline(now + 0.030, now) <= now + 0.020
    guard.record(time.perf_counter() - 1.0)         # a huge overrun: keep a floor of search time
    assert guard.deadline(now + 0.030, now) == pytest.approx(now + 0.002)
    guard.record(time.perf_counter() + 1.0)         # on time twice: the big overrun leaves the window
    guard.record(time.perf_counter() + 1.0)
    assert guard.deadline(now + 0.030, now) == now + 0.030
