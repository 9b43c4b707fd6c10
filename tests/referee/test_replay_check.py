"""verify_replay on a game whose referee failed: the rules failing again on the same answers is
agreement, failing where the replay says the game ended well is a difference."""
from __future__ import annotations

from referee.api import Ending
from referee.games.tictactoe import TicTacToe
from referee.match import PlayerSpec, play_match
from referee.replay import to_replay
from referee.replay_check import verify_replay
from referee.testing import ScriptedPlayer


class _FailsAtTurn3(TicTacToe):
    """tictactoe whose rules raise when the move of turn 3 is applied."""

    def new_state(self, seed, options):
        state = super().new_state(seed, options)
        def apply(self, actions):
            if self.turn == 3:
                raise ValueError("rules bug at turn 3")
            return type(self).__mro__[1].apply(self, actions)
        state.__class__ = type("Failing", (type(state),), {"__slots__": (), "apply": apply})
        return state


def test_a_referee_error_replayed_agrees_and_one_recorded_as_clean_does_not():
    game = _FailsAtTurn3()
    players = [ScriptedPlayer(lambda lines: lines[2]), ScriptedPlayer(lambda lines: lines[2])]
    result = play_match(game, players, seed=1)
    assert result.ending is Ending.REFEREE_ERROR and len(result.records) == 4
    replay = to_replay(result, [PlayerSpec("x", ("x",)), PlayerSpec("o", ("o",))],
                       game.time_control)
    assert verify_replay(game, replay, {}) is None
    del replay["result"]["referee_error"]
    difference = verify_replay(game, replay, {})
    assert (difference.turn, difference.field) == (3, "rules")
    assert difference.recomputed == "the rules raised ValueError: rules bug at turn 3"
