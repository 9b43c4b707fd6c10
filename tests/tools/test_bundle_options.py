"""``bundle --set`` reads a bot's options without running the bot in botarena (issue 23, defect 4):
only its definitions run, in a child process with no stdin, a time limit, killed after."""
from __future__ import annotations

import subprocess
import sys
import time

import pytest

from referee.api import UsageError
from tests.conftest import ROOT, run_cli
from tools.bundle.builder import resolve_entry
from tools.bundle.defaults import READ_OPTIONS_S, parse_defaults

PARSER = '''import argparse

def build_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--depth", type=int, default=1, help="search depth")
    return parser
'''

# CodinGame style: the game loop at the top level, after the definitions
SIDE_EFFECT_AND_LOOP = PARSER + '''
open(MARKER, "w").write("the top level ran")
options = build_parser().parse_args()
while True:
    line = input()
    print(line.upper(), options.depth, flush=True)
'''


def _bot(tmp_path, source: str) -> str:
    path = tmp_path / "bot.py"
    path.write_text(f"MARKER = {str(tmp_path / 'ran')!r}\n" + source)
    return str(path)


def test_a_top_level_side_effect_and_input_loop_do_not_run(tmp_path):
    """Before: the file was written by botarena, parse_args() read botarena's own arguments, and
    input() waited on botarena's stdin (here a pipe left open) or raised EOFError."""
    bot = _bot(tmp_path, SIDE_EFFECT_AND_LOOP)
    out = tmp_path / "out" / "bundle.py"
    out.parent.mkdir()
    command = [sys.executable, "-m", "tools.cli", "bundle", bot, "-o", str(out), "--set", "depth=3"]
    with subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as run:
        try:
            _, stderr = run.communicate(timeout=60)        # stdin stays open meanwhile
        except subprocess.TimeoutExpired:
            run.kill()
            pytest.fail("bundle --set waited on its own stdin: the bot's input loop ran")
    assert run.returncode == 0, stderr
    assert not (tmp_path / "ran").exists(), "the bot's top-level code ran at bundle time"
    played = subprocess.run([sys.executable, str(out)], input="go\n", capture_output=True,
                            text=True, cwd=out.parent, timeout=60)
    assert played.stdout == "GO 3\n", played.stderr      # the baked default, 3, is the bot's


def test_a_failing_top_level_statement_is_skipped_and_said(tmp_path):
    entry = resolve_entry(_bot(tmp_path, "width = int(input())\n" + PARSER))
    assert parse_defaults(entry, ["depth=4"]) == {"depth": 4}
    broken = resolve_entry(_bot(tmp_path, "SIZE = int(input())\n" + PARSER.replace(
        "default=1", "default=SIZE")))
    with pytest.raises(UsageError, match=r"build_parser\(\) failed: NameError: .*\(line 2 of its "
                       r"top level, skipped, raised EOFError"):
        parse_defaults(broken, ["depth=4"])


def test_a_bot_whose_definitions_hang_is_cut_off_with_all_it_started(tmp_path):
    """A sibling module imported at the top level starts a process and waits forever."""
    pid_file = tmp_path / "started.pid"
    (tmp_path / "helper.py").write_text(
        "import subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "time.sleep(600)\n")
    bot = _bot(tmp_path, "import helper\n" + PARSER)
    done = run_cli("bundle", bot, "-o", str(tmp_path / "out.py"), "--set", "depth=2", timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert f"took over {READ_OPTIONS_S} s" in done.stderr
    started = int(pid_file.read_text())
    deadline = time.monotonic() + 10
    while _alive(started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(started), "a process the bot started outlived bundle --set"


def test_a_bot_whose_definitions_start_a_process_in_its_own_session_leaves_nothing(tmp_path):
    """An assignment at the top level starts a process in a new session that keeps botarena's
    pipes open and outlives the reader: the options are still read, at once, and it is killed
    (it hung past the time limit, and was left running, when only the group was killed)."""
    pid_file = tmp_path / "started.pid"
    bot = _bot(tmp_path, "import subprocess, sys\n"
               "daemon = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'],"
               " start_new_session=True)\n"
               f"_ = open({str(pid_file)!r}, 'w').write(str(daemon.pid))\n" + PARSER)
    done = run_cli("bundle", bot, "-o", str(tmp_path / "out.py"), "--set", "depth=2",
                   timeout=READ_OPTIONS_S * 3)
    assert done.returncode == 0, done.stderr
    started = int(pid_file.read_text())
    deadline = time.monotonic() + 10
    while _alive(started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(started), "the process in its own session outlived bundle --set"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_built_in_bots_are_read_the_same_way():
    entry = resolve_entry("xmas_rush/hybrid")
    assert parse_defaults(entry, ["depth=2", "c=0.5"]) == {"depth": 2, "c": 0.5}
