"""Calculation's rules exactly (mutation testing: ``python -m tests.mutation.runner rules:calculation``):
the foundation formula, action numbers, a golden deal, every field after each kind of move,
``is_legal`` against ``legal_actions`` over every action number, the end reasons, what a player
can count."""
from __future__ import annotations

import random

import pytest

from referee.games.calculation.rules import (
    CalculationState,
    foundation_card,
    move_action,
    new_stock,
    waste_action,
)

ALL_ACTIONS = range(-1, 8 + 4 * 4 + 5)        # one below, every action number, five past the last


def _fields(state: CalculationState) -> tuple:
    return state.foundations, state.wastes, state.current, state.stock, state.turn


def test_the_foundation_formula_and_the_action_numbers():
    # card k of foundation f is (f + 1) * k modulo 13, a king (13) for 0
    assert [foundation_card(0, k) for k in range(14)] == [13, *range(1, 14)]
    assert [foundation_card(3, k) for k in range(14)] == [13, 4, 8, 12, 3, 7, 11, 2, 6, 10, 1, 5, 9, 13]
    assert [foundation_card(1, k) for k in (1, 6, 7, 13)] == [2, 12, 1, 13]
    assert [waste_action(pile) for pile in range(4)] == [4, 5, 6, 7]
    assert [move_action(pile, f) for pile, f in ((0, 0), (0, 3), (1, 0), (2, 1), (3, 3))] == \
        [8, 11, 12, 17, 23]


def test_a_deal_is_fixed_by_its_seed_and_turns_the_last_card():
    assert new_stock(5) == [4, 10, 4, 12, 8, 10, 12, 7, 13, 11, 7, 13, 11, 12, 8, 9, 6, 6, 5, 2, 1, 8,
                            5, 2, 3, 5, 9, 10, 1, 11, 6, 3, 8, 13, 9, 7, 3, 4, 2, 5, 9, 1, 10, 12,
                            13, 7, 6, 11]
    state = CalculationState.deal(5)
    assert _fields(state) == ([1, 1, 1, 1], [[], [], [], []], 11, new_stock(5)[:-1], 0)
    assert state.acting_seats() == (0,) and state.needs() == [2, 4, 6, 8]


def test_a_state_keeps_what_it_is_given_and_an_empty_stock_turns_nothing():
    given = CalculationState([9], [2, 3, 4, 5], [[7], [], [8, 6], []], 12, 40)
    assert _fields(given) == ([2, 3, 4, 5], [[7], [], [8, 6], []], 12, [9], 40)
    assert _fields(CalculationState([])) == ([1, 1, 1, 1], [[], [], [], []], 0, [], 0)


def test_each_kind_of_move_and_its_fields():
    state = CalculationState([6, 2, 9])            # turned: 9, then 2, then 6
    assert state.place(waste_action(3)) is True
    assert _fields(state) == ([1, 1, 1, 1], [[], [], [], [9]], 0, [6, 2], 1)
    state.current = state.stock.pop()
    assert state.place(0) is True and _fields(state) == ([2, 1, 1, 1], [[], [], [], [9]], 0, [6], 2)
    state.current = state.stock.pop()
    state.apply([waste_action(0)])                 # play: the stock is spent, nothing is turned
    assert _fields(state) == ([2, 1, 1, 1], [[6], [], [], [9]], 0, [], 3)
    state.foundations = [8, 1, 1, 1]               # foundation 0 now takes the 9 on pile 3
    assert state.place(move_action(3, 0)) is False
    assert _fields(state) == ([9, 1, 1, 1], [[6], [], [], []], 0, [], 4)
    state.foundations[2] = 1                       # foundation 2 takes 6 next (3 6 9 ...)
    state.play(move_action(0, 2))
    assert _fields(state) == ([9, 1, 2, 1], [[], [], [], []], 0, [], 5)
    assert state.is_over() and state.acting_seats() == ()


def test_a_build_turns_the_next_card():
    state = CalculationState([5, 2])
    state.play(0)
    assert _fields(state) == ([2, 1, 1, 1], [[], [], [], []], 5, [], 1)
    state.play(waste_action(2))
    assert _fields(state) == ([2, 1, 1, 1], [[], [], [5], []], 0, [], 2)


@pytest.mark.parametrize("foundations, wastes, current", [
    ([1, 1, 1, 1], [[], [], [], []], 2),           # the current card fits foundation 0 only
    ([5, 2, 1, 1], [[], [], [], []], 6),           # ... foundations 0, 1 and 2
    ([1, 6, 1, 1], [[5], [], [1, 9], [2]], 1),     # an ace on foundation 1; tops 5, 9, 2
    ([13, 1, 1, 1], [[3], [], [], [4, 6]], 0),     # foundation 0 complete, no current card
    ([2, 1, 1, 1], [[], [], [], [13, 5, 8]], 0),   # pile 3's top, not the cards under it, fits
    ([13, 13, 13, 12], [[13], [], [], []], 0),     # the last king
])
def test_is_legal_agrees_with_the_legal_actions(foundations, wastes, current):
    state = CalculationState([], foundations, wastes, current)
    legal = state.legal_actions()
    assert [action for action in ALL_ACTIONS if state.is_legal(action)] == legal
    assert legal == sorted(legal) and len(set(legal)) == len(legal)


def test_legal_actions_exactly():
    assert CalculationState([], [1, 1, 1, 1], [[], [], [], []], 2).legal_actions() == [0, 4, 5, 6, 7]
    assert CalculationState([], [5, 2, 1, 1], [[], [], [], []], 6).legal_actions() == \
        [0, 1, 2, 4, 5, 6, 7]
    # foundation 0 (5 cards) takes 6, foundation 1 (2 4 6 8) takes 10, foundation 2 (3 6) takes 9
    state = CalculationState([], [5, 4, 2, 1], [[6], [10], [], [6]], 0)
    assert state.legal_actions() == [move_action(0, 0), move_action(1, 1), move_action(3, 0)]
    assert CalculationState([], [1, 1, 1, 1], [[], [], [], [8, 13]], 0).legal_actions() == []
    assert CalculationState([], [2, 1, 1, 1], [[], [], [], [3, 13]], 0).legal_actions() == []


def test_is_legal_refuses_numbers_past_the_last_pile_and_builds_without_a_card():
    state = CalculationState([], [13, 1, 1, 1], [[4], [], [], [4]], 0)     # foundation 1 takes 4
    assert [state.is_legal(action) for action in (0, 1, 4, 7, 8, 9, 12, 21, 24, 27, 40)] == \
        [False, False, False, False, False, True, False, True, False, False, False]
    with_card = CalculationState([], [1, 1, 1, 1], [[], [], [], []], 2)
    assert [with_card.is_legal(action) for action in (0, 1, 4, 7, 8)] == \
        [True, False, True, True, False]


def test_the_end_and_its_reasons():
    playing = CalculationState([4, 7])
    assert (playing.is_over(), playing.end_reason(), playing.scores()) == (False, "", (4.0,))
    waiting = CalculationState([], [1, 1, 1, 1], [[], [7], [2], []], 0)   # 2 still moves
    assert (waiting.is_over(), waiting.end_reason()) == (False, "")
    stuck = CalculationState([], [3, 1, 2, 1], [[], [7], [9, 5], []], 0)  # 9 fits, under a 5
    assert (stuck.is_over(), stuck.is_won(), stuck.scores(), stuck.end_reason()) == \
        (True, False, (7.0,), "stuck with 45 cards off the foundations")
    won = CalculationState([], [13, 13, 13, 13], [[], [], [], []], 0)
    assert (won.is_over(), won.is_won(), won.placed(), won.end_reason()) == \
        (True, True, 52, "won: all 52 cards on the foundations")
    assert not CalculationState([], [13, 13, 13, 12], [[], [], [], []], 0).is_won()


def test_a_clone_has_every_field_and_its_own_lists():
    state = CalculationState([3, 8, 12], [2, 1, 3, 1], [[5, 7], [], [9], []], 6, 17)
    copy = state.clone()
    assert type(copy) is CalculationState and _fields(copy) == _fields(state)
    copy.play(waste_action(0))
    copy.foundations[0] = 9
    assert _fields(state) == ([2, 1, 3, 1], [[5, 7], [], [9], []], 6, [3, 8, 12], 17)


def test_unseen_counts_subtract_every_visible_card():
    state = CalculationState([1, 1], [3, 2, 1, 1], [[13, 5], [], [5], []], 4)
    # visible: foundation 0 A 2 3, foundation 1 2 4, foundations 2 and 3 their bases 3 and 4,
    # wastes K 5 5, the current 4
    assert state.unseen_counts() == [0, 3, 2, 2, 1, 2, 4, 4, 4, 4, 4, 4, 4, 3]
    assert state.unseen_cards() == [1] * 3 + [2] * 2 + [3] * 2 + [4] + [5] * 2 + \
        [rank for rank in range(6, 13) for _ in range(4)] + [13] * 3
    assert CalculationState([], current=0).unseen_counts()[1:] == [3, 3, 3, 3] + [4] * 9


def test_determinized_shuffles_the_unseen_cards_with_the_given_rng():
    state = CalculationState.deal(3)
    for action in (4, 5, 6):
        state.play(action)
    expected = state.unseen_cards()
    random.Random(7).shuffle(expected)
    guess = state.determinized(random.Random(7))
    assert guess.stock == expected and guess.stock != sorted(expected)
    assert _fields(guess)[:3] == _fields(state)[:3] and guess.turn == state.turn == 3
    assert state.stock == new_stock(3)[:-4]
