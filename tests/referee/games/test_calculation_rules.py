"""Calculation: foundation sequences, waste piles, the end, the hidden stock, the protocol."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from referee.api import InvalidAction
from referee.games import load_game
from referee.games.calculation import codec
from referee.games.calculation.rules import (
    SEQUENCES,
    CalculationState,
    build_action,
    move_action,
    new_stock,
    waste_action,
)


def test_foundation_sequences():
    names = [" ".join(codec.rank_name(card) for card in SEQUENCES[f][1:]) for f in range(4)]
    assert names == ["A 2 3 4 5 6 7 8 9 10 J Q K", "2 4 6 8 10 Q A 3 5 7 9 J K",
                     "3 6 9 Q 2 5 8 J A 4 7 10 K", "4 8 Q 3 7 J 2 6 10 A 5 9 K"]


def test_deal_uses_one_deck():
    stock = new_stock(5)
    assert len(stock) == 48
    assert Counter(stock) + Counter([1, 2, 3, 4]) == Counter({rank: 4 for rank in range(1, 14)})
    assert new_stock(5) == stock and new_stock(6) != stock
    state = CalculationState.deal(5)
    assert state.current == stock[-1] and len(state.stock) == 47 and state.placed() == 4


def winning_stock() -> list[int]:
    """Every foundation's cards in order: each turned card builds at once (drawn from the end)."""
    order = [card for f in range(4) for card in SEQUENCES[f][2:]]
    return order[::-1]


def test_building_every_card_wins():
    state = CalculationState(winning_stock())
    while not state.is_over():
        builds = [action for action in state.legal_actions() if action < 4]
        state.play(builds[0])
    assert state.is_won() and state.scores() == (52.0,)
    assert state.end_reason().startswith("won") and state.turn == 48


def test_current_card_actions_and_waste_moves():
    # Turned first: 5 (fits nowhere), then 2 (builds on foundation 0: A -> 2), then 3, then 4.
    state = CalculationState([13, 4, 3, 2, 5])
    assert state.current == 5
    assert state.legal_actions() == [waste_action(pile) for pile in range(4)]
    state.play(waste_action(1))
    assert state.wastes[1] == [5] and state.current == 2
    assert state.legal_actions() == [build_action(0)] + [waste_action(pile) for pile in range(4)]
    state.play(build_action(0))
    state.play(build_action(0))            # 3
    state.play(build_action(0))            # 4: foundation 0 now takes 5, which tops waste pile 1
    assert state.foundations[0] == 4 and state.current == 13
    assert move_action(1, 0) in state.legal_actions()
    state.play(move_action(1, 0))
    assert state.wastes[1] == [] and state.foundations[0] == 5 and state.current == 13
    state.play(waste_action(0))             # the last card; nothing fits: the deal is over
    assert state.current == 0 and state.is_over() and not state.is_won()
    assert state.placed() == 8 and "44 cards off" in state.end_reason()


def test_waste_tops_still_move_after_the_stock_is_spent():
    state = CalculationState([7], wastes=[[3, 2], [], [], []])
    state.play(waste_action(1))            # the last card: the stock is spent
    assert state.current == 0 and not state.is_over()
    assert state.legal_actions() == [move_action(0, 0)]
    state.play(move_action(0, 0))
    state.play(move_action(0, 0))
    assert state.foundations == [3, 1, 1, 1] and state.is_over() and state.placed() == 6


def test_a_card_that_fits_two_foundations():
    state = CalculationState([6])               # 6 ... set foundations so two take a 6
    state.foundations = [5, 2, 1, 1]           # foundation 0 takes 6, foundation 1 (2 4 ..) takes 6
    assert state.legal_actions()[:2] == [build_action(0), build_action(1)]


def test_unseen_cards_come_from_visible_cards_only():
    state = CalculationState.deal(9)
    rng = random.Random(1)
    for _ in range(30):
        state.play(rng.choice(state.legal_actions()))
    assert Counter(state.unseen_cards()) == Counter(state.stock)
    guess = state.determinized(random.Random(2))
    assert sorted(guess.stock) == sorted(state.stock) and guess.foundations == state.foundations


def test_the_protocol_hides_the_stock_order():
    game = load_game("calculation")
    one, two = game.new_state(1, {}), game.new_state(1, {})
    two.stock.reverse()                          # same visible cards, another hidden order
    assert game.turn_lines(one, 0) == game.turn_lines(two, 0)
    assert game.init_lines(one, 0) == ["4 4"]


def test_codec_round_trip():
    game = load_game("calculation")
    rng = random.Random(4)
    state = game.new_state(4, {})
    while not state.is_over():
        lines = game.turn_lines(state, 0)
        seen = codec.state_from_lines(lines)
        assert (seen.foundations, seen.wastes, seen.current) == (state.foundations, state.wastes,
                                                                   state.current)
        assert sorted(seen.stock) == sorted(state.stock) and seen.legal_actions() == state.legal_actions()
        action = rng.choice(state.legal_actions())
        assert game.parse_action(state, 0, codec.action_text(action).lower() + " note") == action
        state.play(action)


@pytest.mark.parametrize("line, reason", [
    ("", "expected 'BUILD f'"), ("PLAY 1", "expected 'BUILD f'"), ("BUILD 4", "foundation '4'"),
    ("WASTE x", "waste pile 'x'"), ("BUILD 0", "foundation 0 takes 2"),
    ("MOVE 0 0", "waste pile 0 is empty")])
def test_bad_answers_say_why(line, reason):
    game = load_game("calculation")
    state = CalculationState([13, 7])            # current 7: fits nowhere yet
    with pytest.raises(InvalidAction, match=reason):
        game.parse_action(state, 0, line)
