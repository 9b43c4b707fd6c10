"""The match loop's results, exactly (mutation testing: ``python -m tests.mutation.runner match``):
short games between tiny real bot processes with every recorded field checked, and the pure
helpers (ranks, the end reason, summaries, JSON) against worked values."""
from __future__ import annotations

import os
import sys
import time

import pytest

from referee.api import Answer, Fault, FaultRecord, MatchCancelled, TimeControl, UsageError
from referee.games import load_game
from referee.games.tictactoe import TicTacToe
from referee.harness.output_buffering import LIBSTDBUF
from referee.harness.process import BotStartError
from referee.harness.sandbox import bwrap_program
from referee.harness.watchdog import GameWatchdog
from referee.match import (
    MatchResult,
    PlayerResult,
    PlayerSpec,
    _pdata_values,
    latency_summary,
    play_match,
    rank_seats,
    settle,
)
from referee.testing import ScriptedPlayer
from tests.conftest import skip_when_traced
from tests.fixtures.hostile import bot_processes_of

TICTACTOE = load_game("tictactoe")
DUEL = load_game("number_maze_duel")
CLOCK = TimeControl(first_turn_ms=3000, turn_ms=2000, grace_ms=10)
STDBUF = "L" if LIBSTDBUF else None         # line buffering's variable for C stdio

# plays the first valid cell; says on stderr what it was started with (its name, line
# buffering, outside a sandbox's PID namespace, its memory cap in MB), on its first turn
FIRST_CELL = """import os, resource, sys, time
first = True
while True:
    last = sys.stdin.readline()
    if not last:
        break
    cells = [sys.stdin.readline().strip() for _ in range(int(sys.stdin.readline()))]
    if first:
        limit = resource.getrlimit(resource.RLIMIT_DATA)[0]
        sys.stderr.write(f"{os.environ.get('WHO')} {os.environ.get('_STDBUF_O')} {os.getpid() > 9} "
                         f"{limit // 2 ** 20 if limit > 0 else limit}\\n[PDATA] depth = 3\\n")
        sys.stderr.flush()
        first = False
    busy_until = time.perf_counter() + 0.003        # long enough for a CPU time reading
    while time.perf_counter() < busy_until:
        pass
    print(cells[0], flush=True)
"""
# answers its first turn (with 3000 bytes of stderr), then a line the game refuses, then nothing
REFUSED_THEN = """import sys, time
sys.stdin.readline(); cells = [sys.stdin.readline() for _ in range(int(sys.stdin.readline()))]
sys.stderr.write("e" * 2999 + "\\n"); sys.stderr.flush()
print(cells[0].strip(), flush=True)
sys.stdin.readline(); [sys.stdin.readline() for _ in range(int(sys.stdin.readline()))]
print("debug: thinking", flush=True)
time.sleep(5)
"""
# number_maze_duel: DOWN where it is open, else UP; crashes on its third turn when CRASH is
# set, sleeps SLOW seconds before its second answer
UP_DOWN = """import os, sys, time
height = int(sys.stdin.readline().split()[0])
for turn in range(99):
    if not sys.stdin.readline():
        break
    score, row, col = map(int, sys.stdin.readline().split()); sys.stdin.readline()
    rows = [sys.stdin.readline() for _ in range(height)]
    if turn == 2 and os.environ.get("CRASH"):
        sys.exit(3)
    if turn == 1 and os.environ.get("SLOW"):
        time.sleep(float(os.environ["SLOW"]))
    print("DOWN" if row + 1 < height and rows[row + 1][col] != "#" else "UP", flush=True)
"""


def _bot(name: str, code: str, **env: str) -> PlayerSpec:
    return PlayerSpec(name, (sys.executable, "-c", code), env=env or None)


def test_a_game_between_two_bots_is_recorded_exactly():
    turns_seen = []
    started = time.perf_counter()
    result = play_match(TICTACTOE, [_bot("x", FIRST_CELL, WHO="ann"), _bot("o", FIRST_CELL, WHO="bob")],
                        seed=4, time_control=CLOCK, memory_mb=300, on_turn=turns_seen.append,
                        on_turns_done=lambda: turns_seen.append("done"))
    assert (result.game, result.seed, result.options, result.turns, result.winner) == \
        ("tictactoe", 4, {}, 7, 0)
    assert 0 < result.wall_s < time.perf_counter() - started
    assert result.reason == "three in a row" and result.referee_error is None
    assert turns_seen == [*range(1, 8), "done"]
    x, o = result.players
    assert (x.bot, x.score, x.rank, x.fault, o.bot, o.score, o.rank, o.fault) == \
        ("x", 1.0, 0, None, "o", 0.0, 1, None)
    assert [len(x.latencies_ms), len(o.latencies_ms), len(x.waits_ms), len(o.waits_ms)] == [4, 3, 4, 3]
    assert x.pdata == o.pdata == {"depth": "3"}
    line = "{} " + f"{STDBUF} True 300\n[PDATA] depth = 3\n"
    assert (x.stderr_bytes, o.stderr_bytes) == (len(line.format("ann")), len(line.format("bob")))
    assert [(record.turn, [seat.seat for seat in record.seats]) for record in result.records] == \
        [(turn, [turn % 2]) for turn in range(7)]
    first, second, last = result.records[0].seats[0], result.records[1].seats[0], result.records[6].seats[0]
    assert (first.input[:3], first.output, first.stderr) == (["-1 -1", "9", "0 0"], "0 0",
                                                             line.format("ann"))
    assert (second.input[:3], second.output, second.stderr) == (["0 0", "8", "0 1"], "0 1",
                                                                line.format("bob"))
    assert (last.input, last.output, last.stderr) == (["1 2", "3", "2 0", "2 1", "2 2"], "2 0", "")
    x_turns = [record.seats[0] for record in result.records[::2]]
    assert [turn.latency_ms for turn in x_turns] == [round(ms, 3) for ms in x.latencies_ms]
    assert [turn.cpu_ms for turn in x_turns if turn.cpu_ms is not None] == [round(ms, 1) for ms in x.cpu_ms]
    assert len(x.cpu_ms) >= 3
    budgets = [CLOCK.first_turn_ms] + [CLOCK.turn_ms] * 3
    assert x.margin_ms == min(budget - latency for budget, latency in zip(budgets, x.latencies_ms))
    data = result.to_json()
    assert list(data)[:7] == ["game", "seed", "options", "turns", "reason", "winner", "players"]
    assert data["players"][0]["pdata"] == {"depth": 3} and data["players"][1]["fault"] is None


def test_without_records_nothing_is_kept_per_turn_and_no_memory_cap_is_set():
    result = play_match(TICTACTOE, [_bot("x", FIRST_CELL), _bot("o", FIRST_CELL)], seed=1,
                        time_control=CLOCK, memory_mb=None, record=False, line_buffered=False)
    assert result.records == [] and result.turns == 7 and result.winner == 0
    assert result.players[0].stderr_bytes == len("None None True -1\n[PDATA] depth = 3\n")


def test_a_refused_answer_ends_the_game_with_the_reason():
    result = play_match(TICTACTOE, [_bot("x", FIRST_CELL), _bot("o", REFUSED_THEN)], seed=1,
                        time_control=CLOCK)
    assert (result.turns, result.reason, result.winner) == (3, "fault: seat 1 bad_output", 0)
    fault = result.players[1].fault
    assert (fault.kind, fault.turn) == (Fault.BAD_OUTPUT, 3)
    assert fault.detail == "expected 'row col', got 'debug: thinking'"
    assert result.records[1].seats[0].stderr == "[... 1000 bytes cut]\n" + "e" * 1999 + "\n"
    assert [player.rank for player in result.players] == [0, 1]
    assert [len(record.seats) for record in result.records] == [1, 1, 1, 1]
    assert result.records[3].seats[0].output == "debug: thinking"
    assert len(result.players[1].latencies_ms) == 2


def test_a_simultaneous_game_plays_every_seat_of_the_turn_a_bot_crashes_in():
    options = {"height": 5, "width": 7, "turns": 6}
    result = play_match(DUEL, [_bot("steady", UP_DOWN), _bot("crasher", UP_DOWN, CRASH="1")],
                        seed=5, options=options, time_control=CLOCK)
    assert (result.turns, result.reason, result.winner) == (2, "fault: seat 1 crash", 0)
    assert result.options == options and result.options is not options
    fault = result.players[1].fault
    assert (fault.kind, fault.turn) == (Fault.CRASH, 2) and "exited with code 3" in fault.detail
    assert [[seat.seat for seat in record.seats] for record in result.records] == [[0, 1]] * 3
    assert [seat.output for seat in result.records[2].seats] == ["DOWN", None]
    # the initialization line goes with a bot's first answer only
    assert [record.seats[0].input[0] for record in result.records] == ["5 7 6", "5", "4"]


def test_default_options_come_from_the_game():
    result = play_match(DUEL, [_bot("a", UP_DOWN), _bot("b", UP_DOWN)], seed=5, time_control=CLOCK,
                        options=None, record=False)
    assert result.options == DUEL.parse_options({}) and result.reason == "turn limit"


def _deep_bug(depth: int) -> float:
    """Fails ``depth`` calls deep: a traceback longer than the 12 entries a result keeps
    (two functions in turn, since Python folds a run of one repeated frame into one line)."""
    return _deeper_bug(depth - 1) if depth > 0 else 1 / 0


def _deeper_bug(depth: int) -> float:
    return _deep_bug(depth - 1)


class _BrokenScores(TicTacToe):
    """tictactoe whose final scores raise: a referee error after the game was played."""

    def new_state(self, *args):
        state = super().new_state(*args)
        state.__class__ = type("Broken", (type(state),), {"__slots__": (),
                                                          "scores": lambda self: _deep_bug(15)})
        return state


class _BrokenTurnLines(TicTacToe):
    def turn_lines(self, state, seat):
        return _deep_bug(15) if state.turn == 3 else super().turn_lines(state, seat)


class _StuckNewState(TicTacToe):
    def new_state(self, *args):
        while True:                     # a referee stuck in pure Python before any bot starts
            pass


def _assert_last_12_traceback_entries(detail: str) -> None:
    lines = detail.splitlines()
    assert lines[0].startswith("  File ") and lines[-1] == "ZeroDivisionError: division by zero"
    assert sum(line.startswith("  File ") for line in lines) == 11


@pytest.mark.parametrize("game, turns", [(_BrokenScores(), 7), (_BrokenTurnLines(), 3)],
                         ids=["scores", "turn_lines"])
def test_a_referee_error_gives_no_result_but_says_why(game, turns):
    result = play_match(game, [_bot("x", FIRST_CELL), _bot("o", FIRST_CELL)], seed=1,
                        time_control=CLOCK, record=False)
    assert result.reason == "referee error: ZeroDivisionError: division by zero"
    _assert_last_12_traceback_entries(result.referee_error)
    assert [(p.score, p.rank) for p in result.players] == [(0.0, 0), (0.0, 0)]
    assert (result.winner, result.turns) == (None, turns)
    assert result.to_json()["referee_error"] == result.referee_error


def test_the_watchdog_allows_the_first_turn_budget_and_cuts_off_a_stuck_referee():
    skip_when_traced()
    clock = TimeControl(first_turn_ms=3000, turn_ms=2000, grace_ms=10)
    calm = play_match(TICTACTOE, [_bot("x", FIRST_CELL), _bot("o", FIRST_CELL)], seed=1,
                      time_control=clock, record=False, watchdog_s=0.5)
    assert calm.reason == "three in a row"
    stuck = play_match(_StuckNewState(), [_bot("x", FIRST_CELL), _bot("o", FIRST_CELL)], seed=1,
                       time_control=TimeControl(first_turn_ms=300, turn_ms=100, grace_ms=10),
                       watchdog_s=0.2)
    prefix = "referee error: watchdog: turn 0 did not finish within "
    assert stuck.reason.startswith(prefix) and stuck.reason.endswith(" s")
    assert float(stuck.reason[len(prefix):-2]) >= 0.5          # fed 0.2 s + the first 0.3 s
    assert stuck.referee_error == stuck.reason[len("referee error: "):]
    assert stuck.turns == 0 and [p.stderr_bytes for p in stuck.players] == [0, 0]


def test_a_bot_that_cannot_start_is_named_in_the_error():
    with pytest.raises(BotStartError) as refused:
        play_match(TICTACTOE, [_bot("x", FIRST_CELL), PlayerSpec("ghost", ("/nonexistent/ghost-bot",))],
                   seed=1, time_control=CLOCK)
    assert str(refused.value) == ("cannot start bot 'ghost': '/nonexistent/ghost-bot' not found "
                                  "(check the path, or give a built-in bot's name)")


# -- the pure parts --------------------------------------------------------------------------

def test_latency_summary_picks_exact_quantiles():
    assert latency_summary([]) == {"p50": 0.0, "p99": 0.0, "max": 0.0}
    values = [float(v) + 0.00049 for v in range(1, 201)]
    assert latency_summary(values[::-1]) == {"p50": 101.0, "p99": 199.0, "max": 200.0}
    assert latency_summary([2.0, 1.0]) == {"p50": 2.0, "p99": 2.0, "max": 2.0}


def test_pdata_values_are_ints_then_floats_then_text():
    assert _pdata_values({"a": "12", "b": "-2.5", "c": "1e3", "d": "fast", "e": "0x10"}) == \
        {"a": 12, "b": -2.5, "c": 1000.0, "d": "fast", "e": "0x10"}


@pytest.mark.parametrize("scores, faulted, ranks", [
    ([3.0, 1.0, 3.0], [False, False, False], [0, 2, 0]),
    ([3.0, 1.0, 2.0], [True, False, False], [2, 1, 0]),
    ([1.0, 1.0], [True, True], [0, 0]),
])
def test_ranks_share_ties_and_put_faults_last(scores, faulted, ranks):
    assert rank_seats(scores, faulted) == ranks


def test_settle_names_faults_and_finds_the_single_winner():
    crash = FaultRecord(Fault.CRASH, 3, "x")
    late = FaultRecord(Fault.TIMEOUT, 2, "y")

    def never():
        pytest.fail("the rules' reason is not asked for when a seat faulted")

    assert settle([5.0, 1.0], [crash, None], never) == ([1, 0], "fault: seat 0 crash", 1)
    assert settle([5.0, 1.0, 0.0], [None, late, crash], never) == \
        ([0, 1, 2], "fault: seat 1 timeout, seat 2 crash", 0)
    assert settle([2.0, 2.0], [None, None], lambda: "draw") == ([0, 0], "draw", None)
    assert settle([2.0, 3.0], [None, None], lambda: "done") == ([1, 0], "done", 1)
    assert settle([7.0], [None], lambda: "solo") == ([0], "solo", None)
    assert settle([3.0, 1.0, 1.0], [None, None, None], lambda: "end") == ([0, 1, 1], "end", 0)


def test_results_as_json_exactly():
    fault = FaultRecord(Fault.TIMEOUT, 4, "no answer")
    player = PlayerResult("bot", 2.0, 1, fault, [3.0, 1.0, 2.0], [], {"n": "7"}, 12,
                          margin_ms=12.34567)
    assert player.to_json() == {
        "bot": "bot", "score": 2.0, "rank": 1,
        "fault": {"kind": "timeout", "turn": 4, "detail": "no answer"},
        "latency_ms": {"p50": 2.0, "p99": 3.0, "max": 3.0},
        "cpu_ms": {"p50": 0.0, "p99": 0.0, "max": 0.0},
        "margin_ms": 12.346, "pdata": {"n": 7}, "stderr_bytes": 12}
    assert player.latency_summary() == {"p50": 2.0, "p99": 3.0, "max": 3.0}
    no_margin = PlayerResult("b", 0.0, 0, None, [], [1.5], {}, 0).to_json()
    assert no_margin["margin_ms"] is None and no_margin["cpu_ms"] == {"p50": 1.5, "p99": 1.5, "max": 1.5}
    result = MatchResult("g", 1, {}, 3, "done", None, [], warnings=["slow"])
    assert result.to_json() == {"game": "g", "seed": 1, "options": {}, "turns": 3,
                                "reason": "done", "winner": None, "players": [], "warnings": ["slow"]}


def _first_cell(timings: list[tuple[float, float | None, float | None]], **kwargs) -> ScriptedPlayer:
    """A scripted tictactoe player taking the first valid cell, its answers timed as given
    (latency, CPU, wait in ms), one after another."""
    given = iter(timings)
    return ScriptedPlayer(lambda lines: Answer(lines[2], *next(given)), **kwargs)


def _scripted_game(x, o, grace_ms: int = 10, **kwargs) -> MatchResult:
    return play_match(TICTACTOE, [x, o], seed=1, time_control=TimeControl(
        first_turn_ms=1000, turn_ms=100, grace_ms=grace_ms), **kwargs)


def test_timing_notes_keep_the_smallest_margin_and_the_longest_wait_after_the_first_answer():
    x = _first_cell([(400.0, 30.0, 90.0), (40.0, None, None), (70.0, 5.0, 7.0),  # first: wait
                     (20.0, 2.0, 6.0)], name="x")                              # ignored
    o = _first_cell([(1.0, None, None), (99.0, None, 3.0), (2.0, 1.5, None)], name="o")
    x.pdata["depth"] = "3"
    x.stderr_total_bytes = 12
    result = _scripted_game(x, o)
    assert (result.reason, result.turns, result.winner) == ("three in a row", 7, 0)
    first, second = result.players
    assert (first.latencies_ms, first.cpu_ms, first.waits_ms) == \
        ([400.0, 40.0, 70.0, 20.0], [30.0, 5.0, 2.0], [90.0, None, 7.0, 6.0])
    assert (first.margin_ms, first.max_wait_ms, first.pdata, first.stderr_bytes) == \
        (30.0, 7.0, {"depth": "3"}, 12)
    assert (second.latencies_ms, second.cpu_ms, second.waits_ms) == \
        ([1.0, 99.0, 2.0], [1.5], [None, 3.0, None])
    assert (second.margin_ms, second.max_wait_ms, second.pdata, second.stderr_bytes) == \
        (1.0, 3.0, {}, 0)
    assert [seat.latency_ms for record in result.records for seat in record.seats] == \
        [400.0, 1.0, 40.0, 99.0, 70.0, 2.0, 20.0]
    assert [seat.cpu_ms for record in result.records for seat in record.seats] == \
        [30.0, None, None, None, 5.0, 1.5, 2.0]


def test_an_answer_past_its_budget_and_grace_is_a_timeout():
    x = _first_cell([(50.0, None, None), (110.0, None, None)])
    o = _first_cell([(1000.0, None, None), (110.5, None, None)])   # the first: 1010 allowed
    result = _scripted_game(x, o)
    assert (result.turns, result.reason, result.winner) == (3, "fault: seat 1 timeout", 0)
    assert result.players[1].fault == FaultRecord(Fault.TIMEOUT, 3, "no answer within 110 ms")
    assert (result.players[0].margin_ms, result.players[1].margin_ms) == (-10.0, 0.0)


def test_overload_warnings_name_the_seat_and_the_wait(monkeypatch):
    from referee import match
    lags = []
    monkeypatch.setattr(match.monitor, "max_lag_ms", lambda since: lags.append(since) or 20.0)
    # the threshold: half the grace, at least 5 ms; a first answer's wait is start-up, not counted
    x = _first_cell([(1.0, None, 50.0), (1.0, 1.0, 10.0), (1.0, None, None), (1.0, None, None)])
    o = _first_cell([(1.0, None, 50.0), (1.0, 1.0, 9.9), (1.0, None, None)])
    result = _scripted_game(x, o, grace_ms=20)
    assert result.warnings == [
        "seat 0 waited up to 10 ms in one turn for a free CPU: the machine is overloaded "
        "(run fewer jobs at once)",
        "the harness was delayed up to 20 ms: the machine is overloaded, timeouts may be "
        "spurious (run fewer jobs at once)"]
    assert len(lags) == 1 and 0 < lags[0] < time.perf_counter()
    small = [(1.0, None, None), (1.0, None, 5.0), (1.0, None, None), (1.0, None, None)]
    monkeypatch.setattr(match.monitor, "max_lag_ms", lambda since: 9.9)
    result = _scripted_game(_first_cell(small), _first_cell([(1.0, None, 4.9)] * 3), grace_ms=4)
    assert [warning.split(" in one")[0] for warning in result.warnings] == ["seat 0 waited up to 5 ms"]
    monkeypatch.setattr(match.monitor, "max_lag_ms", lambda since: 10.0)     # 10 ms at least
    result = _scripted_game(_first_cell(small), _first_cell([(1.0, None, 4.9)] * 3), grace_ms=4)
    assert result.warnings[1].startswith("the harness was delayed up to 10 ms")
    # no lag counted before every player answered: here seat 1 never does
    never = ScriptedPlayer(lambda lines: Answer(lines[2], 2000.0, None, None))
    result = _scripted_game(_first_cell(small), never, grace_ms=4)
    assert result.reason == "fault: seat 1 timeout" and result.warnings == []


def test_a_simultaneous_game_plays_the_other_seat_when_the_first_one_crashes():
    result = play_match(DUEL, [_bot("crasher", UP_DOWN, CRASH="1"), _bot("steady", UP_DOWN)],
                        seed=5, options={"height": 5, "width": 7, "turns": 6}, time_control=CLOCK)
    assert (result.turns, result.reason, result.winner) == (2, "fault: seat 0 crash", 1)
    assert [seat.output for seat in result.records[2].seats] == [None, "DOWN"]


def _spy(monkeypatch, owner, name: str) -> list:
    """Record the arguments of every call of ``owner.name`` (which still runs)."""
    calls, real = [], getattr(owner, name)

    def spy(self, *args):
        calls.append(args)
        return real(self, *args)
    monkeypatch.setattr(owner, name, spy)
    return calls


class _TimedPlayer(ScriptedPlayer):
    """A scripted player that notes the time allowed to take each input and give each answer."""

    def __init__(self, answer, calls: list):
        super().__init__(answer)
        self.calls = calls

    def send(self, lines, timeout_s):
        self.calls.append(("send", timeout_s))
        return super().send(lines, timeout_s)

    def read_line(self, started, timeout_s):
        self.calls.append(("read", timeout_s))
        return super().read_line(started, timeout_s)


def test_each_wait_is_bounded_by_the_budget_of_that_answer(monkeypatch):
    feeds, calls = _spy(monkeypatch, GameWatchdog, "feed"), []
    clock = TimeControl(first_turn_ms=3000, turn_ms=200, grace_ms=10)
    options = {"height": 5, "width": 7, "turns": 2}
    players = [_TimedPlayer(lambda lines: "UP", calls), _TimedPlayer(lambda lines: "UP", calls)]
    result = play_match(DUEL, players, seed=5, options=options, time_control=clock, record=False,
                        watchdog_s=0.5)
    assert (result.reason, result.turns) == ("turn limit", 2)
    # the watchdog: start-up, then each turn the slack plus every acting seat's budget and grace
    assert [allowance for allowance, in feeds] == pytest.approx([3.5, 0.5 + 2 * 3.01, 0.5 + 2 * 0.21],
                                                                rel=1e-9)
    # each player: its budget and grace to take its input and to answer, asked in turn
    assert [kind for kind, _ in calls] == ["send", "read"] * 4
    assert [timeout for _, timeout in calls] == pytest.approx([3.01] * 4 + [0.21] * 4, rel=1e-9)


def test_a_player_gets_its_own_seat_in_the_initialization_block():
    othello = load_game("othello")
    black, white = ScriptedPlayer(lambda lines: lines[-1]), ScriptedPlayer(lambda lines: lines[-1])
    result = play_match(othello, [black, white], seed=1, time_control=CLOCK)
    assert result.referee_error is None and result.players[1].fault is None
    first, second = white.inputs[:2]
    assert first[:2] == ["1", "8"] and len(first) == 2 + 8 + 1 + int(first[10])
    assert len(second) == 8 + 1 + int(second[8]) and set(second[0]) <= set(".01")
    assert black.inputs[0][:2] == ["0", "8"] and len(black.inputs[1]) == 9 + int(black.inputs[1][8])


def test_a_refused_answer_names_the_line_the_player_printed_next():
    # whether a second line comes within 50 ms is a race with a real bot (tests/tools/test_messages.py
    # plays it through the CLI); here the player's next line is given, to check the message exactly
    answers = iter([None, "debug: thinking"])
    refuser = ScriptedPlayer(lambda lines: next(answers) or lines[2], following="1 1")
    result = play_match(TICTACTOE, [ScriptedPlayer(lambda lines: lines[2]), refuser], seed=1,
                        time_control=CLOCK, record=False)
    assert result.players[1].fault.detail == (
        "expected 'row col', got 'debug: thinking'; the next line it printed was '1 1': if the "
        "refused line was debug output, print that to stderr, only the answer to stdout")
    assert result.players[1].fault.turn == 3 and result.reason == "fault: seat 1 bad_output"


@pytest.mark.skipif(bwrap_program() is None, reason="bubblewrap (bwrap) is not installed")
def test_sandboxed_bots_run_in_their_own_pid_namespace():
    result = play_match(TICTACTOE, [_bot("x", FIRST_CELL), _bot("o", FIRST_CELL)], seed=1,
                        time_control=CLOCK, sandboxed=True)
    assert result.reason == "three in a row"
    assert result.records[0].seats[0].stderr.split()[2] == "False"     # its pid is small there


def test_every_player_starts_before_the_turn_to_play_and_that_wait_is_not_a_stuck_turn(monkeypatch):
    feeds = _spy(monkeypatch, GameWatchdog, "feed")
    x, o = ScriptedPlayer(lambda lines: lines[2]), ScriptedPlayer(lambda lines: lines[2])
    seen = []
    result = play_match(TICTACTOE, [x, o], seed=1, time_control=CLOCK, record=False,
                        watchdog_s=0.5, on_bots_started=lambda: seen.append(
                            (x.inputs + o.inputs, feeds[:])))
    assert result.reason == "three in a row"
    # no input sent yet, the watchdog off (fed forever) while it waits
    assert seen == [([], [(3.5,), (float("inf"),)])]
    assert feeds[2] == (0.5 + 3.01,)


def test_every_bot_process_runs_before_the_turn_to_play():
    processes = []
    result = play_match(TICTACTOE, [_bot("x", FIRST_CELL), _bot("o", FIRST_CELL)], seed=1,
                        time_control=CLOCK, record=False,
                        on_bots_started=lambda: processes.append(len(bot_processes_of(os.getpid()))))
    assert result.reason == "three in a row" and processes == [2]


@pytest.mark.parametrize("stop", [UsageError("the match stopped: this game is dropped"),
                                  MatchCancelled("this game is dropped")], ids=["usage", "cancelled"])
def test_a_turn_to_play_that_never_comes_ends_the_game_unplayed(stop):
    scripted = ScriptedPlayer(lambda lines: lines[2])

    def dropped():
        raise stop
    with pytest.raises(type(stop), match="this game is dropped"):
        play_match(TICTACTOE, [_bot("x", FIRST_CELL), scripted], seed=1, time_control=CLOCK,
                   on_bots_started=dropped)
    assert scripted.inputs == [] and scripted.closed and scripted.input_ended
    assert bot_processes_of(os.getpid()) == []
