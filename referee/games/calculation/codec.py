"""Calculation's CodinGame-style protocol (a botarena design: CodinGame has no such game).

Initialization block (once): ``foundationCount wastePileCount`` (``4 4``).
Each turn:
  ``card unseen``: the current card (1 = ace ... 13 = king; 0 once the stock is spent) and the
      number of cards still face down in the stock (not counting the current card);
  4 lines, foundations 0-3 (steps +1, +2, +3, +4): ``size top``;
  4 lines, waste piles 0-3: ``size`` then the pile's cards, bottom first (top last).
The order of the stock is never sent: a card is known once it is turned.
Answer (0-based indexes; words after the command are ignored):
  ``BUILD f``   the current card onto foundation f;
  ``WASTE w``   the current card onto waste pile w;
  ``MOVE w f``  the top card of waste pile w onto foundation f.
"""
from __future__ import annotations

from referee.api import InvalidAction
from referee.games.calculation.rules import (
    FOUNDATIONS,
    FROM_WASTE,
    SEQUENCES,
    TO_WASTE,
    WASTE_PILES,
    CalculationState,
    move_action,
)

RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}


def rank_name(card: int) -> str:
    return RANK_NAMES.get(card, str(card))


def init_lines(state: CalculationState, seat: int) -> list[str]:
    return [f"{FOUNDATIONS} {WASTE_PILES}"]


def turn_lines(state: CalculationState, seat: int) -> list[str]:
    lines = [f"{state.current} {len(state.stock)}"]
    lines.extend(f"{size} {SEQUENCES[f][size]}" for f, size in enumerate(state.foundations))
    lines.extend(" ".join(map(str, [len(cards), *cards])) for cards in state.wastes)
    return lines


def _index(word: str, limit: int, what: str, line: str) -> int:
    if not word.isdigit() or int(word) >= limit:
        raise InvalidAction(f"{what} {word!r} in {line!r}: expected 0 to {limit - 1}")
    return int(word)


def action_from_text(line: str) -> int:
    """The action a line names, checked for form only (not legality)."""
    words = line.split()
    command = words[0].upper() if words else ""
    if command == "BUILD" and len(words) >= 2:
        return _index(words[1], FOUNDATIONS, "foundation", line)
    if command == "WASTE" and len(words) >= 2:
        return TO_WASTE + _index(words[1], WASTE_PILES, "waste pile", line)
    if command == "MOVE" and len(words) >= 3:
        return move_action(_index(words[1], WASTE_PILES, "waste pile", line),
                           _index(words[2], FOUNDATIONS, "foundation", line))
    raise InvalidAction(f"expected 'BUILD f', 'WASTE w' or 'MOVE w f', got {line!r}")


def parse_action(state: CalculationState, seat: int, line: str) -> int:
    action = action_from_text(line)
    if state.is_legal(action):
        return action
    if action < FROM_WASTE and not state.current:
        raise InvalidAction(f"{line!r}: the stock is spent, there is no current card")
    if action < TO_WASTE:
        need = SEQUENCES[action][state.foundations[action] + 1] if state.foundations[action] < 13 else 0
        wanted = f"takes {rank_name(need)}" if need else "is complete"
        raise InvalidAction(f"{line!r}: foundation {action} {wanted}, the current card is "
                            f"{rank_name(state.current)}")
    pile, foundation = divmod(action - FROM_WASTE, FOUNDATIONS)
    if not state.wastes[pile]:
        raise InvalidAction(f"{line!r}: waste pile {pile} is empty")
    raise InvalidAction(f"{line!r}: {rank_name(state.wastes[pile][-1])} does not fit on foundation "
                        f"{foundation}")


def action_text(action: int) -> str:
    if action < TO_WASTE:
        return f"BUILD {action}"
    if action < FROM_WASTE:
        return f"WASTE {action - TO_WASTE}"
    pile, foundation = divmod(action - FROM_WASTE, FOUNDATIONS)
    return f"MOVE {pile} {foundation}"


def state_from_lines(turn: list[str]) -> CalculationState:
    """The position a bot sees, from one turn block.

    Its ``stock`` holds the unseen cards in sorted order, since their real order is hidden:
    shuffle it (``state.determinized(rng)``) before simulating the rest of the deal.
    """
    current, unseen = map(int, turn[0].split())
    foundations = [int(turn[1 + f].split()[0]) for f in range(FOUNDATIONS)]
    wastes = [[int(word) for word in turn[1 + FOUNDATIONS + pile].split()[1:]]
              for pile in range(WASTE_PILES)]
    state = CalculationState([], foundations, wastes, current)
    state.stock = state.unseen_cards()
    if len(state.stock) != unseen:
        raise ValueError(f"turn block shows {unseen} unseen cards but its cards leave {len(state.stock)}")
    state.turn = 0
    return state
