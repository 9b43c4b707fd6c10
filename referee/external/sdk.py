"""The CodinGame SDK's referee protocol (``com.codingame.gameengine.core.RefereeMain``), driven.

Both ways a message is a header line ``[[COMMAND] n]`` then n lines. botarena sends ``INIT``
(the player count, then ``key=value`` game properties: ``seed=N`` and the game file's
[parameters]), then for each frame ``GET_GAME_INFO``; the referee answers VIEW, [MONITORING],
INFOS, [SUMMARY, TOOLTIP], NEXT_PLAYER_INPUT, NEXT_PLAYER_INFO (player, expected lines, time
limit in ms), and botarena answers ``SET_PLAYER_OUTPUT`` with the bot's lines or
``SET_PLAYER_TIMEOUT``. What bites (read in the SDK's GameManager and GameRunner):

- MONITORING (SDK 4.7+) comes once, in the first frame; from then on every SET_PLAYER_OUTPUT
  starts with the measured milliseconds (a whole number, rounded down) and its n counts that line.
  The limit of NEXT_PLAYER_INFO is then the soft limit plus 50 ms (SOFT_TIMELIMIT_EXTRA): a
  player whose measured time is over the soft limit a third time is timed out by the referee
  (AbstractPlayer.execute), which botarena records as a timeout fault; margins are measured
  against the soft limit.
- A frame in which no player was executed asks player 0 for 0 lines: it is answered at once,
  without waiting for the bot. Its NEXT_PLAYER_INPUT still counts (the SDK's runner sends it to
  that bot, and a referee's initial input often comes that way): it goes before the bot's next
  input.
- The last frame (VIEW, INFOS, ..., UINPUT, METADATA, SCORES) follows the last output unasked;
  the referee then exits, so the next write may meet a closed pipe: that is the normal end.
- FAIL carries the referee's stack trace: the game is a referee error.
"""
from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.api import MAX_SCORE, Fault, RefereeError, RefereeOutcome, Reply, Request, Verdict
from referee.external.cause import cause_line
from referee.external.channel import Channel

HEADER = re.compile(r"\[\[(.+)\] ?([0-9]+)\]")
FRAME_COMMANDS = frozenset({"VIEW", "INFOS", "SUMMARY", "TOOLTIP", "MONITORING", "NEXT_PLAYER_INPUT",
                            "NEXT_PLAYER_INFO", "UINPUT", "METADATA", "SCORES", "FAIL"})
MAX_MESSAGE_LINES = 1 << 20
SOFT_EXTRA_MS = 50              # SDK 4.7+: the limit sent is the soft limit plus this
SOFT_EXCEEDS_ALLOWED = 2        # SDK 4.7+: the third answer over the soft limit times out


def message(command: str, lines: Sequence[str] = ()) -> list[str]:
    """A message as lines: its header, then its body."""
    return [f"[[{command}] {len(lines)}]", *lines]


@dataclass
class Frame:
    """What the referee sent for one frame (the SDK runner's "round")."""

    index: int
    view: list[str] = field(default_factory=list)
    summary: list[str] | None = None
    tooltips: list[tuple[str, int]] = field(default_factory=list)
    player_input: list[str] = field(default_factory=list)
    next_player: tuple[int, int, int] | None = None      # seat, expected lines, limit ms
    uinput: list[str] | None = None
    metadata: str | None = None
    scores: dict[int, float] | None = None

    def notes(self) -> dict[str, Any]:
        """The frame as a replay keeps it (what the viewer and the SDK's game log need)."""
        data: dict[str, Any] = {"frame": self.index, "view": self.view}
        if self.summary:
            data["summary"] = self.summary
        if self.tooltips:
            data["tooltips"] = [[text, seat] for text, seat in self.tooltips]
        if self.next_player is not None:
            data["player"], data["expected"], data["limit_ms"] = self.next_player
        for name in ("uinput", "metadata"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        if self.scores is not None:
            data["scores"] = [self.scores[seat] for seat in sorted(self.scores)]
        return data


class SdkReferee:
    """One game through an SDK referee: the seam's Referee over a :class:`Channel`."""

    steps_are_frames = True             # its turn is the frame: a fault names the seat's own turn

    def __init__(self, open_channel: Callable[[], Channel], *, parameters: dict[str, str],
                 referee_timeout_ms: int, grace_ms: int, label: str):
        self.open_channel = open_channel
        self.parameters = parameters
        self.timeout_s = referee_timeout_ms / 1000
        self.grace_ms = grace_ms
        self.label = label
        self.channel: Channel | None = None
        self.players = 0
        self.monitoring = False
        self.frames = 0
        self.turn = 0                       # the frame of the current request (replays' turn)
        self.step_slack_s = self.timeout_s  # the referee's own time per step (the watchdog's)
        self.scores: dict[int, float] | None = None
        self._asked: Request | None = None
        self._notes: list[dict[str, Any]] = []
        self._held: dict[int, list[str]] = {}     # input of 0-line frames, sent with the next
        self._soft_ms: int | None = None          # the soft limit of the asked seat (SDK 4.7+)
        self._exceeded: list[int] = []            # per seat: answers over the soft limit

    # -- the seam ----------------------------------------------------------------------------
    def start(self, seed: int, players: int) -> None:
        self.players = players
        self._exceeded = [0] * players
        self._answers = [0] * players             # per seat: times asked (its own turns)
        self.channel = self.open_channel()
        properties = [f"seed={seed}", *(f"{key}={value}" for key, value in self.parameters.items())]
        self._send("INIT", [str(players), *properties])

    def requests(self) -> Sequence[Request]:
        if self._asked is not None:
            return [self._asked]
        while self.scores is None:
            frame = self._next_frame()
            self._notes.append(frame.notes())
            if frame.scores is not None:
                self.turn = frame.index
                self.scores = frame.scores
                self._open().end_of_game()
                self.close()
                break
            assert frame.next_player is not None       # a frame ends at NEXT_PLAYER_INFO or SCORES
            seat, expected, limit_ms = frame.next_player
            lines = self._held.pop(seat, []) + frame.player_input
            if expected == 0:                   # a frame in which no player was executed
                if lines:
                    self._held[seat] = lines
                self._answer([], 0.0)
                continue
            self.turn = frame.index
            budget_ms, grace_ms, self._soft_ms = limit_ms, self.grace_ms, None
            if self.monitoring and limit_ms > SOFT_EXTRA_MS:
                # the budget is the soft limit (margins are measured against it); the SDK's
                # 50 ms extra is its own allowance, on top of ours
                self._soft_ms = budget_ms = limit_ms - SOFT_EXTRA_MS
                grace_ms += SOFT_EXTRA_MS
            self._asked = Request(seat, tuple(lines), expected, budget_ms, grace_ms)
            self._answers[seat] += 1
            return [self._asked]
        return []

    def submit(self, replies: Sequence[Reply]) -> Sequence[Verdict]:
        asked, self._asked = self._asked, None
        verdicts: list[Verdict] = []
        for reply in replies:
            if asked is None or reply.seat != asked.seat:
                raise RefereeError(f"{self.label}: a reply for seat {reply.seat} that was not asked")
            if reply.fault is not None:
                self._send("SET_PLAYER_TIMEOUT")
            else:
                self._answer(list(reply.lines), reply.latency_ms)
                verdicts.extend(self._soft_timeout(reply))
        # the referee judges the answers itself (it deactivates, scores -1...); botarena knows
        # only what the SDK's own rule on the time it sent implies
        return verdicts

    def _soft_timeout(self, reply: Reply) -> list[Verdict]:
        """A timeout fault when this answer is the seat's third over its soft limit (SDK 4.7+:
        the referee then times the player out, as for no answer)."""
        soft_ms = self._soft_ms
        measured = int(reply.latency_ms or 0.0)           # what the referee was sent
        if soft_ms is None or measured <= soft_ms:
            return []
        self._exceeded[reply.seat] += 1
        if self._exceeded[reply.seat] != SOFT_EXCEEDS_ALLOWED + 1:
            return []
        return [(reply.seat, f"answered in {measured} ms, over its soft limit of {soft_ms} ms for "
                 f"the third time: the referee times it out (CodinGame's "
                 f"SDK 4.7+; the limit it sends, {soft_ms + SOFT_EXTRA_MS} ms, is the soft one "
                 f"plus {SOFT_EXTRA_MS})", Fault.TIMEOUT)]

    def outcome(self) -> RefereeOutcome:
        if self.scores is None:
            raise RefereeError(f"{self.label}: the game has no scores")
        scores = [self.scores[seat] for seat in range(self.players)]
        ranks = [sum(1 for other in scores if other > score) for score in scores]
        return RefereeOutcome(tuple(scores), "the referee's scores", max(self._answers),
                              tuple(ranks), frames=self.frames)

    def step_notes(self) -> dict[str, Any] | None:
        """The frames read since the last call (view, summary, tooltips...), for the replay."""
        notes, self._notes = self._notes, []
        return {"frames": notes} if notes else None

    def close(self) -> None:
        channel, self.channel = self.channel, None
        if channel is not None:
            channel.close()

    # -- the protocol --------------------------------------------------------------------------
    def _open(self) -> Channel:
        if self.channel is None:
            raise RefereeError(f"{self.label}: the referee is closed")
        return self.channel

    def _send(self, command: str, lines: Sequence[str] = ()) -> bool:
        return self._open().write(message(command, lines))

    def _answer(self, lines: list[str], latency_ms: float | None) -> None:
        if self.monitoring:
            lines = [str(int(latency_ms or 0.0)), *lines]
        self._send("SET_PLAYER_OUTPUT", lines)

    def _next_frame(self) -> Frame:
        """Ask for the next frame and read it up to NEXT_PLAYER_INFO or SCORES."""
        self._send("GET_GAME_INFO")         # after the last frame: dropped or a closed pipe, fine
        deadline = time.perf_counter() + self.timeout_s
        frame = Frame(self.frames)
        self.frames += 1
        while True:
            command, lines = self._read_message(deadline)
            if self._take(frame, command, lines):
                return frame

    def _read_message(self, deadline: float) -> tuple[str, list[str]]:
        channel = self._open()
        header = channel.read_line(deadline)
        match = HEADER.fullmatch(header.strip())
        if match is None or match.group(1) not in FRAME_COMMANDS:
            raise self._garbage(f"{_cut(header)} where a [[COMMAND] n] header was expected")
        count = int(match.group(2))
        if count > MAX_MESSAGE_LINES:
            raise self._garbage(f"a {match.group(1)} of {count} lines")
        return match.group(1), [channel.read_line(deadline) for _ in range(count)]

    def _take(self, frame: Frame, command: str, lines: list[str]) -> bool:
        """Put a message into ``frame``; True when it ends the frame."""
        if command == "FAIL":
            trace = "\n".join(lines)
            raise RefereeError(f"{self.label} failed (FAIL): {cause_line(trace) or 'no stack trace'}",
                               trace + "\n" + self._stderr_tail())
        if command == "VIEW":
            frame.view = lines
        elif command == "SUMMARY":
            frame.summary = lines
        elif command == "TOOLTIP":
            frame.tooltips = self._tooltips(lines)
        elif command == "MONITORING":
            self.monitoring = True
        elif command == "NEXT_PLAYER_INPUT":
            frame.player_input = lines
        elif command == "UINPUT":
            frame.uinput = lines
        elif command == "METADATA":
            frame.metadata = "\n".join(lines)
        elif command == "NEXT_PLAYER_INFO":
            frame.next_player = self._next_player(lines)
            return True
        elif command == "SCORES":
            frame.scores = self._scores(lines)
            return True
        return False                        # INFOS: nothing in it a runner uses

    def _next_player(self, lines: list[str]) -> tuple[int, int, int]:
        numbers = [number for number in map(_integer, lines) if number is not None]
        if len(lines) != 3 or len(numbers) != 3:
            raise self._garbage(f"NEXT_PLAYER_INFO {lines!r}: expected player, lines, time limit")
        seat, expected, limit_ms = numbers
        if not 0 <= seat < self.players or expected < 0 or limit_ms <= 0:
            raise self._garbage(f"NEXT_PLAYER_INFO {lines!r}: player {seat} of {self.players}, "
                                f"{expected} lines, {limit_ms} ms")
        return seat, expected, limit_ms

    def _scores(self, lines: list[str]) -> dict[int, float]:
        scores: dict[int, float] = {}
        for line in lines:
            words = line.split()
            seat = _integer(words[0]) if len(words) == 2 else None
            score = _number(words[1]) if len(words) == 2 else None
            if seat is None or score is None or not 0 <= seat < self.players or seat in scores:
                raise self._garbage(f"SCORES line {_cut(line)}: expected 'player score', each "
                                    f"player of {self.players} once")
            if not math.isfinite(score) or abs(score) > MAX_SCORE:
                raise RefereeError(f"{self.label} gave a score botarena cannot keep: SCORES line "
                                   f"{_cut(line)} (a score is a finite number within "
                                   f"+-{MAX_SCORE:.0e})", self._stderr_tail())
            scores[seat] = score
        if len(scores) != self.players:
            raise self._garbage(f"SCORES for {len(scores)} of {self.players} players")
        return scores

    def _tooltips(self, lines: list[str]) -> list[tuple[str, int]]:
        pairs = []
        for index in range(0, len(lines) - 1, 2):
            seat = _integer(lines[index + 1])
            if seat is None:
                raise self._garbage(f"TOOLTIP player {_cut(lines[index + 1])}: not a number")
            pairs.append((lines[index], seat))
        return pairs

    def _garbage(self, what: str) -> RefereeError:
        return RefereeError(f"{self.label} printed garbage: {what}", self._stderr_tail())

    def _stderr_tail(self) -> str:
        return self.channel.stderr_tail() if self.channel is not None else ""


def _integer(text: str) -> int | None:
    try:
        return int(text.strip())
    except ValueError:
        return None


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _cut(text: str, width: int = 80) -> str:
    return repr(text) if len(text) <= width else repr(text[:width]) + "..."
