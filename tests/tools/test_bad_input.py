"""Bad input thrown at random (hypothesis): option values at the command line, JSON in a results
file and in a replay. Whatever comes, botarena exits 0 (or 1: a replay that differs from the
rules) or 2 with one line saying what is wrong, never a traceback.

The CLI runs in this process (fast); a valid draw plays at most two tictactoe games."""
from __future__ import annotations

import json
import os
import sys
import tempfile
import traceback
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import run_cli
from tests.tiers import examples
from tools.cli.main import main

CALM = ("--first-turn-ms", "30000", "--turn-ms", "30000")
FAST = settings(max_examples=examples(60), deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=8)


def run_in_process(*argv: str) -> tuple[int, str, str]:
    """``botarena ARGV`` in a forked copy of this process: exit status, stdout, stderr. Fast (no
    interpreter start-up), and what main() sets process-wide (child subreaper, signal handlers,
    non-dumpable) stays in the copy instead of changing the test process for later tests."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        pid = os.fork()
        if pid == 0:                                   # the copy: run, report, leave at once
            status = 70
            try:
                sys.stdout = open(out.fileno(), "w", closefd=False)
                sys.stderr = open(err.fileno(), "w", closefd=False)
                try:
                    status = main(list(argv))
                except SystemExit as exit:             # argparse's own errors
                    status = exit.code if isinstance(exit.code, int) else 2
            except BaseException:
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(status)
        _, wait_status = os.waitpid(pid, 0)
        out.seek(0)
        err.seek(0)
        return (os.waitstatus_to_exitcode(wait_status), out.read().decode(errors="replace"),
                err.read().decode(errors="replace"))


def assert_clean(status: int, err: str, allowed=(0, 2)) -> None:
    assert "Traceback" not in err, err
    assert status in allowed, (status, err)
    if status == 2:
        # split on newlines only: a value may hold other line breaks (\x1e, \u2028...)
        complaints = [line for line in err.strip("\n").split("\n") if "warning" not in line]
        assert len(complaints) == 1 and complaints[0].startswith("botarena: "), err


# -- options ----------------------------------------------------------------------------------

# whole numbers of every magnitude, either sign (overflows hide at 2**31, 2**63, 2**64...)
MAGNITUDES = st.integers(0, 40).flatmap(lambda digits: st.integers(10**digits // 10, 10**digits))
NUMBER_TEXT = st.one_of(
    MAGNITUDES.map(str), MAGNITUDES.map(lambda value: str(-value)),
    st.sampled_from(["2147483648", "18446744073709551616", "", " ", "nan", "inf", "-inf", "1e999",
                     "0x10", "1_000", "٣", "9" * 5000]),
    st.floats().map(repr), st.text(max_size=6))
# -n: a refused value or a tiny run (a valid huge -n would play for hours)
GAMES_TEXT = st.one_of(st.integers(max_value=0).map(str), st.integers(min_value=10**9 + 1).map(str),
                       st.sampled_from(["1", "2", "", "nan", "1e3", "x"]))
SPRT_TEXT = st.one_of(
    st.lists(st.tuples(st.sampled_from(["elo0", "elo1", "alpha", "beta", "x", ""]), NUMBER_TEXT),
             max_size=3).map(lambda items: ",".join(f"{key}={value}" for key, value in items)),
    st.text(max_size=12))
NUMERIC_OPTIONS = ["--turn-ms", "--first-turn-ms", "--grace-ms", "--memory-mb", "--jobs", "--seed"]


@st.composite
def match_options(draw) -> list[str]:
    words = ["--games", draw(GAMES_TEXT)]
    for option in draw(st.lists(st.sampled_from(NUMERIC_OPTIONS), min_size=1, max_size=3,
                                 unique=True)):
        words += [option, draw(NUMBER_TEXT)]
    if draw(st.booleans()):
        words += ["--sprt", draw(SPRT_TEXT)]
    if "--jobs" not in words:
        words += ["--jobs", "1"]
    return words


@FAST
@given(options=match_options())
def test_match_options_at_random_are_refused_in_one_line_or_run(options):
    words = []
    for option, value in zip(options[::2], options[1::2]):
        words.append(f"{option}={value}")      # '=': a value may itself start with '-'
    status, _, err = run_in_process("match", "tictactoe", "random", "random --seed 1", *words,
                                    "--quiet", "--json")
    assert_clean(status, err)


@pytest.mark.parametrize("wild", NUMERIC_OPTIONS)
@settings(FAST, max_examples=examples(15))
@given(value=NUMBER_TEXT)
def test_play_options_at_random_are_refused_in_one_line_or_run(wild, value):
    status, _, err = run_in_process("play", "tictactoe", "random", "random --seed 1",
                                    f"{wild}={value}", "--quiet", "--json")
    assert_clean(status, err)


@pytest.mark.parametrize("argv, message", [
    (("--turn-ms", "99999999999999999999"), "at most 3600000"),
    (("--grace-ms", "99999999999999"), "at most 3600000"),
    (("--memory-mb", "99999999999999999"), "from 0 (no cap) to 1,048,576"),
    (("--sprt", "elo0=0,elo1=inf"), "from -1000 to 1000"),
    (("--sprt", "elo0=nan"), "from -1000 to 1000"),
    (("-n", "99999999999999999999"), "from 1 to 1,000,000,000"),
    (("--jobs", "99999999999999999999"), "from 1 to 256"),
    (("--seed", str(-2**63 - 1)), "64-bit signed integer"),
    (("--seed", str(2**63)), "64-bit signed integer"),
])
def test_the_numbers_of_issue_12_are_refused_naming_the_range(argv, message):
    status, out, err = run_in_process("match", "tictactoe", "random", "random", *argv)
    assert status == 2 and message in err and out == "", err
    assert_clean(status, err)


# -- files ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict:
    """A real results file (2 games) and a real replay, made once."""
    folder = tmp_path_factory.mktemp("played")
    results, replay = folder / "games.jsonl", folder / "game.json"
    for args in (("match", "tictactoe", "random", "random --seed 1", "-n", "2", "--seed", "3",
                  "--out", str(results), *CALM),
                 ("play", "tictactoe", "random --seed 1", "random --seed 2", "--seed", "3",
                  "--replay", str(replay))):
        done = run_cli(*args, "--quiet")
        assert done.returncode == 0, done.stderr
    return {"lines": results.read_text().splitlines(), "replay": json.loads(replay.read_text())}


@st.composite
def mutated(draw, document):
    """``document`` with one field (at the top, or one level down) replaced by random JSON or
    removed; or random JSON instead of it all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(JSON)
    copy = json.loads(json.dumps(document))
    target = copy
    key = draw(st.sampled_from(sorted(copy)))
    inner = copy[key]
    if isinstance(inner, list) and inner and draw(st.booleans()):
        target, key = inner, draw(st.integers(0, len(inner) - 1))
        if isinstance(target[key], dict) and target[key] and draw(st.booleans()):
            target, key = target[key], draw(st.sampled_from(sorted(target[key])))
    elif isinstance(inner, dict) and inner and draw(st.booleans()):
        target, key = inner, draw(st.sampled_from(sorted(inner)))
    if isinstance(target, dict) and draw(st.integers(0, 4)) == 0:
        del target[key]
    else:
        target[key] = draw(JSON)
    return copy


@FAST
@given(data=st.data())
def test_a_results_file_with_random_json_resumes_or_is_refused_in_one_line(played, tmp_path,
                                                                          data):
    first, second = (json.loads(line) for line in played["lines"])
    line = json.dumps(data.draw(mutated(first)))
    out = tmp_path / "games.jsonl"
    out.write_text(line + "\n" + json.dumps(second) + "\n")
    status, _, err = run_in_process("match", "tictactoe", "random", "random --seed 1", "-n", "2",
                                    "--out", str(out), *CALM, "--quiet", "--json")
    assert_clean(status, err)


@FAST
@given(data=st.data())
def test_a_replay_with_random_json_is_checked_or_refused_in_one_line(played, tmp_path, data):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data.draw(mutated(played["replay"]))))
    status, _, err = run_in_process("replay", str(path), "--verify")
    assert_clean(status, err, allowed=(0, 1, 2))


def test_the_random_inputs_reach_past_the_parsers(played, tmp_path):
    """The unmutated files pass, so the random ones probe what lies behind the checks."""
    out = tmp_path / "games.jsonl"
    out.write_text("\n".join(played["lines"]) + "\n")
    status, stdout, err = run_in_process("match", "tictactoe", "random", "random --seed 1", "-n",
                                         "2", "--out", str(out), *CALM, "--quiet", "--json")
    assert status == 0 and json.loads(stdout)["games"] == 2, err
    path = tmp_path / "game.json"
    path.write_text(json.dumps(played["replay"]))
    assert run_in_process("replay", str(path), "--verify")[0] == 0
    assert Path(out).read_text().count("\n") == 2, "nothing played: both games were there"
