"""Start coverage in the first few Python processes of each command line, not in every one.

``bash tools/quickstart.sh coverage`` copies this module into the venv's site-packages as
``botarena_coverage_gate`` with a one-line ``.pth`` that imports it only when
``BOTARENA_COVERAGE_DIR`` is set, so every Python process started under the coverage run (the
pytest process, CLI subprocesses, bots) passes here before its first line of its own code.

Why a sample: the suite starts thousands of bot processes, mostly the same few command lines
(``python bots/xmas_rush/greedy.py``) game after game. Measuring a process costs ~0.2 s at its
start and exit (importing coverage, writing its data file) plus the tracing itself; measured in
every process the suite takes hours on 2 cores. Each distinct command line (``sys.orig_argv``)
gets ``BOTARENA_COVERAGE_SAMPLE`` slots (default 3): the first processes to claim one (a file
made with O_EXCL, so concurrent processes never share one) are measured, the rest run
untraced. A sample can only miss lines, never add them, so the total stays a lower bound
(docs/testing.md gives the cost measured against measuring every process).

Without ``BOTARENA_COVERAGE_DIR`` the ``.pth`` line does nothing else than read it; any error
here leaves the process unmeasured rather than broken (a sandboxed bot cannot write the
coverage folder: it is simply not measured). Importing twice is harmless: this venv reads its
``.pth`` files twice (lib and lib64), and the module body runs once.
"""
from __future__ import annotations

import os
import sys
import zlib

DEFAULT_SAMPLE = 3


_DIGITS_TO_ZERO = str.maketrans("123456789", "000000000")


def command_key(argv: list[str]) -> str:
    """A stable name for a command line apart from its numbers (``--seed 1`` and ``--seed
    440650819`` are the same command), the same in every process (unlike ``hash``)."""
    text = "\0".join(argv).translate(_DIGITS_TO_ZERO)
    while "00" in text:
        text = text.replace("00", "0")
    text = text.encode("utf-8", "surrogateescape")
    return f"{zlib.crc32(text):08x}{zlib.adler32(text):08x}"


def claim_slot(folder: str, key: str, sample: int) -> bool:
    """Whether this process got one of the ``sample`` slots of command ``key`` in ``folder``."""
    for slot in range(sample):
        try:
            os.close(os.open(os.path.join(folder, f"{key}.{slot}"), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            continue
        return True
    return False


def start(environ=os.environ) -> bool:
    """Start coverage in this process if its command line still has a free slot."""
    folder = environ.get("BOTARENA_COVERAGE_DIR")
    rcfile = environ.get("BOTARENA_COVERAGE_RCFILE")
    if not folder or not rcfile:
        return False
    sample = int(environ.get("BOTARENA_COVERAGE_SAMPLE", DEFAULT_SAMPLE))
    slots = os.path.join(folder, "slots")
    if sample > 0 and not claim_slot(slots, command_key(sys.orig_argv[1:]), sample):
        return False
    import coverage

    # process_startup reads the configuration from this variable; it must not stay set, or
    # coverage's own .pth would measure every child of this process, unsampled
    environ["COVERAGE_PROCESS_START"] = rcfile
    try:
        return coverage.process_startup() is not None
    finally:
        del environ["COVERAGE_PROCESS_START"]


def start_quietly() -> bool:
    """``start()``, but an error leaves the process unmeasured: never break a process (a bot,
    the CLI) for the sake of measuring it."""
    try:
        return start()
    except Exception:
        return False


if __name__ == "botarena_coverage_gate":     # the copy the coverage run's .pth line imports
    start_quietly()
