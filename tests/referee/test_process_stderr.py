"""What the harness keeps of a bot's stderr: per-turn tail under a cap, volume, [PDATA], last line."""
from __future__ import annotations

from referee.harness.bot_stderr import StderrLog


def test_pdata_lines_are_parsed_even_when_split_across_reads():
    log = StderrLog(4096)
    for chunk in (b"debug\n[PDATA] depth = 3\n[PDA", b"TA] nodes = 120\nhal", b"f [PDATA] x = a b\n",
                  b"[PDATA] depth = 5\n[PDATA] no equals sign\n"):
        log.absorb(chunk)
    assert log.pdata == {"depth": "5", "nodes": "120", "x": "a b"}


def test_each_turn_keeps_the_tail_up_to_the_cap_and_says_how_much_was_cut():
    log = StderrLog(10)
    log.absorb(b"0123456789abcdef")
    log.absorb(b"XY")
    assert log.take() == "[... 8 bytes cut]\n89abcdefXY"
    assert log.take() == ""
    log.absorb(b"short")
    assert log.take() == "short"
    assert log.total_bytes == 16 + 2 + 5


def test_the_last_line_survives_a_take_and_undecodable_bytes():
    log = StderrLog(8)
    log.absorb(b"Traceback...\nValueError: bad \xff input\n\n")
    log.take()
    assert log.last_line() == "ValueError: bad \ufffd input"
