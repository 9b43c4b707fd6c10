"""referee.testing: the conformance check names what a broken game breaks; ScriptedPlayer's
answers, timeouts and multi-line answers."""
from __future__ import annotations

import itertools
import re
import types

import pytest

from referee.api import Answer, BotFault, Fault
from referee.games import load_game
from referee.games.number_maze import NumberMaze
from referee.games.tictactoe import TicTacToe
from referee.games.tictactoe import codec as tictactoe_codec
from referee.testing import ScriptedPlayer, check_game


class _Repeats(TicTacToe):
    def turn_lines(self, state, seat):
        return super().turn_lines(state, seat)


class _Undescribed(TicTacToe):
    description = ""


def _codec(**functions) -> types.SimpleNamespace:
    """tictactoe's codec with some functions replaced."""
    names = ("turn_lines", "parse_action", "action_text")
    return types.SimpleNamespace(**{**{name: getattr(tictactoe_codec, name) for name in names},
                                    **functions})


class _WrongWire(TicTacToe):
    codec = _codec(action_text=lambda action: "1 1")


class _WrongArity(TicTacToe):
    codec = _codec(init_lines=lambda state: [])


class _NoCodec(TicTacToe):
    codec = types.SimpleNamespace(turn_lines=tictactoe_codec.turn_lines)


_unseeded = itertools.count()


class _Unseeded(NumberMaze):
    def new_state(self, seed, options):
        return super().new_state(next(_unseeded), options)


class _SharedClone(TicTacToe):
    def new_state(self, seed, options):
        state = super().new_state(seed, options)
        state.__class__ = type("Shared", (type(state),), {"__slots__": (), "clone": lambda self: self})
        return state


@pytest.mark.parametrize("game, message", [
    (_Repeats(), "tictactoe's Game repeats turn_lines (the base class forwards it to the codec)"),
    (_Undescribed(), "tictactoe: a game needs a name and a description"),
    (_WrongWire(), "tictactoe turn 0 seat 0: '1 1' (action 2) does not parse back to that action"),
    (_WrongArity(), "tictactoe: init_lines('state',) takes 1 parameter(s), the Codec contract 2"),
    (_NoCodec(), "lacks turn_lines, parse_action or action_text"),
    (_Unseeded(), "number_maze seed 1: the same seed and actions gave other scores"),
    (_SharedClone(), "tictactoe: playing on a clone changed the original"),
], ids=["repeats", "undescribed", "wire", "arity", "no codec", "unseeded", "clone"])
def test_the_conformance_check_names_what_a_game_breaks(game, message):
    with pytest.raises(AssertionError, match=re.escape(message)):
        check_game(game)


def test_every_built_in_game_passes_the_check():
    for name in ("tictactoe", "othello"):
        check_game(load_game(name), seeds=(4,))


def test_a_scripted_player_answers_each_block_and_times_its_answers():
    player = ScriptedPlayer(lambda lines: f"{len(lines)} lines\nsecond")
    started = player.send(["a", "b"], 0.1)
    first = player.read_line(started, 0.1)
    assert (first.line, first.cpu_ms, first.wait_ms) == ("2 lines", None, None)
    assert 0 <= first.latency_ms < 100
    assert player.read_line(started, 0.1).line == "second"
    assert player.inputs == [["a", "b"]] and player.take_stderr() == ""
    late = ScriptedPlayer(lambda lines: Answer("x\ny", 101.0, 4.0, 2.0))
    with pytest.raises(BotFault) as fault:
        late.read_line(late.send(["a"], 0.1), 0.1)
    assert (fault.value.kind, fault.value.detail) == (Fault.TIMEOUT, "no answer within 100 ms")
    timed = ScriptedPlayer(lambda lines: Answer("x\ny", 99.0, 4.0, 2.0))
    started = timed.send(["a"], 0.1)
    assert [timed.read_line(started, 0.1), timed.read_line(started, 0.1)] == \
        [Answer("x", 99.0, None, None), Answer("y", 99.0, 4.0, 2.0)]
    timed.end_input()
    with pytest.raises(BotFault, match="closed its input"):
        timed.send(["a"], 0.1)
