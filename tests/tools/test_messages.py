"""Messages a user reads: each says what happened and what to do, in botarena's own words."""
from __future__ import annotations

import importlib.metadata
import json
import sys

from tests.conftest import ROOT, run_cli

CALM = ("--first-turn-ms", "30000", "--turn-ms", "30000")


def test_version():
    done = run_cli("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"botarena {importlib.metadata.version('botarena')}"


def test_an_unknown_option_points_to_the_subcommands_help():
    done = run_cli("play", "tictactoe", "random", "random", "--bogus")
    assert done.returncode == 2
    assert done.stderr.strip() == ("botarena: unrecognized arguments: --bogus "
                                   "(see: botarena play --help)")
    done = run_cli("match", "tictactoe", "random", "random", "--nope", "1")
    assert done.returncode == 2 and "(see: botarena match --help)" in done.stderr


def test_a_benchmarks_usage_is_botarenas():
    done = run_cli("bench", "harness", "nope")
    assert done.returncode == 2 and "python -m" not in done.stderr
    assert "usage: botarena bench harness" in done.stderr
    assert "botarena bench harness: error: argument mode: invalid choice: 'nope'" in done.stderr


def test_an_unknown_bot_that_is_a_file_here_hints_dot_slash(tmp_path):
    import subprocess
    (tmp_path / "mybot").write_text("#!/bin/sh\n")
    done = subprocess.run([sys.executable, "-m", "tools.cli", "play", "tictactoe", "mybot",
                           "random"], cwd=tmp_path, env={"PYTHONPATH": str(ROOT),
                                                         "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "'mybot' is a file in this folder: to run it, write ./mybot" in done.stderr


def test_a_results_file_of_other_bots_names_what_it_holds_and_what_was_asked(tmp_path):
    out = tmp_path / "games.jsonl"
    first = run_cli("match", "tictactoe", "random --seed 1", "random --seed 2", "-n", "2",
                    "--out", str(out), "--quiet", *CALM)
    assert first.returncode == 0, first.stderr
    done = run_cli("match", "tictactoe", "alphabeta", "random --seed 2", "-n", "2",
                   "--out", str(out), "--quiet", *CALM)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert "holds games of 'random --seed 1' vs 'random --seed 2'" in done.stderr or \
        "holds games of 'random --seed 2' vs 'random --seed 1'" in done.stderr
    assert "not of the bots asked for ('alphabeta' vs 'random --seed 2')" in done.stderr


def test_one_module_is_not_modules(tmp_path):
    bot = tmp_path / "lone.py"
    bot.write_text("import sys\nfor line in sys.stdin:\n    print('0 0', flush=True)\n")
    done = run_cli("bundle", str(bot), "-o", str(tmp_path / "out.py"))
    assert done.returncode == 0, done.stderr
    assert ", 1 module, " in done.stdout
    assert "# The 1 module below runs as a real module" in (tmp_path / "out.py").read_text()


def _first_fault_of_a_chatty_bot(tmp_path, answer_code: str) -> dict:
    """The fault of a tictactoe bot that prints a debug line on stdout, then its answer as
    ``answer_code`` (lines of Python, with the answer in ``actions[0]``) does."""
    bot = tmp_path / "chatty.py"
    bot.write_text("import sys, time\n"
                   "while sys.stdin.readline():\n"
                   "    actions = [sys.stdin.readline() for _ in range(int(sys.stdin.readline()))]\n"
                   + "".join(f"    {line}\n" for line in answer_code.splitlines()))
    done = run_cli("play", "tictactoe", f"{sys.executable} {bot}", "random", "--seed", "1",
                   *CALM, "--json")
    assert done.returncode == 0, done.stderr
    fault = json.loads(done.stdout)["players"][0]["fault"]
    assert fault["kind"] == "bad_output", fault
    return fault


def test_a_bot_printing_debug_on_stdout_is_told_which_line_was_the_answer(tmp_path):
    fault = _first_fault_of_a_chatty_bot(tmp_path, (   # one write: both lines arrive together
        "sys.stdout.write('debug: thinking hard\\n' + actions[0])\nsys.stdout.flush()"))
    assert fault["detail"].startswith("answered more than one line: 'debug: thinking hard' was "
                                      "read as the answer, then came the extra line '0 0' in the "
                                      "same turn; print debug output to stderr")


def test_jobs_above_the_core_count_are_used_with_a_warning():
    from tools.arena.arena import usable_cores, worker_count
    cores = usable_cores()
    done = run_cli("match", "tictactoe", "random --seed 1", "random --seed 2", "-n", "2",
                   "--jobs", str(cores + 2), "--quiet", *CALM)
    assert done.returncode == 0, done.stderr
    assert f"jobs {cores + 2}" in done.stdout                    # the status line: not capped
    assert done.stderr.count(f"botarena: warning: --jobs {cores + 2} is more than the {cores} core(s)") == 1
    assert worker_count(None) == cores and worker_count(cores) == cores


def test_a_results_file_that_cannot_be_used_is_refused_before_the_first_game(tmp_path):
    import os
    (tmp_path / "blocker").write_text("a file, not a folder")
    (tmp_path / "folder").mkdir()
    every_game = {**os.environ, "BOTARENA_PROGRESS_SECONDS": "0"}
    for out, complaint in (("blocker/games.jsonl", "Not a directory"),
                           ("folder", "is a directory")):
        done = run_cli("match", "tictactoe", "random", "random", "-n", "2", *CALM,
                       "--out", str(tmp_path / out), env=every_game)
        assert done.returncode == 2 and complaint in done.stderr, done.stderr
        assert len(done.stderr.splitlines()) == 1            # no progress line: no game played
    done = run_cli("match", "tictactoe", "random", "random", "-n", "2", *CALM, "--quiet",
                   "--out", str(tmp_path / "new" / "games.jsonl"))
    assert done.returncode == 0 and (tmp_path / "new" / "games.jsonl").exists()


def test_a_debug_line_read_as_the_answer_is_shown_with_the_answer_that_followed(tmp_path):
    """Two flushed prints 5 ms apart usually arrive apart: the first is refused as the answer and
    the refusal names the line that came next (if it came within line_following's 50 ms). A
    loaded machine may deliver both at once: then it is the two-line message. Either way the
    debug line is named as what was read. (The hint itself, with no timing involved:
    tests/referee/test_match_results.py and test_seams.py.)"""
    fault = _first_fault_of_a_chatty_bot(tmp_path, (
        "print('debug: thinking hard', flush=True)\ntime.sleep(0.005)\n"
        "print(actions[0].strip(), flush=True)"))
    detail = fault["detail"]
    if detail.startswith("answered more than one line"):      # they arrived together
        assert "'debug: thinking hard' was read as the answer, then came the extra line '0 0'" \
            in detail, detail
    else:
        assert "got 'debug: thinking hard'" in detail, detail
        assert "the next line it printed" not in detail or (
            "the next line it printed was '0 0': if the refused line was debug output, print "
            "that to stderr") in detail, detail
