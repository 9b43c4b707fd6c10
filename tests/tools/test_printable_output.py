"""What a bot or a referee wrote is escaped before botarena prints it (issue 31, item 7): a bot's
stderr in a crash detail (``play``'s seat line, ``match``'s ``first fault of ...``) and its answers
echoed by ``-v`` could otherwise set the clipboard (OSC 52) or move the cursor and rewrite an
earlier line of the output."""
from __future__ import annotations

from tests.conftest import run_cli
from tools.arena.printable import printable

OSC52 = "\x1b]52;c;cHduZWQ=\x07"                          # set the clipboard to "pwned"
SPOOF = "\x1b[1A\x1b[2K\x1b[Gresult: seat 0 wins (spoofed)"  # up a line, erase it, write over it

# A tic-tac-toe bot that answers once with the sequences in its answer (a bad_output fault),
# or (argv[1] == "crash") writes them on stderr and exits before answering.
BOT = f"""
import sys
if sys.argv[1:] == ["crash"]:
    sys.stderr.write({OSC52!r} + {SPOOF!r} + "\\n")
    sys.exit(1)
sys.stdin.readline()
print("0 0" + {OSC52!r} + {SPOOF!r}, flush=True)
sys.stdin.read()
"""


def _hostile(tmp_path) -> str:
    path = tmp_path / "hostile.py"
    path.write_text(BOT)
    return str(path)


def _assert_escaped(text: str) -> None:
    assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b]52;c;cHduZWQ=\\x07\\x1b[1A\\x1b[2K\\x1b[Gresult: seat 0 wins" in text


def test_printable_escapes_controls_and_keeps_what_prints():
    assert printable("déjà vu\t1") == "déjà vu\t1"
    assert printable("a\x1b[2Kb\x9b\u202ec") == "a\\x1b[2Kb\\u009b\\u202ec"
    assert printable("one\ntwo\x1b", keep_newlines=True) == "one\ntwo\\x1b"
    assert printable("one\ntwo") == "one\\x0atwo"


def test_play_escapes_a_crash_detail_and_the_verbose_echo_of_answers(tmp_path):
    crashed = run_cli("play", "tictactoe", f"{_hostile(tmp_path)} crash", "random", "--seed", "1")
    assert crashed.returncode == 0, crashed.stderr
    assert "FAULT crash" in crashed.stdout
    _assert_escaped(crashed.stdout + crashed.stderr)
    echoed = run_cli("play", "tictactoe", _hostile(tmp_path), "random", "--seed", "1", "-v")
    assert "seat0 >> 0 0\\x1b]52" in echoed.stderr
    _assert_escaped(echoed.stdout + echoed.stderr)


def test_match_escapes_the_first_fault_of_a_bot(tmp_path):
    done = run_cli("match", "tictactoe", f"{_hostile(tmp_path)} crash", "random", "-n", "2",
                   "--quiet")
    assert done.returncode == 0, done.stderr
    assert "first fault of" in done.stdout
    _assert_escaped(done.stdout + done.stderr)
