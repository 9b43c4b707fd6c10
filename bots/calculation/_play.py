"""The turn loop and the options the Calculation search bots share."""
from __future__ import annotations

import random
from collections.abc import Callable

from bots.calculation._belief import Belief, placed_fraction, won
from bots.calculation._input import read_init, read_turn
from bots.calculation._policy import greedy_action
from bots.runtime import add_budget_arguments, answer, clock_from, report
from bots.search.choice import Choice
from bots.search.deadline import Deadline
from referee.games.calculation.codec import action_text

REWARDS = {"cards": placed_fraction, "win": won}
GREEDY_SHARE = 0.5


def add_common_arguments(parser, unit: str) -> None:
    """--reward, --greedy-share, then --seed, --iterations and the clock options.

    The first turn defaults to half the referee's 1000 ms: the referee's clock starts before
    the interpreter has even imported the bot.
    """
    parser.add_argument("--reward", choices=tuple(REWARDS), default="cards",
                        help="what a playout is worth: the fraction of the deck on the foundations "
                             "(cards) or 1 for a won deal, else 0 (win) (default: cards)")
    parser.add_argument("--greedy-share", type=float, default=GREEDY_SHARE, metavar="P",
                        help="in playouts, a card that fits no foundation goes onto the greedy bot's "
                             f"waste pile with probability P, else a random one (default: {GREEDY_SHARE})")
    add_budget_arguments(parser, unit=unit, first_turn_ms=500, turn_ms=100, margin_ms=25)


Search = Callable[[Belief, "Deadline | None", random.Random], Choice]


def play_turns(options, search: Search) -> None:
    """Answer every turn with ``search``'s choice; [PDATA] iterations, depth and elapsed_ms.

    Turns without a real choice are answered at once: a single legal action, and the end of
    the deal once the stock is spent (then building every waste top that fits is optimal).
    """
    rng = random.Random(options.seed)
    clock = clock_from(options)
    read_init()
    while True:
        belief = Belief.of(read_turn())
        deadline_at = clock.start_turn()
        actions = belief.legal_actions()
        if len(actions) == 1 or not belief.current:
            choice = Choice(actions[0] if len(actions) == 1 else greedy_action(belief), 0, 0, 0.0)
        else:
            deadline = None if options.iterations is not None else Deadline(deadline_at)
            choice = search(belief, deadline, rng)
        answer(action_text(choice.action))
        report(iterations=choice.iterations, depth=choice.depth, elapsed_ms=round(clock.elapsed_ms(), 1))
