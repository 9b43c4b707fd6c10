"""What every built-in bot needs: reading turns from stdin, answering, [PDATA], turn clocks.

Stdlib only: a bundled bot inlines this module.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

_first_input_at: float | None = None     # when the referee's first input reached this process


def read_line() -> str:
    """The next input line; exits quietly when the referee closes the pipe."""
    global _first_input_at
    if _first_input_at is None:
        waiting = time.perf_counter()
        line = sys.stdin.readline()
        arrived = time.perf_counter()
        # The referee's first-turn clock started when it sent this line: just now if the read had
        # to wait for it (a second seat waits for the first one's turn), else at some moment
        # since the process started, while it was still starting up.
        _first_input_at = arrived if arrived - waiting > FIRST_INPUT_WAIT_S else _STARTED
    else:
        line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.rstrip("\n")


def read_lines(count: int) -> list[str]:
    return [read_line() for _ in range(count)]


def answer(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def report(**figures) -> None:
    """Per-turn statistics on stderr in psyleague's ``[PDATA] key = value`` form."""
    sys.stderr.write("".join(f"[PDATA] {key} = {value}\n" for key, value in figures.items()))
    sys.stderr.flush()


STARTUP_MS = 50         # interpreter start before this module's import when /proc cannot tell (~25 ms)


def _process_start() -> float:
    """The ``perf_counter`` time this process started: from /proc on Linux, else an estimate."""
    now = time.perf_counter()
    try:
        with open("/proc/self/stat") as stat:
            ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return now - STARTUP_MS / 1000
    return now - min(max(age, 0.0), 1.0)


_STARTED = _process_start()
FIRST_INPUT_WAIT_S = 0.005   # a first read that blocks longer than this waited for the referee


class TurnClock:
    """Deadlines for a bot's turns: ``first_ms`` on its first turn, ``turn_ms`` after, less a margin."""

    def __init__(self, first_ms: float = 1000, turn_ms: float = 50, margin_ms: float = 10):
        self.first_ms = first_ms
        self.turn_ms = turn_ms
        self.margin_ms = margin_ms
        self.turns = 0
        self.started = 0.0

    def start_turn(self) -> float:
        """Mark the turn's start (call right after its first input line); returns the deadline.

        The referee's clock runs from its first send, so the first turn's budget also pays for
        the bot's start-up when that input was waiting for it: it is counted from the process's
        start then, and from the input's arrival when the bot was ready first (``read_line``
        tells them apart).
        """
        self.started = time.perf_counter()
        self.turns += 1
        later_turn = self.started + max(self.turn_ms - self.margin_ms, 1) / 1000
        if self.turns > 1:
            return later_turn
        arrived = _first_input_at if _first_input_at is not None else _STARTED
        # ...and 10 % of it is left for jitter that only a long first search runs into; never
        # less than a later turn's budget (a start-up slowed down by a busy machine can make the
        # input look older than it is, and a deadline already past would leave no search at all)
        first_turn = min(self.started, arrived) + max(self.first_ms * 0.9 - self.margin_ms, 1) / 1000
        return max(first_turn, later_turn)

    def elapsed_ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000


def add_budget_arguments(parser, *, unit: str, first_turn_ms: int = 1000, turn_ms: int = 100,
                         margin_ms: int = 15) -> None:
    """--seed, --iterations (a fixed, clock-free budget of ``unit`` per turn), and the clock's
    --first-turn-ms, --turn-ms and --margin-ms, defaulting to the game's time control."""
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: from the OS)")
    parser.add_argument("--iterations", type=int, default=None, metavar="N",
                        help=f"a fixed budget of N {unit} per turn, no clock "
                             "(deterministic with --seed; default: stop at the deadline)")
    parser.add_argument("--first-turn-ms", type=float, default=first_turn_ms, metavar="MS",
                        help=f"budget of the first turn (default: {first_turn_ms})")
    parser.add_argument("--turn-ms", type=float, default=turn_ms, metavar="MS",
                        help=f"budget of every later turn (default: {turn_ms})")
    parser.add_argument("--margin-ms", type=float, default=margin_ms, metavar="MS",
                        help=f"stop searching this long before the budget ends (default: {margin_ms})")


def add_fixed_policy_arguments(parser, *, uses_seed: bool) -> None:
    """--seed, --iterations and --margin-ms for a bot that does not search, so that every bot
    takes the same command line (a sweep or a script can pass them to any bot)."""
    parser.add_argument("--seed", type=int, default=None,
                        help="random seed (default: from the OS)" if uses_seed else
                        "accepted for a uniform command line; this bot is deterministic")
    parser.add_argument("--iterations", type=int, default=None, metavar="N",
                        help="accepted for a uniform command line; this bot does not search")
    parser.add_argument("--margin-ms", type=float, default=0, metavar="MS",
                        help="accepted for a uniform command line; this bot answers at once")


def clock_from(options) -> TurnClock:
    """The TurnClock of options made by ``add_budget_arguments``."""
    return TurnClock(options.first_turn_ms, options.turn_ms, options.margin_ms)


def random_bot_parser(description: str, *, uniform_command_line: bool = False) -> argparse.ArgumentParser:
    """The parser of a built-in ``random`` bot: --seed; with ``uniform_command_line``, also
    --iterations and --margin-ms, accepted and unused, as that game's search bots take them."""
    parser = argparse.ArgumentParser(description=description)
    if uniform_command_line:
        add_fixed_policy_arguments(parser, uses_seed=True)
    else:
        parser.add_argument("--seed", type=int, default=None, help="random seed (default: from the OS)")
    return parser


def play_random(options, read_choices, action_text=str, *, read_init=None, report_figures=False) -> None:
    """The loop of every built-in ``random`` bot: each turn, ``read_choices(init)`` reads the turn
    from stdin and returns its legal actions, and one of them, drawn uniformly with
    ``options.seed``, is answered. ``init`` is what ``read_init()`` read once before the first
    turn (None without it). ``report_figures``: [PDATA] like the search bots of the game."""
    rng = random.Random(options.seed)
    init = read_init() if read_init is not None else None
    while True:
        choices = read_choices(init)
        started = time.perf_counter()
        answer(action_text(rng.choice(choices)))
        if report_figures:
            report(iterations=0, depth=0, elapsed_ms=round((time.perf_counter() - started) * 1000, 1))
