"""The pipe read against a deadline, on ``os.pipe()`` pairs with no process behind them: what a
bot would print is written by the test, so every path of ``read_line`` is reached on purpose."""
from __future__ import annotations

import os
import threading
import time

import pytest

from referee.api import BotFault, Fault
from referee.harness.answer_pipe import AnswerPipe

WAIT_S = 10.0           # a deadline never reached when the line is there
SHORT_S = 0.05          # one that is


class Pipes:
    """A bot's stdout and stderr, and a descriptor that becomes readable when it "exits"."""

    def __init__(self, max_line_chars: int = 100) -> None:
        self.out_r, self.out_w = os.pipe()
        self.err_r, self.err_w = os.pipe()
        self.exit_r, self.exit_w = os.pipe()
        self.answers = AnswerPipe(self.out_r, self.err_r, self.exit_r, max_line_chars=max_line_chars)

    def print(self, data: bytes) -> None:
        os.write(self.out_w, data)

    def later(self, seconds: float, action) -> threading.Thread:
        def run() -> None:
            time.sleep(seconds)
            action()
        thread = threading.Thread(target=run)
        thread.start()
        return thread

    def read(self, timeout_s: float = WAIT_S):
        return self.answers.read_line(time.perf_counter(), timeout_s)

    def close(self) -> None:
        for fd in (self.out_r, self.out_w, self.err_r, self.err_w, self.exit_r, self.exit_w):
            try:
                os.close(fd)
            except OSError:
                pass


@pytest.fixture
def pipes():
    made = Pipes()
    yield made
    made.close()


def _fault(pipes: Pipes, timeout_s: float = WAIT_S) -> BotFault:
    with pytest.raises(BotFault) as caught:
        pipes.read(timeout_s)
    return caught.value


def test_lines_written_one_by_one_are_read_one_by_one(pipes):
    for line in ("PUSH 3 UP", "MOVE LEFT", "PASS"):
        pipes.print(line.encode() + b"\n")
        answer = pipes.read()
        assert answer.line == line and answer.latency_ms >= 0


def test_a_line_in_pieces_is_read_whole_when_its_end_comes(pipes):
    pipes.print(b"MOVE ")
    writer = pipes.later(0.05, lambda: pipes.print(b"UP\r\n"))
    assert pipes.read().line == "MOVE UP"
    writer.join()


def test_no_line_by_the_deadline_is_a_timeout_quoting_the_partial_line(pipes):
    pipes.print(b"MOVE U")
    fault = _fault(pipes, SHORT_S)
    assert fault.kind is Fault.TIMEOUT
    assert fault.detail == "no answer within 50 ms; partial line 'MOVE U'"
    pipes.print(b"P\n")                             # the rest comes: the next read has it
    assert pipes.read().line == "MOVE UP"


def test_a_deadline_already_passed_is_a_timeout_without_waiting(pipes):
    with pytest.raises(BotFault) as caught:
        pipes.answers.read_line(time.perf_counter() - 1.0, 0.5)
    assert caught.value.kind is Fault.TIMEOUT and caught.value.detail == "no answer within 500 ms"


def test_two_lines_in_one_turn_are_refused_naming_both(pipes):
    pipes.print(b"debug: thinking\nPASS\n")
    fault = _fault(pipes)
    assert fault.kind is Fault.BAD_OUTPUT
    assert fault.detail.startswith("answered more than one line: 'debug: thinking' was read as the "
                                   "answer, then came the extra line 'PASS' in the same turn")


def test_a_line_past_the_limit_is_refused_with_or_without_its_end():
    with_end, without_end = Pipes(max_line_chars=10), Pipes(max_line_chars=10)
    try:
        with_end.print(b"x" * 11 + b"\n")
        assert _fault(with_end).detail == "answer line longer than 10 characters (11)"
        without_end.print(b"x" * 11)
        assert _fault(without_end).detail == "answer line longer than 10 characters (and no newline)"
    finally:
        with_end.close()
        without_end.close()


def test_an_answer_that_is_not_utf8_is_refused(pipes):
    pipes.print(b"caf\xe9\n")
    fault = _fault(pipes)
    assert fault.kind is Fault.BAD_OUTPUT and fault.detail == "answer is not UTF-8: b'caf\\xe9'"


def test_stdout_closed_before_a_line_is_a_crash(pipes):
    pipes.print(b"PA")
    pipes.later(0.02, lambda: os.close(pipes.out_w))
    fault = _fault(pipes)
    assert fault.kind is Fault.CRASH and fault.detail == "closed its stdout"


def test_the_exit_descriptor_ends_the_wait_but_a_line_already_there_counts(pipes):
    os.close(pipes.exit_w)                          # "exited" from the start
    pipes.print(b"PASS\n")
    assert pipes.read().line == "PASS"
    fault = _fault(pipes)
    assert fault.kind is Fault.CRASH and fault.detail == "exited"


def test_stderr_is_read_while_waiting_so_a_flood_never_blocks_the_answer(pipes):
    flood = b"e" * (1 << 20)                        # far past a pipe's 64 kB: blocks unless read

    def bot() -> None:
        os.write(pipes.err_w, b"[PDATA] depth = 7\n")
        view = memoryview(flood)
        while view:
            view = view[os.write(pipes.err_w, view):]
        pipes.print(b"PASS\n")

    writer = threading.Thread(target=bot)
    writer.start()
    assert pipes.read().line == "PASS"
    writer.join()
    assert pipes.answers.pdata == {"depth": "7"}
    assert pipes.answers.stderr_total_bytes == len(flood) + len(b"[PDATA] depth = 7\n")
    assert pipes.answers.take_stderr().endswith("e" * 100)


def test_output_nobody_asked_for_is_found_before_the_next_turn(pipes):
    pipes.print(b"late line\n")
    time.sleep(0.01)
    with pytest.raises(BotFault) as caught:
        pipes.answers._check_no_unrequested_output()
    assert caught.value.detail == "wrote output when none was expected: 'late line\\n'"


def test_the_line_after_a_refused_answer_is_quoted_or_none(pipes):
    assert pipes.answers.line_following(0.02) is None
    pipes.print(b"PUSH 1 UP\n")
    assert pipes.answers.line_following(1.0) == "'PUSH 1 UP'"
