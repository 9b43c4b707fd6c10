"""What a game author and the tests use: players in this process, and the conformance check.

``check_game(game)`` is the check every built-in game passes (tests/referee/games/): its static
facts, its codec against the :class:`~referee.api.Codec` contract, and random playouts from a few
seeds, each step checked (input lines, legal actions, each action's wire form parsed back, the
turn count), each game played twice the same.

``ScriptedPlayer(answer)`` plays through the match loop with no process: ``answer`` gets a
turn's input lines and returns the answer line, so
``play_match(load_game("tictactoe"), [ScriptedPlayer(f), ScriptedPlayer(g)], seed=1)`` plays a
whole game in this process. ``answer`` may also return an :class:`~referee.api.Answer` (to give
the latency, CPU time and wait the loop records) or raise :class:`~referee.api.BotFault` (a
crash, a timeout); an answer later than its deadline is a timeout, as from a bot process.
"""
from __future__ import annotations

import inspect
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from referee.api import Answer, BotFault, Codec, Fault, Game, State

__all__ = ["ScriptedPlayer", "check_game", "random_playout"]


class ScriptedPlayer:
    """A player in this process, answering with ``answer(input lines)`` (see the module)."""

    def __init__(self, answer: Callable[[list[str]], str | Answer], name: str = "scripted", *,
                 following: str | None = None):
        self.name = name
        self.pdata: dict[str, str] = {}
        self.stderr_total_bytes = 0
        self.stderr = ""                # what take_stderr() hands over next: a test may set it
        self.following = following      # the line line_following() reports (quoted), if any
        self.inputs: list[list[str]] = []   # every input block it was sent, in order
        self.closed = self.input_ended = False
        self._answer = answer
        self._pending: list[str] = []
        self._lines: list[Answer] = []  # the rest of a multi-line answer

    def send(self, lines: Sequence[str], timeout_s: float) -> float:
        if self.closed or self.input_ended:
            raise BotFault(Fault.CRASH, "closed its input")
        self._pending.extend(lines)
        return time.perf_counter()

    def read_line(self, started: float, timeout_s: float, last: bool = True) -> Answer:
        if not self._lines:
            block, self._pending = self._pending, []
            self.inputs.append(block)
            given = self._answer(block)
            if not isinstance(given, Answer):
                given = Answer(given, -1.0, None, None)     # (-1: timed when read)
            elif given.latency_ms > timeout_s * 1000:
                raise BotFault(Fault.TIMEOUT, f"no answer within {timeout_s * 1000:.0f} ms")
            # each line of a multi-line answer: the answer's latency; its CPU time and wait
            # with the last line only (the loop adds the lines' readings up)
            *first, final = given.line.split("\n")
            self._lines = [given._replace(line=line, cpu_ms=None, wait_ms=None) for line in first]
            self._lines.append(given._replace(line=final))
        answer = self._lines.pop(0)
        if answer.latency_ms < 0:
            return answer._replace(latency_ms=(time.perf_counter() - started) * 1000)
        return answer

    def take_stderr(self) -> str:
        text, self.stderr = self.stderr, ""
        return text

    def line_following(self) -> str | None:
        return None if self.following is None else repr(self.following)

    def end_input(self) -> None:
        self.input_ended = True

    def close(self) -> None:
        self.closed = True


# -- the conformance check ---------------------------------------------------------------------

_CODEC_PARAMETERS = {"init_lines": 2, "turn_lines": 2, "parse_action": 3, "action_text": 1}
_MAX_STEPS = 10_000


def _require(ok: bool, message: str) -> None:
    if not ok:                          # (not assert: the check holds under python -O too)
        raise AssertionError(message)


def check_game(game: Game, seeds: Sequence[int] = (1, 2, 3)) -> None:
    """AssertionError naming the first way ``game`` breaks the Game contract (see the module)."""
    name = game.name or type(game).__name__
    _require(bool(game.name and game.description), f"{name}: a game needs a name and a description")
    low, high = game.seats
    _require(1 <= low <= high, f"{name}: seats {game.seats} must be (minimum, maximum) >= 1")
    _check_codec(game, name)
    options = game.parse_options({})
    for seed in seeds:
        final = random_playout(game, seed, low, options)
        again = random_playout(game, seed, low, options)
        _require(list(final.scores()) == list(again.scores()),
                 f"{name} seed {seed}: the same seed and actions gave other scores")
    _check_clone(game, seeds[0], options)


def _check_codec(game: Game, name: str) -> None:
    """The Game forwards to its codec as the base class does, and the codec is a Codec."""
    _require(isinstance(game.codec, Codec), f"{name}: codec {game.codec!r} lacks turn_lines, "
             "parse_action or action_text")
    for method, count in _CODEC_PARAMETERS.items():
        _require(method not in type(game).__dict__, f"{name}'s Game repeats {method} (the base "
                 "class forwards it to the codec)")
        function = getattr(game.codec, method, None)
        if function is None:            # only init_lines may be left out: no init block
            continue
        found = list(inspect.signature(function).parameters)
        _require(len(found) == count, f"{name}: {method}{tuple(found)} takes {len(found)} "
                 f"parameter(s), the Codec contract {count}")


def random_playout(game: Game, seed: int, players: int, options: dict[str, Any] | None = None) -> State:
    """Random legal actions from ``seed``'s position to the end, checking every step; the
    final state."""
    name, rng = game.name, random.Random(seed)
    state = game.new_state(seed, game.parse_options({}) if options is None else options)
    for _ in range(_MAX_STEPS):
        if state.is_over():
            break
        actions = [_random_action(game, state, seat, rng) for seat in state.acting_seats()]
        turn = state.turn
        state.apply(actions)
        _require(state.turn == turn + 1, f"{name} seed {seed}: turn {turn} applied, the state "
                 f"says turn {state.turn} (expected {turn + 1})")
    else:
        raise AssertionError(f"{name} seed {seed}: not over after {_MAX_STEPS} steps")
    _require(bool(state.end_reason()), f"{name} seed {seed}: an ended game gives no end reason")
    _require(len(state.scores()) == players, f"{name} seed {seed}: {len(state.scores())} "
             f"scores for {players} player(s)")
    return state


def _random_action(game: Game, state: State, seat: int, rng: random.Random) -> Any:
    where = f"{game.name} turn {state.turn} seat {seat}"
    lines = game.turn_lines(state, seat)
    _require(bool(lines) and all(isinstance(line, str) and "\n" not in line for line in lines),
             f"{where}: input lines must be strings without newlines, got {lines[:3]!r}")
    legal = list(state.legal_actions(seat))
    _require(bool(legal), f"{where}: a seat asked to act has no legal action")
    action = rng.choice(legal)
    text = game.action_text(action)
    _require(game.parse_action(state, seat, text) == action,
             f"{where}: {text!r} (action {action!r}) does not parse back to that action")
    return action


def _check_clone(game: Game, seed: int, options: dict[str, Any]) -> None:
    state = game.new_state(seed, options)
    before = [game.turn_lines(state, seat) for seat in state.acting_seats()]
    copy = state.clone()
    copy.apply([copy.legal_actions(seat)[0] for seat in copy.acting_seats()])
    _require([game.turn_lines(state, seat) for seat in state.acting_seats()] == before,
             f"{game.name}: playing on a clone changed the original")
