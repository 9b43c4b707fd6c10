"""CodinGame's Tic-Tac-Toe protocol.

Each turn: ``opponentRow opponentCol`` (``-1 -1`` on the very first turn of the
game), ``validActionCount``, then one ``row col`` line per valid action.
Answer: ``row col``.
"""
from __future__ import annotations

from referee.api import InvalidAction
from referee.games.tictactoe.rules import TicTacToeState


def turn_lines(state: TicTacToeState, seat: int) -> list[str]:
    last = state.last_move
    lines = [f"{last // 3} {last % 3}" if last >= 0 else "-1 -1"]
    actions = state.legal_actions()
    lines.append(str(len(actions)))
    lines.extend(f"{cell // 3} {cell % 3}" for cell in actions)
    return lines


def parse_action(state: TicTacToeState, seat: int, line: str) -> int:
    parts = line.split()
    if len(parts) != 2 or not all(part.lstrip("-").isdigit() for part in parts):
        raise InvalidAction(f"expected 'row col', got {line!r}")
    row, col = int(parts[0]), int(parts[1])
    if not (0 <= row < 3 and 0 <= col < 3):
        raise InvalidAction(f"cell {line!r} is off the board")
    cell = row * 3 + col
    if cell not in state.legal_actions():
        raise InvalidAction(f"cell {line!r} is already taken")
    return cell


def action_text(cell: int) -> str:
    return f"{cell // 3} {cell % 3}"


def state_from_lines(lines: list[str], previous: TicTacToeState | None) -> TicTacToeState:
    """The position a bot can rebuild from one turn's block and its own previous state.

    The bot keeps its own state: it applies the opponent's move from the first line
    (``-1 -1`` on the game's first turn: nothing to apply).
    """
    state = previous.clone() if previous is not None else TicTacToeState()
    row, col = map(int, lines[0].split())
    if row >= 0:
        state.play(row * 3 + col)
    return state
