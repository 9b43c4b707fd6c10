"""Calculation's protocol, exactly: a golden turn block, every refusal's whole message, the
position a bot rebuilds from its input (mutation testing: ``python -m tests.mutation.runner codec``)."""
from __future__ import annotations

import pytest

from referee.api import InvalidAction
from referee.games import load_game
from referee.games.calculation import codec
from referee.games.calculation.rules import CalculationState

GAME = load_game("calculation")


def _position(current: int = 6, foundations: tuple[int, ...] = (3, 1, 1, 2)) -> CalculationState:
    """Foundations A-2-3 | 2 | 3 | 4-8; waste piles 7 9 K | - | Q | -; its stock: the unseen cards."""
    state = CalculationState([], list(foundations), [[7, 9, 13], [], [12], []], current)
    state.stock = state.unseen_cards()
    return state


# _position(): 7 cards on the foundations, 4 on the waste piles, the current 6: 40 unseen
GOLDEN_TURN = ["6 40", "3 3", "1 2", "1 3", "2 8", "3 7 9 13", "0", "1 12", "0"]


def test_turn_block_is_exact():
    assert GAME.init_lines(_position(), 0) == ["4 4"]
    assert GAME.turn_lines(_position(), 0) == GOLDEN_TURN


def test_a_bot_rebuilds_the_position_from_its_turn_block():
    seen = codec.state_from_lines(GOLDEN_TURN)
    state = _position()
    assert (seen.foundations, seen.wastes, seen.current, seen.stock, seen.turn) == \
        (state.foundations, state.wastes, 6, state.unseen_cards(), 0)
    assert len(seen.stock) == 40


def test_a_turn_block_whose_count_of_unseen_cards_is_wrong_is_refused():
    with pytest.raises(ValueError) as refused:
        codec.state_from_lines(["6 41", *GOLDEN_TURN[1:]])
    assert str(refused.value) == "turn block shows 41 unseen cards but its cards leave 40"


def _refusal(state: CalculationState, line: str) -> str:
    with pytest.raises(InvalidAction) as refused:
        GAME.parse_action(state, 0, line)
    return str(refused.value)


@pytest.mark.parametrize("line, message", [
    ("", "expected 'BUILD f', 'WASTE w' or 'MOVE w f', got ''"),
    ("MOVE 1", "expected 'BUILD f', 'WASTE w' or 'MOVE w f', got 'MOVE 1'"),
    ("PLAY 1 2", "expected 'BUILD f', 'WASTE w' or 'MOVE w f', got 'PLAY 1 2'"),
    ("BUILD 4", "foundation '4' in 'BUILD 4': expected 0 to 3"),
    ("WASTE 7", "waste pile '7' in 'WASTE 7': expected 0 to 3"),
    ("MOVE 4 0", "waste pile '4' in 'MOVE 4 0': expected 0 to 3"),
    ("MOVE 0 x", "foundation 'x' in 'MOVE 0 x': expected 0 to 3"),
])
def test_malformed_answers_are_refused_with_the_exact_reason(line, message):
    assert _refusal(_position(), line) == message


@pytest.mark.parametrize("current, foundations, line, message", [
    (6, (3, 1, 1, 2), "BUILD 3", "'BUILD 3': foundation 3 takes Q, the current card is 6"),
    (11, (13, 1, 1, 2), "BUILD 0", "'BUILD 0': foundation 0 is complete, the current card is J"),
    (6, (3, 1, 1, 2), "MOVE 0 1", "'MOVE 0 1': K does not fit on foundation 1"),
    (6, (3, 1, 1, 2), "MOVE 1 0", "'MOVE 1 0': waste pile 1 is empty"),
    (0, (3, 1, 1, 2), "BUILD 0", "'BUILD 0': the stock is spent, there is no current card"),
    (0, (3, 1, 1, 2), "WASTE 1", "'WASTE 1': the stock is spent, there is no current card"),
    # the first MOVE action (8) with no current card: the waste top is what does not fit
    (0, (3, 1, 1, 2), "MOVE 0 0", "'MOVE 0 0': K does not fit on foundation 0"),
])
def test_illegal_answers_are_refused_with_the_exact_reason(current, foundations, line, message):
    assert _refusal(_position(current, foundations), line) == message
