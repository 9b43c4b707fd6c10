"""The referee host: one JVM plays game after game, each in a fresh class loader; a host that
dies or hangs is a referee error and is replaced; one that keeps dying is given up for one JVM
per game. The referee is our own Java stand-in for the SDK's RefereeMain
(tests/fixtures/referees/java/), so no CodinGame code is needed."""
from __future__ import annotations

import json
import re
import threading
import time
import uuid

import pytest

from referee.api import RefereeError
from referee.external import host
from referee.external.gamefile import read_game_file
from referee.external.sdk import message
from tests.conftest import run_cli
from tests.referee.external.gamefiles import digit_bot, play, processes_with, write_game_file


@pytest.fixture
def classes(java_referee_classes, host_cache):
    return java_referee_classes


def _host_game(folder, classes, tag: str, name: str, timeout_ms: int = 20000):
    return write_game_file(folder, name, f"""protocol = "codingame"
players = [2, 3]
host = true
classpath = ["{classes}"]
jvm_options = ["-XX:TieredStopAtLevel=1", "-Dbotarena.test={tag}"]
referee_timeout_ms = {timeout_ms}
""")


def _metadata(result) -> dict:
    frames = result.records[-1].notes["frames"]
    return json.loads(frames[-1]["metadata"])


def _set_mode(path, mode: str) -> None:
    path.write_text(path.read_text() + f'[parameters]\nmode = "{mode}"\n')


def test_games_share_one_host_each_in_a_fresh_class_loader(tmp_path, classes):
    tag = uuid.uuid4().hex
    path = _host_game(tmp_path, classes, tag, "digits")
    for seed in range(3):
        result = play(path, [["--digit", "2"], ["--digit", "5"], ["--digit", "1"]], seed=seed)
        assert result.referee_error is None, result.referee_error
        assert [player.score for player in result.players] == [6.0, 15.0, 3.0]
        assert _metadata(result) == {"games_in_loader": 1, "in_production": True}
        assert len(processes_with(tag)) == 1          # the same host, still there
    host.close_hosts()
    assert not processes_with(tag)


def test_a_host_serves_the_next_game_whichever_thread_plays_it(tmp_path, classes):
    """A run's pool has one thread more than games at once: its hosts go to whichever thread
    plays next, so a run starts as many as it plays games at once (not one per thread)."""
    tag = uuid.uuid4().hex
    path = _host_game(tmp_path, classes, tag, "pooled")
    hosts: list[set[int]] = []

    def one_game() -> None:
        assert play(path, [["--digit", "2"], ["--digit", "5"]]).referee_error is None
        hosts.append({process.pid for process in processes_with(tag)})
    for _ in range(2):
        thread = threading.Thread(target=one_game)
        thread.start()
        thread.join()
    assert len(hosts) == 2 and len(hosts[0]) == 1 and hosts[1] == hosts[0]
    host.close_hosts()                        # its owner thread is gone: ended for good
    assert not processes_with(tag)


def test_a_failing_game_keeps_the_host(tmp_path, classes):
    tag = uuid.uuid4().hex
    path = _host_game(tmp_path, classes, tag, "failing")
    _set_mode(path, "fail")
    result = play(path, [["--digit", "2"], ["--digit", "5"]])
    assert "failed (FAIL): java.lang.RuntimeException: told to fail at turn 2" in result.reason
    first = processes_with(tag)
    assert len(first) == 1                            # the host finished the game and waits
    result = play(path, [["--digit", "2"], ["--digit", "5"]])
    assert result.referee_error is not None
    assert [process.pid for process in processes_with(tag)] == [process.pid for process in first]


def test_a_host_that_dies_is_replaced_then_given_up_for_one_jvm_a_game(tmp_path, classes, capsys):
    tag = uuid.uuid4().hex
    path = _host_game(tmp_path, classes, tag, "exiting")
    _set_mode(path, "exit")
    for _ in range(2):
        result = play(path, [["--digit", "2"], ["--digit", "5"]])
        assert "ended before the game did" in result.reason, result.reason
        assert not processes_with(tag)               # the dead host's JVM is gone
    assert "the referee host of exiting is not used any more" in capsys.readouterr().err
    # now one JVM per game (RefereeMain's own main): System.exit there ends only that game
    result = play(path, [["--digit", "2"], ["--digit", "5"]])
    assert "ended before the game did: exited with code 7" in result.reason
    _set_mode_off = path.read_text().replace('mode = "exit"', 'mode = ""')
    path.write_text(_set_mode_off)
    result = play(path, [["--digit", "2"], ["--digit", "5"]])
    assert result.referee_error is None and _metadata(result)["games_in_loader"] == 1


def test_a_hung_host_is_ended_at_the_referee_timeout(tmp_path, classes):
    tag = uuid.uuid4().hex
    path = _host_game(tmp_path, classes, tag, "hanging", timeout_ms=3000)
    _set_mode(path, "hang")
    result = play(path, [["--digit", "2"], ["--digit", "5"]])
    assert "silent past its referee_timeout_ms" in result.reason, result.reason
    assert not processes_with(tag)


def _set_parameters(path, **values) -> None:
    table = "".join(f"{key} = {json.dumps(value)}\n" for key, value in values.items())
    path.write_text(path.read_text() + f"[parameters]\n{table}")


def _drive_one_game(referee_host, init: list[str]) -> list[str]:
    """One digits game on ``referee_host`` by hand (every bot answers 5), up to END: the lines
    the host printed."""
    def deadline() -> float:
        return time.perf_counter() + 30
    referee_host.write(["[[BOTARENA_GAME] 0]", *message("INIT", init), *message("GET_GAME_INFO")])
    printed: list[str] = []
    while True:
        line = referee_host.read_line(deadline())
        printed.append(line)
        if line == host.END:
            return printed
        if line == "[[NEXT_PLAYER_INFO] 3]":
            printed += [referee_host.read_line(deadline()) for _ in range(3)]
            referee_host.write(message("SET_PLAYER_OUTPUT", ["5"]) + message("GET_GAME_INFO"))


def test_a_finished_games_thread_writes_into_nothing(tmp_path, classes):
    """A thread of the game that prints SCORES after the game is over: the host has cut the
    game's output by then, so those lines reach no one (the host exits only once that thread
    has ended: everything it printed is read here)."""
    path = _host_game(tmp_path, classes, uuid.uuid4().hex, "leaky")
    game_file = read_game_file(path)
    referee_host = host.RefereeHost(game_file, game_file.host)
    try:
        printed = _drive_one_game(referee_host, ["2", "seed=1", "mode=leak", "leak_ms=100"])
        referee_host.end_input()
        with pytest.raises(RefereeError, match="ended before the game did: exited with code 0"):
            while True:
                printed.append(referee_host.read_line(time.perf_counter() + 30))
    finally:
        referee_host.close()
    scores = printed.index("[[SCORES] 2]")
    assert printed[scores + 1:scores + 3] == ["0 15", "1 15"]
    assert not any("999" in line for line in printed), printed[scores:]
    assert printed.count("[[SCORES] 2]") == 1


def test_a_host_whose_game_left_a_thread_running_is_retired(tmp_path, classes, capsys):
    tag = uuid.uuid4().hex
    path = _host_game(tmp_path, classes, tag, "lingering")
    _set_parameters(path, mode="leak", leak_ms=600_000)
    for _ in range(2):
        result = play(path, [["--digit", "2"], ["--digit", "5"]])
        assert result.referee_error is None, result.referee_error
        assert [player.score for player in result.players] == [6.0, 15.0]
        assert _metadata(result)["games_in_loader"] == 1
        assert not processes_with(tag)          # retired with its thread: the next game's is new
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert len(warnings) == 1, warnings
    assert "a game of lingering left threads running after its end ('leaky-scores')" in warnings[0]


@pytest.mark.full
def test_a_match_never_records_what_a_finished_game_printed_later(tmp_path, classes):
    """Issue 31, item 1: 8 games on one job slot, each leaving a thread that prints SCORES
    999 / -999 2.5 s after its game: no game has them, and the warning is said once."""
    path = _host_game(tmp_path, classes, uuid.uuid4().hex, "leak")
    _set_parameters(path, mode="leak")
    out = tmp_path / "leak.jsonl"
    done = run_cli("match", str(path), digit_bot("--digit", "2"), digit_bot("--digit", "5"),
                   "-n", "8", "--jobs", "1", "--seed", "1", "--out", str(out), timeout=300)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 8
    for record in records:
        assert record.get("referee_error") is None, record["referee_error"]
        assert sorted(player["score"] for player in record["players"]) == [6, 15]
    # (a bare "999" also turns up by chance in a latency like 12.999: look for the scores)
    assert not re.search(r'"score": ?-?999', out.read_text())
    assert done.stderr.count("left threads running after its end") == 1, done.stderr


def test_the_hosts_jvm_runs_c1_unless_the_game_file_chooses_its_compilers():
    from referee.external.gamefile import C1_ONLY, JVM_LOG_TO_STDERR, jvm_defaults
    assert jvm_defaults(["-Dleague.level=3"]) == [*JVM_LOG_TO_STDERR, C1_ONLY]
    for chosen in ("-XX:TieredStopAtLevel=4", "-XX:-TieredCompilation", "-Xint"):
        assert jvm_defaults([chosen, "-Xmx128m"]) == list(JVM_LOG_TO_STDERR), chosen



def test_a_jvm_warning_goes_to_the_hosts_stderr_not_into_the_protocol(tmp_path, classes, capsys):
    """-XX:+UseLargePages on a machine without large pages makes the JVM warn at start-up,
    on stdout by default: the host would then fail to start (its first line not READY)."""
    tag = uuid.uuid4().hex
    path = _host_game(tmp_path, classes, tag, "warning")
    path.write_text(path.read_text().replace("jvm_options = [", 'jvm_options = ["-XX:+UseLargePages", '))
    result = play(path, [["--digit", "2"], ["--digit", "5"]])
    assert result.referee_error is None, result.referee_error
    assert len(processes_with(tag)) == 1                  # the game ran on the host
    assert "not used any more" not in capsys.readouterr().err


def test_a_hosts_cpu_is_counted_once_when_it_ends_its_start_up_apart(tmp_path, classes):
    """bench host's figures: channel.referee_cpu gets each referee process once, at its end."""
    from referee.external.channel import referee_cpu
    path = _host_game(tmp_path, classes, uuid.uuid4().hex, "counted")
    before = referee_cpu()
    for seed in range(2):
        assert play(path, [["--digit", "2"], ["--digit", "5"]], seed=seed).referee_error is None
    assert referee_cpu() == before                        # the host lives on between games
    host.close_hosts()
    host.close_hosts()
    after = referee_cpu()
    assert after["processes"] == before["processes"] + 1
    startup = after["startup_cpu_s"] - before["startup_cpu_s"]
    assert 0 < startup <= after["cpu_s"] - before["cpu_s"]


@pytest.mark.full
def test_bench_host_prints_the_cpu_a_game_of_the_host_the_bots_and_botarena(tmp_path, classes):
    path = _host_game(tmp_path, classes, uuid.uuid4().hex, "bench")
    done = run_cli("bench", "host", str(path), digit_bot("--digit", "2"), digit_bot("--digit", "5"),
                   "-n", "2", "--jobs", "1", timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    for pattern in (r"2 games in [\d.]+ s: [\d.]+ games/s \(--jobs 1, \d+ cores\)",
                    r"referee host: \d+ JVMs, start-up \d+ ms CPU each \(once per host\); "
                    r"[\d.]+ ms CPU a game",
                    r"bots: [\d.]+ ms CPU a game \(both\); botarena: [\d.]+ ms; total [\d.]+ ms",
                    r"bound \(the cores over the CPU a game\): [\d.]+ games/s; actual / bound [\d.]+",
                    r"load average before: ", r"load average after: "):
        assert re.search(pattern, done.stdout), f"{pattern!r} not in:\n{done.stdout}"
