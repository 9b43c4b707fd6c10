"""Reading Othello's protocol in a bot, and the turn loop the search bots share."""
from __future__ import annotations

import random
from collections.abc import Callable

from bots.othello._evaluation import OrderedState
from bots.runtime import add_budget_arguments, answer, clock_from, read_line, read_lines, report
from bots.search.choice import Choice
from bots.search.deadline import Deadline
from referee.games.othello.codec import SIZE, action_text, moves_from_lines, state_from_lines
from referee.games.othello.rules import OthelloState


def read_init() -> int:
    """Our id (0: black); the board size line is read and must be 8."""
    my_id = int(read_line())
    size = int(read_line())
    if size != SIZE:
        raise SystemExit(f"board size {size} is not supported (only {SIZE})")
    return my_id


def read_turn(my_id: int) -> tuple[OthelloState, list[int]]:
    """The position (us to move) and the legal moves the referee listed."""
    lines = read_lines(SIZE)
    lines.append(read_line())
    lines.extend(read_lines(int(lines[-1])))
    return state_from_lines(my_id, lines), moves_from_lines(lines)


def add_clock_arguments(parser, unit: str) -> None:
    """--seed, --iterations and the clock options with Othello's defaults.

    The first turn defaults to half the referee's 1000 ms: the referee's clock starts before
    the interpreter has even imported the bot, which takes a good share of that on a busy machine.
    """
    add_budget_arguments(parser, unit=unit, first_turn_ms=500, turn_ms=100, margin_ms=25)


Search = Callable[[OrderedState, "Deadline | None", random.Random], Choice]


def play_turns(options, search: Search) -> None:
    """Answer every turn with ``search``'s choice; [PDATA] iterations, depth and elapsed_ms.

    With ``--iterations`` the search gets no deadline, so its answer depends only on the seed.
    """
    rng = random.Random(options.seed)
    clock = clock_from(options)
    my_id = read_init()
    while True:
        state, _ = read_turn(my_id)
        deadline_at = clock.start_turn()
        deadline = None if options.iterations is not None else Deadline(deadline_at)
        choice = search(OrderedState.of(state), deadline, rng)
        answer(action_text(choice.action))
        report(iterations=choice.iterations, depth=choice.depth, elapsed_ms=round(clock.elapsed_ms(), 1))
