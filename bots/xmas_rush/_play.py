"""What the Xmas Rush search bots (pmc, duct, hybrid) share: options, the turn loop, the answer.

Each turn: the input becomes the rules' state (the bot is seat 0), the hidden quest order is
drawn at random (determinization), and the search runs on the fast ``SearchState`` with the
shared ``Evaluation``. PUSH turns search the 28 x 28 pushes; MOVE turns search the bot's
planned paths (the rules' ``move_actions``) against the opponent's ``AUTO`` move.
"""
from __future__ import annotations

import argparse
import gc
import random
import time
from collections import deque
from collections.abc import Callable

from bots.runtime import add_budget_arguments, answer, clock_from, read_line, report
from bots.search.choice import Choice
from bots.search.deadline import turn_budget
from bots.xmas_rush._evaluation import PROGRESS, SCALE, Evaluation, ranked_pushes
from bots.xmas_rush._input import TurnReader
from bots.xmas_rush._model import SearchState
from referee.games.xmas_rush.board import CELL_BITS, CELLS, plan_moves
from referee.games.xmas_rush.rules import PUSHES, Move, XmasRushState

# CodinGame's limits are 1000 ms for the first turn and 50 ms after; the first turn's budget also
# pays for the interpreter's start-up, which a busy machine can stretch to most of a second, and
# one more push searched for 900 ms instead of 600 buys little
FIRST_TURN_MS, TURN_MS = 600, 50
TILE_BITS = sum(15 << (CELL_BITS * cell) for cell in range(CELLS))
MARGIN_MS = 20
# the pushes' mean values differ by a few hundredths only, so UCB1's usual C = 1 would spread
# the playouts almost evenly (DUCT would play like pmc); with 0.2 it won all 5 games of a probe
# against C = 1, and 12-1-1 against pmc
C = 0.2

# search(model, rng, budget keywords, evaluation) -> Choice
Search = Callable[[SearchState, random.Random, dict, Evaluation], Choice]


def search_parser(description: str, *, depth: int = 2) -> argparse.ArgumentParser:
    """The options every Xmas Rush search bot has; ``--iterations`` counts playouts."""
    parser = argparse.ArgumentParser(description=description)
    add_budget_arguments(parser, unit="playouts", first_turn_ms=FIRST_TURN_MS, turn_ms=TURN_MS,
                         margin_ms=MARGIN_MS)
    parser.add_argument("--depth", "--playout-depth", dest="depth", type=int, default=depth,
                        metavar="TURNS",
                        help=f"cut playouts after TURNS game turns and evaluate (default: {depth}; "
                             "0 evaluates at once)")
    parser.add_argument("--scale", type=float, default=SCALE,
                        help=f"quests of lead worth a logistic unit in the evaluation (default: {SCALE})")
    parser.add_argument("--progress", type=float, default=PROGRESS,
                        help="weight of a seat's own gain beside its lead's in the evaluation "
                             f"(default: {PROGRESS})")
    parser.add_argument("--league", type=int, default=6, help="CodinGame league level (default: 6)")
    return parser


def add_tree_arguments(parser: argparse.ArgumentParser) -> None:
    """--c and --expand-threshold, the UCB1 tree knobs of DUCT and the hybrid."""
    parser.add_argument("--c", type=float, default=C,
                        help=f"UCB1 constant C in w/n + C*sqrt(2 ln t / n) (default: {C})")
    parser.add_argument("--expand-threshold", type=int, default=5,
                        help="visits a leaf gets before its children are added (default: 5)")


def collecting_moves(state: XmasRushState, seat: int = 0) -> list[Move]:
    """``seat``'s planned paths that collect as many quest items as any path can (PASS first
    when nothing can be collected): the MOVE answers worth searching."""
    east, south = state.connections()
    start = state.pos[seat]
    plans = plan_moves(east, south, start, state.quest_cells(seat))
    most = max((picked for _, picked in plans.values()), default=0)
    moves = [Move((), start)] if most == 0 else []
    moves.extend(Move(steps, cell) for cell, (steps, picked) in plans.items() if steps and picked == most)
    return moves or [Move((), start)]


def root_position(state: XmasRushState, rng: random.Random) -> SearchState:
    """The search's root for the bot (seat 0): decks drawn at random; on PUSH turns both seats'
    pushes best first by their value alone (``ranked_pushes``: what a search cut short, or a
    count of visits tied, favours), on MOVE turns its best-collecting paths."""
    if not state.deck_known:
        state.shuffle_decks(rng)
    if state.is_push_turn():
        root = SearchState.from_rules(state)
        root.root_actions = (ranked_pushes(root, 0), ranked_pushes(root, 1))
        return root
    return SearchState.from_rules(state, root_actions=(collecting_moves(state), None))


class StaleCounter:
    """Counts the PUSH turns in a row that changed nothing (the input does not say; ten end the game)."""

    def __init__(self) -> None:
        self.tiles = None
        self.stale = 0

    def update(self, state: XmasRushState) -> int:
        """The stale count at ``state``: the last PUSH turn left the same tiles and hands as the one
        before."""
        if state.is_push_turn():
            tiles = (state.board & TILE_BITS, tuple(hand & 15 for hand in state.hands), state.turn)
            if self.tiles is not None and tiles[:2] == self.tiles[:2] and tiles[2] == self.tiles[2] + 2:
                self.stale += 1
            else:
                self.stale = 0
            self.tiles = tiles
        return self.stale


def answer_text(action) -> str:
    """A push code as ``PUSH l D``; a ``Move`` as its wire form."""
    return str(PUSHES[action]) if isinstance(action, int) else str(action)


class OverrunGuard:
    """Stops the search as much sooner as this machine recently made the bot answer late.

    A search checks the clock often, but a process that the OS preempts near its deadline
    answers when it runs again: on a busy machine that is 10-40 ms late, enough to lose the game
    by timeout. The guard remembers by how much the last ``window`` answers overran their
    deadlines and moves the next deadline that much earlier (keeping at least ``floor_ms`` of
    search); on an idle machine the overrun, and so the correction, is a fraction of a ms.
    """

    def __init__(self, window: int = 8, floor_ms: float = 2.0) -> None:
        self.overruns: deque[float] = deque(maxlen=window)
        self.floor_ms = floor_ms

    def deadline(self, planned_at: float, started: float) -> float:
        correction = max(self.overruns, default=0.0)
        return max(planned_at - correction, min(planned_at, started + self.floor_ms / 1000))

    def record(self, deadline_at: float) -> None:
        """Call right after answering a turn whose search stopped at ``deadline_at``."""
        self.overruns.append(max(time.perf_counter() - deadline_at, 0.0))


def unblocked_push(choice: Choice, rng: random.Random, by_visits: bool):
    """After a PUSH turn in which both players pushed one line (nothing happened), one of the
    search's two best pushes at random instead of its best.

    Two bots that agree on the best line block each other, and deterministic choices repeat that
    until the ten-stale-turns draw (it happened from the first turn on, in the symmetric opening);
    mixing between the top two makes a repeat unlikely. ``by_visits``: rank by visits (tree
    searches), else by mean value (pmc, whose visits are even).
    """
    if len(choice.stats) < 2:
        return choice.action
    ranked = sorted(choice.stats, key=(lambda entry: (entry.visits, entry.value)) if by_visits
                    else (lambda entry: entry.value), reverse=True)
    return ranked[int(rng.random() * 2)].action


def play(options, search: Search, *, by_visits: bool = True) -> None:
    """Answer every turn with ``search`` (``by_visits``: how it ranks its root actions, see
    ``unblocked_push``); [PDATA] iterations, depth, value, elapsed_ms."""
    gc.disable()                # search trees hold no cycles; a collection would cost a turn
    rng = random.Random(options.seed)
    reader = TurnReader(options.league)
    stale = StaleCounter()
    clock = clock_from(options)
    guard = OverrunGuard()
    while True:
        first = read_line()
        deadline_at = guard.deadline(clock.start_turn(), clock.started)
        state = reader.read(first)
        state.stale = stale.update(state)
        root = root_position(state, rng)
        actions = root.legal_actions(0)
        if len(actions) == 1:
            choice = Choice(actions[0], 0, 0, 0.5)
        else:
            choice = search(root, rng, turn_budget(options.iterations, deadline_at),
                            Evaluation(root, options.scale, options.progress))
        action = choice.action
        if state.is_push_turn() and state.stale:
            action = unblocked_push(choice, rng, by_visits)
        answer(answer_text(action))
        if options.iterations is None:
            guard.record(deadline_at)
        report(iterations=choice.iterations, depth=choice.depth, value=f"{choice.value:.4g}",
               elapsed_ms=f"{clock.elapsed_ms():.1f}")
