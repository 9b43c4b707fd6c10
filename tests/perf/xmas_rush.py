"""Speed of the xmas_rush rules, the figures search bots live on: ``python -m tests.perf.xmas_rush``.

Each figure runs for about ``--seconds`` of CPU time on one core and prints operations per CPU
second (a busy machine still slows the figures down, through caches and clock speed):
a single push (``push_line``), a whole PUSH turn (``apply`` with both pushes), a
reachability computation on a freshly pushed board (connection masks + flood fill)
and on a cached one, MOVE-turn legal actions (paths collecting quest items),
``clone``, and complete random games (uniform legal actions) in process.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time

from referee.games.xmas_rush.board import connections, reachable
from referee.games.xmas_rush.rules import PUSHES, XmasRushState


def _rate(run, seconds: float) -> float:
    """Calls of ``run(n)`` (n operations each) for ``seconds`` of this process's CPU time: ops per CPU second.

    CPU time, not wall time, so that other processes on a shared machine do not count.
    """
    done, batch = 0, 256
    started = time.process_time()
    while True:
        run(batch)
        done += batch
        elapsed = time.process_time() - started
        if elapsed >= seconds:
            return done / elapsed
        batch = min(batch * 2, 1 << 16)


def _positions(seed: int, count: int = 64) -> list[XmasRushState]:
    rng = random.Random(seed)
    states = []
    for index in range(count):
        state = XmasRushState.new_game(seed + index)
        for _ in range(rng.randrange(0, 40)):
            if state.is_over():
                break
            state.apply([rng.choice(state.legal_actions(seat)) for seat in (0, 1)])
        if state.is_over():
            state = XmasRushState.new_game(seed + index)
        states.append(state)
    return states


def measure(seconds: float, seed: int) -> list[tuple[str, float, str]]:
    rng = random.Random(seed)
    states = _positions(seed)
    pushes = [rng.choice(PUSHES) for _ in range(4096)]
    push_turns = [state for state in states if state.is_push_turn()] or states[:1]
    move_turns = [state for state in states if not state.is_push_turn()] or states[:1]
    boards = []
    board_state = states[0].clone()
    for push in pushes:
        board_state.push_line(0, push)
        boards.append(board_state.board)
    cached = [state.connections() + (state.pos[0],) for state in states]

    def single_pushes(n):
        state = states[0].clone()
        push_line = state.push_line
        for index in range(n):
            push_line(index & 1, pushes[index & 4095])

    def push_turn_applies(n):
        for index in range(n):
            state = push_turns[index % len(push_turns)].clone()
            state.apply((pushes[index & 4095], pushes[(index * 7 + 3) & 4095]))

    def fresh_reachability(n):
        for index in range(n):
            east, south = connections(boards[index & 4095])
            reachable(east, south, index % 49)

    def cached_reachability(n):
        for index in range(n):
            east, south, start = cached[index % len(cached)]
            reachable(east, south, start)

    def move_generation(n):
        for index in range(n):
            state = move_turns[index % len(move_turns)]
            state._conn = None                       # as after the push that led here
            state.legal_actions(index & 1)

    def clones(n):
        state = states[0]
        for _ in range(n):
            state.clone()

    play_rng = random.Random(seed)

    def random_games(n):
        for index in range(n):
            state = XmasRushState.new_game(seed + index)
            choice = play_rng.choice
            while not state.is_over():
                state.apply((choice(state.legal_actions(0)), choice(state.legal_actions(1))))

    figures = [("pushes (push_line)", single_pushes, "target >= 300,000/s"),
               ("PUSH turns (clone + apply)", push_turn_applies, ""),
               ("reachability, freshly pushed board", fresh_reachability, "target >= 100,000/s"),
               ("reachability, cached connections", cached_reachability, ""),
               ("MOVE-turn legal_actions", move_generation, ""),
               ("clone", clones, "")]
    results = [(name, _rate(run, seconds), note) for name, run, note in figures]
    results.append(("complete random games", _rate_games(random_games, seconds), "150 game turns"))
    return results


def _rate_games(run, seconds: float) -> float:
    done = 0
    started = time.process_time()
    while time.process_time() - started < seconds or done == 0:
        run(1)
        done += 1
    return done / (time.process_time() - started)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per figure (default: 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the positions measured")
    return parser


def main(argv: list[str] | None = None) -> int:
    options = build_parser().parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"xmas_rush rules, {platform.python_implementation()} {platform.python_version()}, one core "
          f"(load average {load:.1f} on {os.cpu_count()} cores; per CPU second)")
    for name, rate, note in measure(options.seconds, options.seed):
        print(f"  {name:<38} {rate:>12,.0f} /s  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
