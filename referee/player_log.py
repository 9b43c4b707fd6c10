"""Every line between the match loop and its players, through ``logging`` (``botarena play -v``).

With the ``botarena.match`` logger at DEBUG, the loop wraps each player in a :class:`LoggedPlayer`:
each input line it is sent is logged as ``seat0 << line``, each answer line as
``seat0 >> line (12.3 ms)``, and a fault as ``seat0 !! timeout: no answer within 60 ms``. Off
(the default), no player is wrapped: the per-answer path is the same as without this module.
"""
from __future__ import annotations

import logging
from collections.abc import Sequence

from referee.api import Answer, BotFault, Player

log = logging.getLogger("botarena.match")


def logged(players: list[Player]) -> list[Player]:
    """``players`` wrapped in LoggedPlayers when the log is on (DEBUG), else as they are."""
    if not log.isEnabledFor(logging.DEBUG):
        return players
    return [LoggedPlayer(player, seat) for seat, player in enumerate(players)]


class LoggedPlayer:
    """A Player that logs its lines each way and its faults, then does what ``player`` does."""

    def __init__(self, player: Player, seat: int):
        self.player, self.label = player, f"seat{seat}"
        self.name = player.name

    @property
    def pdata(self) -> dict[str, str]:
        return self.player.pdata

    @property
    def stderr_total_bytes(self) -> int:
        return self.player.stderr_total_bytes

    def send(self, lines: Sequence[str], timeout_s: float) -> float:
        for line in lines:
            log.debug("%s << %s", self.label, line)
        try:
            return self.player.send(lines, timeout_s)
        except BotFault as fault:
            self._fault(fault)
            raise

    def read_line(self, started: float, timeout_s: float, last: bool = True) -> Answer:
        try:
            answer = self.player.read_line(started, timeout_s, last)
        except BotFault as fault:
            self._fault(fault)
            raise
        log.debug("%s >> %s (%.1f ms)", self.label, answer.line, answer.latency_ms)
        return answer

    def _fault(self, fault: BotFault) -> None:
        log.debug("%s !! %s: %s", self.label, fault.kind.value, fault.detail)

    def take_stderr(self) -> str:
        return self.player.take_stderr()

    def line_following(self) -> str | None:
        return self.player.line_following()

    def end_input(self) -> None:
        self.player.end_input()

    def close(self) -> None:
        self.player.close()
