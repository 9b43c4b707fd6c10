"""The words of a bot's faults: one line each, quoting what the bot printed and saying what to do.

``answer_pipe`` and ``process`` decide which fault it is and gather the facts (the deadline, the
CPU time, the exit status, the last stderr line); the sentences are made here, in one place.
"""
from __future__ import annotations

import re
import signal

STOPPED_READING = "stopped reading its input"
CLOSED_STDOUT = "closed its stdout"
EXITED = "exited"
STDIN_FULL = "did not read its input in time (stdin pipe full)"
_OUT_OF_MEMORY = re.compile(r"MemoryError|bad_alloc|[Oo]ut of memory|Cannot allocate memory|"
                            r"heap out of memory|OutOfMemoryError")


def quoted_line(raw: bytes | bytearray, width: int = 60) -> str:
    """A line a bot printed, quoted (repr) and cut to ``width`` characters with an ellipsis."""
    text = bytes(raw).rstrip(b"\r").decode("utf-8", "replace")
    return repr(text) if len(text) <= width else repr(text[:width]) + "..."


def line_too_long(max_chars: int, length: int | None = None) -> str:
    """An answer line past ``max_chars``: ``length`` characters, or no newline yet (None)."""
    if length is None:
        return f"answer line longer than {max_chars} characters (and no newline)"
    return f"answer line longer than {max_chars} characters ({length})"


def extra_lines(answer: bytes | bytearray, rest: bytes) -> str:
    """``answer`` was read as the answer and ``rest`` (one or more lines) came with it."""
    lines = rest.split(b"\n")
    count = len(lines) - (lines[-1] == b"")
    more = f" and {count - 1} more" if count > 1 else ""
    return (f"answered more than one line: {quoted_line(answer)} was read as the answer, then "
            f"came the extra line {quoted_line(lines[0])}{more} in the same turn; print debug "
            "output to stderr, only the answer to stdout")


def not_utf8(raw: bytes | bytearray) -> str:
    return f"answer is not UTF-8: {bytes(raw[:40])!r}"


def unrequested_output(buffer: bytes | bytearray) -> str:
    extra = bytes(buffer[:60]).decode("utf-8", "replace")
    return f"wrote output when none was expected: {extra!r}"


def no_answer(timeout_s: float, partial: bytes | bytearray, cpu_use: str = "", hint: str = "") -> str:
    """No answer line by the deadline: ``cpu_use`` and ``hint`` (see ``cpu_use`` and
    ``output_buffering.unflushed_hint``) when a process tells them, and the partial line."""
    detail = f"no answer within {timeout_s * 1000:.0f} ms{cpu_use}{hint}"
    if partial:
        detail += f"; partial line {bytes(partial[:40]).decode('utf-8', 'replace')!r}"
    return detail


def written_late(timeout_s: float, written_ms: float, read_ms: float) -> str:
    """An answer found past the deadline, which the kernel's stamp says was written after it."""
    return (f"no answer within {timeout_s * 1000:.0f} ms: its answer was written "
            f"{written_ms:.0f} ms after its input (the kernel's time of the write; botarena, "
            f"itself waiting for a CPU, read it at {read_ms:.0f} ms)")


def cpu_use(cpu_ms: float, wait_ms: float | None, timeout_s: float, waiting_now: bool) -> str:
    """What the bot did with the time it was given: its CPU time, its wait for a CPU, and
    whether it was still waiting for one at the deadline (``waiting_now``). A turn in which it
    waited long for a CPU (5 ms and a tenth of its time, or at the deadline) was the machine's
    doing: said first, before anything said of the bot."""
    wait = wait_ms or 0.0
    waited = wait >= 1
    if waiting_now or wait >= max(5.0, timeout_s * 100):
        detail = " (the machine was overloaded in this turn: the bot"
        if waited:
            detail += f" waited {wait:.0f} ms for a CPU"
            detail += ", and was still waiting for one at the deadline" if waiting_now else ""
        else:
            detail += " was waiting for a CPU at the deadline"
        return detail + f"; it used {cpu_ms:.0f} ms CPU)"
    detail = f" (bot used {cpu_ms:.0f} ms CPU"
    if waited:
        detail += f", waited {wait:.0f} ms for a CPU"
    return detail + ")"


def exit_status(code: int) -> str:
    """A process's end as ``Popen.returncode`` gives it (negative: the signal that killed it)."""
    if code >= 0:
        return f"exited with code {code}"
    try:
        return f"killed by {signal.Signals(-code).name}"
    except ValueError:
        return f"killed by signal {-code}"


def ended(status: str, last_stderr_line: str, memory_mb: int | None) -> str:
    """A bot that ended: its ``exit_status`` and its last stderr line, read as running out of
    memory when that line says so and the bot had a cap."""
    if memory_mb and _OUT_OF_MEMORY.search(last_stderr_line):
        return f"memory limit ({memory_mb} MB) exceeded: {status}: {last_stderr_line}"
    return f"{status}: {last_stderr_line}" if last_stderr_line else status


def memory_exceeded(memory_mb: int | None, resident_bytes: int) -> str:
    return (f"memory limit ({memory_mb} MB) exceeded: resident memory reached "
            f"{resident_bytes / 2**20:.0f} MB; killed")
