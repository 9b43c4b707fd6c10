"""Bots that never flush, as on CodinGame: line-buffered stdout by default, and the diagnosis of
an answer left in a bot's output buffer.

A bot that prints its answer with C's ``printf`` or Python's ``print`` into a pipe, and never
flushes, keeps the answer in its stdio buffer while it waits for the next turn's input: a
timeout on the first turn. CodinGame runs such bots line-buffered, so botarena does too, the
way coreutils' ``stdbuf -oL`` does it for C stdio (``LD_PRELOAD`` of ``libstdbuf.so`` with
``_STDBUF_O=L``, where that library exists) and ``PYTHONUNBUFFERED=1`` for Python. Other
runtimes (Java, Node, Rust...) do not buffer this way or are not reached by either.
"""
from __future__ import annotations

import glob
import os
import platform

_LIBSTDBUF_PATTERNS = ("/usr/libexec/coreutils/libstdbuf.so", "/usr/lib/*/coreutils/libstdbuf.so",
                       "/usr/lib/coreutils/libstdbuf.so", "/usr/lib64/coreutils/libstdbuf.so",
                       "/usr/local/libexec/coreutils/libstdbuf.so")
# the number of read(2) in /proc/PID/syscall, per architecture (elsewhere: not diagnosed)
_READ_SYSCALL = {"x86_64": "0", "aarch64": "63", "riscv64": "63", "i686": "3", "armv7l": "3"}


def find_libstdbuf() -> str | None:
    """coreutils' ``libstdbuf.so`` (what ``stdbuf`` preloads), or None where it is not installed."""
    for pattern in _LIBSTDBUF_PATTERNS:
        for path in sorted(glob.glob(pattern)):
            if os.path.isfile(path):
                return path
    return None


LIBSTDBUF = find_libstdbuf()


def line_buffering_variables(environment: dict[str, str]) -> dict[str, str]:
    """The variables that make a bot's stdout line-buffered, to add to ``environment``."""
    variables = {"PYTHONUNBUFFERED": "1"}
    if LIBSTDBUF is not None:
        preload = environment.get("LD_PRELOAD", "")
        if LIBSTDBUF not in preload.split():
            variables["LD_PRELOAD"] = f"{preload} {LIBSTDBUF}".strip()
        variables["_STDBUF_O"] = "L"
    return variables


def waiting_for_input(pid: int) -> bool:
    """Whether a thread of ``pid`` is asleep in read(2) on its stdin (file descriptor 0): a bot
    that believes it has answered. Not a thread woken there with its input and waiting for a
    CPU (state R: an overloaded machine). False when it cannot be told (another OS, no /proc
    access)."""
    read_number = _READ_SYSCALL.get(platform.machine())
    if read_number is None:
        return False
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/syscall") as file:
                words = file.read().split()
        except OSError:
            continue
        if len(words) > 1 and words[0] == read_number and int(words[1], 16) == 0 \
                and _asleep(pid, task):
            return True
    return False


def _asleep(pid: int, task: str) -> bool:
    try:
        with open(f"/proc/{pid}/task/{task}/stat", "rb") as file:
            raw = file.read()
    except OSError:
        return False
    return raw[raw.rfind(b")") + 2:raw.rfind(b")") + 3] == b"S"


def unflushed_hint(line_buffered: bool) -> str:
    """What a timeout says of a bot found waiting for more input at its deadline."""
    hint = ("; at the deadline it was idle, waiting for more input: did it print its answer "
            "and flush it? (print(..., flush=True), fflush(stdout), System.out.flush(), std::endl)")
    return hint if line_buffered else hint[:-1] + "; or drop --no-line-buffering)"
