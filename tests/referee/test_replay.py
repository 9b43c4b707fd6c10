"""``botarena replay``: --verify recomputes everything a replay records and catches each kind of
tampering; a re-run shows its commands and needs --run; a replay from anyone is read with
bounded memory and checked like the command line (one line, exit 2, on anything wrong)."""
from __future__ import annotations

import copy
import json
import resource
import sys

import pytest

from tests.conftest import run_cli
from tests.fixtures.terminal import run_in_terminal

# a tictactoe bot that plays the first free cell twice, then an answer the rules refuse
FAULTY_BOT = """import sys
answers = 0
while True:
    sys.stdin.readline()
    cells = [sys.stdin.readline().strip() for _ in range(int(sys.stdin.readline()))]
    answers += 1
    print(cells[0] if answers < 3 else "9 9", flush=True)
"""


SLOW_MACHINE_CLOCK = ("--first-turn-ms", "20000", "--turn-ms", "5000")   # no timeout under load


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> dict:
    """Replays of real games: a clean tictactoe game, one that ends on a bad answer, and an
    xmas_rush game."""
    folder = tmp_path_factory.mktemp("replays")
    faulty = folder / "faulty.py"
    faulty.write_text(FAULTY_BOT)
    games = {"clean": ("tictactoe", "random --seed 1", "random --seed 2", "--seed", "7"),
             "fault": ("tictactoe", "random --seed 1", str(faulty), "--seed", "7"),
             "xmas": ("xmas_rush", "random --seed 1", "random --seed 2", "--seed", "3")}
    replays = {}
    for name, args in games.items():
        path = folder / f"{name}.json"
        done = run_cli("play", *args, *SLOW_MACHINE_CLOCK, "--quiet", "--replay", str(path))
        assert done.returncode == 0, done.stderr
        replays[name] = json.loads(path.read_text())
    assert replays["fault"]["result"]["players"][1]["fault"]["kind"] == "bad_output"
    return replays


def _verify(tmp_path, replay: dict, *extra: str):
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(replay))
    return run_cli("replay", str(path), "--verify", *extra)


def _one_line_error(done, *fragments: str) -> None:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("botarena: "), done.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


# -- --verify ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["clean", "fault", "xmas"])
def test_untouched_replays_agree_with_the_rules(recorded, tmp_path, name):
    done = _verify(tmp_path, recorded[name])
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "replay agrees with the rules"


def _tampered(replay: dict, change) -> dict:
    replay = copy.deepcopy(replay)
    change(replay)
    return replay


def _set_output(turn: int, seat: int, text: str):
    def change(replay):
        entry = next(entry for record in replay["turns"] if record["turn"] == turn
                     for entry in record["seats"] if entry["seat"] == seat)
        entry["output"] = text
    return change


def _set_result(*keys, value):
    def change(replay):
        target = replay["result"]
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value
    return change


def _score_swap(replay):
    players = replay["result"]["players"]
    for field in ("score", "rank"):
        players[0][field], players[1][field] = players[1][field], players[0][field]
    replay["result"]["winner"] = None if replay["result"]["winner"] is None \
        else 1 - replay["result"]["winner"]


def _replay_first_move(replay):
    """Seat 1 answers, at turn 1, the cell seat 0 took at turn 0: illegal, recorded as fine."""
    _set_output(1, 1, replay["turns"][0]["seats"][0]["output"])(replay)


def _input_edit(replay):
    replay["turns"][2]["seats"][0]["input"][2] = "0 0"


TAMPERING = [
    # (replay, change, expected first difference)
    ("xmas", _set_output(0, 0, "PUSH 9 UP"),
     "turn 0 seat 0 fault: recorded no fault, recomputed bad_output at turn 0 (answer 'PUSH 9 UP'"),
    ("clean", _replay_first_move, "turn 1 seat 1 fault: recorded no fault, recomputed bad_output"),
    ("clean", _set_output(3, 1, None),
     "turn 3 seat 1 fault: recorded no fault, recomputed a fault (no answer is recorded)"),
    ("clean", _set_result("winner", value=None), "result winner: recorded None, recomputed"),
    ("clean", _score_swap, "seat 0 score: recorded"),
    ("clean", _set_result("players", 0, "rank", value=5), "seat 0 rank: recorded 5, recomputed"),
    ("clean", _set_result("reason", value="resigned"), "result reason: recorded resigned"),
    ("clean", _set_result("turns", value=3), "result turns: recorded 3, recomputed"),
    ("clean", _input_edit, "turn 2 seat 0 input line 2: recorded '0 0', recomputed"),
    ("clean", lambda replay: replay["turns"].pop(), "the game goes on"),
    ("clean", lambda replay: replay["turns"].append(copy.deepcopy(replay["turns"][-1])),
     "(the game ended at turn"),
    ("clean", _set_result("players", 0, "fault", value={"kind": "timeout", "turn": 2, "detail": ""}),
     "turn 2 seat 0 fault: recorded timeout at turn 2, recomputed no fault"),
    # faults moved, re-labelled or removed
    ("fault", _set_result("players", 1, "fault", "kind", value="timeout"),
     "seat 1 fault: recorded timeout at turn 5, recomputed bad_output at turn 5"),
    ("fault", _set_result("players", 1, "fault", "turn", value=3),
     "turn 3 seat 1 fault: recorded bad_output at turn 3, recomputed no fault"),
    ("fault", _set_result("players", 1, "fault", value=None),
     "turn 5 seat 1 fault: recorded no fault, recomputed bad_output at turn 5"),
    ("fault", lambda replay: (_set_result("players", 0, "fault", value=replay["result"]["players"][1]
                                          ["fault"])(replay),
                              _set_result("players", 1, "fault", value=None)(replay)),
     "seat 1 fault: recorded no fault, recomputed bad_output at turn 5"),
]


@pytest.mark.parametrize("name, change, expected", TAMPERING,
                         ids=[f"{index}-{case[0]}" for index, case in enumerate(TAMPERING)])
def test_each_kind_of_tampering_is_the_first_difference(recorded, tmp_path, name, change, expected):
    done = _verify(tmp_path, _tampered(recorded[name], change))
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.startswith("replay differs from the rules at ")
    assert expected in done.stdout, done.stdout


def test_verify_json_names_the_difference(recorded, tmp_path):
    done = _verify(tmp_path, _tampered(recorded["clean"], _set_result("winner", value=None)),
                   "--json")
    assert done.returncode == 1
    answer = json.loads(done.stdout)
    assert answer["agrees"] is False and answer["difference"].startswith("result winner")


# -- re-runs: commands shown, --run required --------------------------------------------------

def _evil(recorded: dict, mark) -> dict:
    replay = copy.deepcopy(recorded["clean"])
    replay["players"][1] = {"bot": "random", "argv": ["sh", "-c", f"touch {mark}"]}
    return replay


def test_a_rerun_shows_its_commands_and_runs_nothing_without_run(recorded, tmp_path):
    mark = tmp_path / "created"
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(_evil(recorded, mark)))
    done = run_cli("replay", str(path))
    assert done.returncode == 2 and not mark.exists()
    assert f"seat 1: sh -c 'touch {mark}'" in done.stderr
    assert "--run" in done.stderr.strip().splitlines()[-1]
    verified = run_cli("replay", str(path), "--verify")          # never starts a process
    assert verified.returncode == 0 and not mark.exists()


def test_at_a_terminal_a_rerun_asks_first(recorded, tmp_path):
    mark = tmp_path / "created"
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(_evil(recorded, mark)))
    refused = run_in_terminal("replay", str(path), typed="n\n")
    assert refused.returncode == 2 and not mark.exists()
    assert "run them? [y/N]" in refused.output and "touch" in refused.output
    accepted = run_in_terminal("replay", str(path), typed="y\n")
    assert mark.exists(), accepted.output           # it ran: the bot faulted, the file is there
    assert accepted.returncode == 0


def test_rerun_with_out_reproduces_the_recording(recorded, tmp_path):
    path, out = tmp_path / "clean.json", tmp_path / "again" / "out.json"
    path.write_text(json.dumps(recorded["clean"]))
    done = run_cli("replay", str(path), "--run", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("identical to the recording")
    again = json.loads(out.read_text())
    outputs = [[entry["output"] for entry in turn["seats"]] for turn in again["turns"]]
    assert outputs == [[entry["output"] for entry in turn["seats"]]
                       for turn in recorded["clean"]["turns"]]
    assert run_cli("replay", str(out), "--verify").returncode == 0


def test_rerun_that_differs_from_its_recording_says_where(recorded, tmp_path):
    replay = copy.deepcopy(recorded["clean"])
    replay["players"][0]["bot"] = "random --seed 5"            # another seed: another game
    replay["players"][0]["argv"][-1] = "5"
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(replay))
    done = run_cli("replay", str(path), "--run")
    assert done.returncode == 0, done.stderr
    assert "differs from the recording at answer 0: '" in done.stdout
    as_json = run_cli("replay", str(path), "--run", "--json")
    assert json.loads(as_json.stdout)["identical"] is False


# -- untrusted files: one line, exit 2 --------------------------------------------------------

def _without(key):
    return lambda replay: replay.pop(key)


BAD_REPLAYS = [
    (_without("game"), "'game' must be present"),
    (_without("players"), "'players' must be present"),
    (_without("turns"), "'turns' must be present"),
    (_without("seed"), "'seed' must be present"),
    (_without("result"), "'result' must be present"),
    (_without("time_control"), "'time_control' must be present"),
    (lambda replay: replay.update(turns={"0": []}), "'turns' must be a list"),
    (lambda replay: replay["players"][0].pop("argv"), "players[0].argv must be a non-empty list"),
    (lambda replay: replay["turns"][1]["seats"][0].update(seat=7), "turns[1].seats[0].seat must be"),
    (lambda replay: replay["turns"][1]["seats"][0].update(input="0 0"), ".input must be a list"),
    (lambda replay: replay.update(seed="7"), "'seed' must be an integer"),
    (lambda replay: replay.update(seed=1 << 64), "'seed' must be an integer that fits in 64 bits"),
    (lambda replay: replay.update(version=2), "has version 2; this botarena reads version 1"),
    (lambda replay: replay.update(format="other"), "is not a botarena replay"),
    (lambda replay: replay.update(game="chess"), "unknown game 'chess'"),
    (lambda replay: replay.update(options={"size": 3}), "has no option 'size'"),
    (lambda replay: replay["time_control"].update(turn_ms=99999999999999999999),
     "time_control.turn_ms 99999999999999999999: must be positive and at most"),
    (lambda replay: replay["time_control"].update(turn_ms=0), "time_control.turn_ms 0: must be"),
    (lambda replay: replay["time_control"].update(turn_ms="50"), "whole number of milliseconds"),
    (lambda replay: replay["time_control"].update(tick_ms=5), "time_control.tick_ms: not a time"),
    (lambda replay: (replay["players"].append(replay["players"][0]),
                     replay["result"]["players"].append(replay["result"]["players"][0])),
     "3 players; tictactoe takes 2"),
    (lambda replay: replay["result"]["players"].pop(), "result.players must be a list of 2"),
]


@pytest.mark.parametrize("change, message", BAD_REPLAYS,
                         ids=[f"{index}" for index in range(len(BAD_REPLAYS))])
@pytest.mark.parametrize("mode", [("--verify",), ("--run",)])
def test_a_malformed_replay_is_one_line_exit_2(recorded, tmp_path, change, message, mode):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_tampered(recorded["clean"], change)))
    _one_line_error(run_cli("replay", str(path), *mode), message)


def test_a_huge_maze_replay_is_refused_before_any_work(recorded, tmp_path):
    replay = copy.deepcopy(recorded["clean"])
    replay.update(game="number_maze", options={"height": 20000, "width": 20000},
                  players=replay["players"][:1], turns=[])
    replay["result"]["players"] = replay["result"]["players"][:1]
    path = tmp_path / "maze.json"
    path.write_text(json.dumps(replay))
    for mode in ("--verify", "--run"):
        _one_line_error(run_cli("replay", str(path), mode), "option height='20000': must be <= 30")


def _limited_memory():
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))     # reading /dev/zero whole: MemoryError


@pytest.mark.parametrize("text, message", [
    ("{not json", "is not JSON"), ("[1, 2]", "is not a botarena replay"), ("", "is not JSON"),
    ("\xff\xfe", "is not JSON"), ("[" * 100000 + "]" * 100000, "is not JSON")])
def test_files_that_are_not_replays(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_bytes(text.encode("latin-1"))
    _one_line_error(run_cli("replay", str(path), "--verify"), message)


def test_special_files_and_folders(tmp_path):
    _one_line_error(run_cli("replay", str(tmp_path), "--verify"), "is a directory")
    _one_line_error(run_cli("replay", str(tmp_path / "none.json")), "no replay file")
    done = run_cli("replay", "/dev/zero", "--verify", preexec_fn=_limited_memory)
    _one_line_error(done, "is not a regular file")


def test_verify_and_out_do_not_go_together(recorded, tmp_path):
    path = tmp_path / "clean.json"
    path.write_text(json.dumps(recorded["clean"]))
    _one_line_error(run_cli("replay", str(path), "--verify", "--out", str(tmp_path / "o.json")),
                    "-o/--output writes the replay of a re-run")


if sys.platform != "linux":                       # /dev/zero, RLIMIT_AS and ptys as on Linux
    pytestmark = pytest.mark.skip(reason="Linux only")
