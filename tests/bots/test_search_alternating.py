"""The alternating-game searches on tic-tac-toe: agreement, perfect play, strength against random."""
from __future__ import annotations

import random

import pytest

from bots.search.alternating import alphabeta, iterative_deepening, mcts, minimax, pmc
from bots.search.deadline import Deadline
from referee.games.tictactoe.rules import TicTacToeState


def random_position(rng: random.Random, plies: int) -> TicTacToeState:
    """A position after up to ``plies`` random moves (fewer if the game ends first)."""
    state = TicTacToeState()
    for _ in range(plies):
        if state.is_over():
            break
        state.play(rng.choice(state.legal_actions()))
    return state


def positions(count: int, seed: int = 7) -> list[TicTacToeState]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = random_position(rng, rng.randrange(1, 7))
        if not state.is_over():
            found.append(state)
    return found


def mark_balance(state: TicTacToeState, seat: int) -> float:
    """A toy evaluation in [0, 1]: open lines for the seat minus open lines for the opponent."""
    from referee.games.tictactoe.rules import LINES
    mine, theirs = state.boards[seat], state.boards[1 - seat]
    open_mine = sum(1 for line in LINES if not line & theirs and line & mine)
    open_theirs = sum(1 for line in LINES if not line & mine and line & theirs)
    return 0.5 + (open_mine - open_theirs) / 16


@pytest.mark.parametrize("depth", [1, 2, 3, 9])
def test_minimax_and_alphabeta_agree_on_random_positions(depth):
    for state in positions(40):
        plain = minimax(state, depth, evaluate=mark_balance)
        pruned = alphabeta(state, depth, evaluate=mark_balance)
        assert pruned.value == pytest.approx(plain.value)
        assert pruned.action == plain.action
        assert pruned.iterations <= plain.iterations


def test_alphabeta_prunes_much_and_finds_the_draw():
    state = TicTacToeState()
    state.play(4)
    plain, pruned = minimax(state, 9), alphabeta(state, 9)
    assert plain.value == pruned.value == 0.5
    assert pruned.iterations * 10 < plain.iterations


def test_alphabeta_takes_a_win_and_blocks_a_loss():
    state = TicTacToeState()
    for cell in (0, 3, 1):          # X: 0 1, O: 3 -> O to move must block 2
        state.play(cell)
    assert alphabeta(state, 9).action == 2
    state.play(4)                   # O blocks badly; X wins at 2
    choice = alphabeta(state, 9)
    assert choice.action == 2 and choice.value > 0.99


def play_game(choose_x, choose_o, rng: random.Random) -> int | None:
    """The winner (0 for X, 1 for O) or None for a draw; a chooser None plays at random."""
    state = TicTacToeState()
    while not state.is_over():
        chooser = choose_x if state.to_move == 0 else choose_o
        cell = chooser(state) if chooser else rng.choice(state.legal_actions())
        state.play(cell)
    return state.winner


_PERFECT: dict[tuple, int] = {}


def perfect(state):
    """Full-depth iterative-deepening alpha-beta (memoized: the same positions recur)."""
    key = (state.boards[0], state.boards[1], state.to_move)
    if key not in _PERFECT:
        _PERFECT[key] = iterative_deepening(state, iterations=200_000).action
    return _PERFECT[key]


def test_full_depth_alphabeta_never_loses_to_random():
    rng = random.Random(3)
    for game in range(30):
        if game % 2 == 0:
            assert play_game(perfect, None, rng) != 1
        else:
            assert play_game(None, perfect, rng) != 0


def test_full_depth_alphabeta_draws_against_itself():
    assert play_game(perfect, perfect, random.Random(0)) is None


def against_random(search, games: int, seed: int) -> tuple[int, int]:
    """(wins, losses) of ``search(state, rng)`` against random play, seats alternating."""
    rng = random.Random(seed)
    wins = losses = 0
    for game in range(games):
        search_rng = random.Random(game)

        def player(state, search_rng=search_rng):
            return search(state, search_rng).action

        mine = game % 2
        winner = play_game(player, None, rng) if mine == 0 else play_game(None, player, rng)
        wins += winner == mine
        losses += winner == 1 - mine
    return wins, losses


def test_mcts_beats_random_nearly_always():
    wins, losses = against_random(lambda state, rng: mcts(state, rng=rng, iterations=1500), 16, 11)
    assert losses == 0
    assert wins >= 12


def test_pmc_beats_random_most_of_the_time():
    wins, losses = against_random(lambda state, rng: pmc(state, rng=rng, playouts_per_action=100), 12, 5)
    assert wins >= 8 and losses <= 1


def test_pmc_splits_playouts_evenly_and_mcts_stats_add_up():
    state = positions(1, seed=2)[0]
    choice = pmc(state, rng=random.Random(1), playouts_per_action=30)
    assert {entry.visits for entry in choice.stats} == {30}
    assert choice.iterations == 30 * len(state.legal_actions())
    tree = mcts(state, rng=random.Random(1), iterations=500)
    assert sum(entry.visits for entry in tree.stats) == 500
    assert max(tree.stats, key=lambda entry: entry.visits).action == tree.action


def test_iterative_deepening_answers_even_when_the_deadline_has_passed():
    state = TicTacToeState()
    choice = iterative_deepening(state, deadline=Deadline(0.0))
    assert choice.action in state.legal_actions()
    assert choice.depth == 0


def test_iterative_deepening_stops_once_the_game_is_solved():
    state = positions(1, seed=4)[0]
    choice = iterative_deepening(state, deadline=Deadline.after(30))
    assert choice.depth <= len(state.legal_actions())
    assert choice.value == alphabeta(state, 9).value


def test_a_node_budget_stops_minimax_and_keeps_a_legal_answer():
    state = TicTacToeState()
    choice = minimax(state, 9, iterations=1000)
    assert choice.iterations == 1000
    assert choice.depth == 0
    assert choice.action in state.legal_actions()


def test_mcts_without_playouts_grows_its_tree_on_the_evaluation():
    state = positions(1, seed=3)[0]
    choice = mcts(state, rng=random.Random(0), iterations=2000, playout_depth=0, evaluate=mark_balance,
                  expand_threshold=2)
    assert choice.depth >= 3
    assert choice.action in state.legal_actions()
